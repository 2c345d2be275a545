import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../shared/project-types';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { naturalCompare } from './file-filter';
import { rankPaths } from './mention-match';
import { isMentionable } from './searchable-paths';

const PATHS = ['README.md', 'src/a.ts', 'src/b.ts', 'src/lib/str-util.ts', 'scripts/release.sh', 'test/src-map.test.ts', 'docs/über/naïve.md'];

describe('rankPaths', () => {
  it.each<[string, string[]]>([
    // Prefix of the path, then a word inside it, then letters in order (shorter first).
    ['sr', ['src/a.ts', 'src/b.ts', 'src/lib/str-util.ts', 'test/src-map.test.ts', 'docs/über/naïve.md', 'scripts/release.sh']],
    ['src/a', ['src/a.ts']],
    ['b.ts', ['src/b.ts', 'src/lib/str-util.ts']],
    ['util', ['src/lib/str-util.ts']],
    ['SRC/B', ['src/b.ts', 'src/lib/str-util.ts']],
    ['sat', ['src/a.ts', 'test/src-map.test.ts']],
    ['naï', ['docs/über/naïve.md']],
    ['zzz', []],
  ])('offers the best files for %j first', (query, expected) => {
    expect(rankPaths(PATHS, query)).toEqual(expected);
  });

  it('offers the paths nearest the root for a bare @, at most the limit', () => {
    expect(rankPaths(PATHS, '', 3)).toEqual(['src/a.ts', 'src/b.ts', 'README.md']);
  });
});

describe('rankPaths, against ranking every path in full', () => {
  /** The same order, the slow way: every path scored as the module's doc says, all sorted. */
  const naive = (paths: string[], query: string, limit: number): string[] => {
    const needle = query.toLowerCase();
    const subsequence = (path: string): boolean => {
      let at = 0;
      for (const character of path) if (character === needle[at]) at += 1;
      return at === needle.length;
    };
    const score = (path: string): number => {
      const lower = path.toLowerCase();
      const at = lower.indexOf(needle);
      if (needle === '') return 1;
      if (at === 0) return 5;
      if (lower.slice(lower.lastIndexOf('/') + 1).startsWith(needle)) return 4;
      if (at > 0) return '/._- '.includes(lower[at - 1]!) ? 3 : 2;
      return subsequence(lower) ? 1 : 0;
    };
    return paths
      .map((path) => ({ path, score: score(path) }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score || a.path.length - b.path.length || naturalCompare(a.path, b.path))
      .slice(0, limit)
      .map((entry) => entry.path);
  };

  it('offers the same files in the same order, for seeded random paths and queries', () => {
    const random = seededRandom(9090);
    const pick = (from: string): string => from[Math.floor(random() * from.length)]!;
    for (let trial = 0; trial < 200; trial += 1) {
      const paths = new Set<string>();
      for (let count = 0; count < 60; count += 1) {
        const depth = 1 + Math.floor(random() * 3);
        paths.add(Array.from({ length: depth }, () => Array.from({ length: 1 + Math.floor(random() * 5) }, () => pick('abAB1-_.')).join('')).join('/'));
      }
      const query = Array.from({ length: Math.floor(random() * 4) }, () => pick('abAB1/.-')).join('');
      const limit = 1 + Math.floor(random() * 10);
      expect(rankPaths([...paths], query, limit), `trial ${trial}, query ${JSON.stringify(query)}`).toEqual(naive([...paths], query, limit));
    }
  });
});

describe('isMentionable', () => {
  it('keeps files and links to files inside the project; drops folders, hidden entries and links out', () => {
    const entries: TreeEntry[] = [
      { path: 'src', kind: 'directory' },
      { path: 'src/a.ts', kind: 'file' },
      { path: 'dist/out.js', kind: 'file', ignored: true },
      { path: 'link.ts', kind: 'symlink', symlink: { target: 'src/a.ts', escapes: false, targetKind: 'file' } },
      { path: 'out.ts', kind: 'symlink', symlink: { target: '/etc/passwd', escapes: true, targetKind: 'file' } },
      { path: 'folder-link', kind: 'symlink', symlink: { target: 'src', escapes: false, targetKind: 'directory' } },
    ];
    expect(entries.filter(isMentionable).map((entry) => entry.path)).toEqual(['src/a.ts', 'link.ts']);
  });
});
