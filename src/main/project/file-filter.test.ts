import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../shared/project-types';
import { BestOf } from './best-of';
import { filterFiles, naturalCompare } from './file-filter';

const file = (path: string, extra: Partial<TreeEntry> = {}): TreeEntry => ({ path, kind: 'file', ...extra });
const folder = (path: string): TreeEntry => ({ path, kind: 'directory' });
const SAMPLE = [file('file10.txt'), file('README.md'), folder('src'), file('src/b.ts'), file('src/a.ts'), folder('src/lib'), file('src/lib/util.ts'), file('file2.txt'), file('debug.log', { ignored: true })];
const paths = (entries: TreeEntry[]): string[] => entries.map((entry) => entry.path);

describe('filterFiles', () => {
  it('matches files by a case-insensitive substring of their path', () => {
    expect(filterFiles(SAMPLE, 'UTIL', false, 100)).toEqual({ entries: [file('src/lib/util.ts')], more: false, indexing: false });
  });

  it('matches against folder names in the path but never returns folders', () => {
    expect(paths(filterFiles(SAMPLE, 'src', false, 100).entries)).toEqual(['src/a.ts', 'src/b.ts', 'src/lib/util.ts']);
  });

  it('sorts matches naturally by path', () => {
    expect(paths(filterFiles(SAMPLE, 'file', false, 100).entries)).toEqual(['file2.txt', 'file10.txt']);
  });

  it('leaves out ignored files unless showIgnored is set', () => {
    expect(filterFiles(SAMPLE, '.log', false, 100).entries).toEqual([]);
    expect(paths(filterFiles(SAMPLE, '.log', true, 100).entries)).toEqual(['debug.log']);
  });

  it('returns the first `limit` in path order and says there were more', () => {
    const many = Array.from({ length: 30 }, (_, index) => file(`match-${29 - index}.ts`));
    const found = filterFiles(many, 'match', false, 7);
    expect(paths(found.entries)).toEqual(['match-0.ts', 'match-1.ts', 'match-2.ts', 'match-3.ts', 'match-4.ts', 'match-5.ts', 'match-6.ts']);
    expect(found.more).toBe(true);
    expect(filterFiles(many, 'match', false, 30).more).toBe(false);
  });
});

describe('naturalCompare', () => {
  it.each<[string, string]>([
    ['file2.ts', 'file10.ts'],
    ['File2', 'file3'],
    ['a/b', 'a/c'],
    ['v1.9', 'v1.10'],
    ['x007', 'x8'],
    ['abc', 'abcd'],
    ['src/a.ts', 'src/b.ts'],
  ])('puts %j before %j', (before, after) => {
    expect(naturalCompare(before, after)).toBeLessThan(0);
    expect(naturalCompare(after, before)).toBeGreaterThan(0);
  });

  it('tells apart names that differ only in case or leading zeros, and is 0 only for the same string', () => {
    expect(naturalCompare('README', 'readme')).not.toBe(0);
    expect(Math.sign(naturalCompare('README', 'readme'))).toBe(-Math.sign(naturalCompare('readme', 'README')));
    expect(naturalCompare('x07', 'x7')).not.toBe(0);
    expect(naturalCompare('same/path.ts', 'same/path.ts')).toBe(0);
  });

  it('sorts like a total order: seeded random names sorted twice in different orders agree', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const alphabet = 'aAbB019/._-';
    const names = Array.from({ length: 500 }, () => Array.from({ length: 1 + Math.floor(random() * 8) }, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
    const once = [...names].sort(naturalCompare);
    const again = [...names].reverse().sort(naturalCompare);
    expect(again).toEqual(once);
    for (let index = 1; index < once.length; index += 1) expect(naturalCompare(once[index - 1]!, once[index]!)).toBeLessThanOrEqual(0);
  });
});

describe('BestOf', () => {
  it('keeps the same first items as sorting everything would, whatever the order they come in (seeded)', () => {
    let seed = 24;
    const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 200; trial += 1) {
      const limit = 1 + Math.floor(random() * 20);
      const items = Array.from({ length: Math.floor(random() * 400) }, () => Math.floor(random() * 100));
      const best = new BestOf<number>(limit, (a, b) => a - b);
      for (const item of items) best.add(item);
      expect(best.take(), `trial ${trial}`).toEqual([...items].sort((a, b) => a - b).slice(0, limit));
      expect(best.offered).toBe(items.length);
    }
  });
});
