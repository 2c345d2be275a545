import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../shared/project-types';
import { mentionableFiles, rankPaths } from './mention-match';

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

describe('mentionableFiles', () => {
  it('keeps files and links to files inside the project; drops folders, hidden entries and links out', () => {
    const entries: TreeEntry[] = [
      { path: 'src', kind: 'directory' },
      { path: 'src/a.ts', kind: 'file' },
      { path: 'dist/out.js', kind: 'file', ignored: true },
      { path: 'link.ts', kind: 'symlink', symlink: { target: 'src/a.ts', escapes: false, targetKind: 'file' } },
      { path: 'out.ts', kind: 'symlink', symlink: { target: '/etc/passwd', escapes: true, targetKind: 'file' } },
      { path: 'folder-link', kind: 'symlink', symlink: { target: 'src', escapes: false, targetKind: 'directory' } },
    ];
    expect(mentionableFiles(entries)).toEqual(['src/a.ts', 'link.ts']);
  });
});
