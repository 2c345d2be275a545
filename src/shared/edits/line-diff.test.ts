import { diffIndices } from 'node-diff3';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { LINEAR_WORK_BOUND, workGrowth } from '../../../test/helpers/work-growth';
import { changedRegions, type ChangedRegion } from './line-diff';

/** Rebuilds `after` from `before`, the regions, and `after`'s lines for the changed slots; null if an unchanged line differs. */
function rebuilt(before: readonly string[], after: readonly string[], regions: readonly ChangedRegion[]): string[] | null {
  const out: string[] = [];
  let at = 0;
  for (const region of regions) {
    out.push(...before.slice(at, region.start));
    out.push(...after.slice(out.length, out.length + region.length));
    at = region.end;
  }
  out.push(...before.slice(at));
  return out.length === after.length && out.every((line, index) => line === after[index]) ? out : null;
}

const size = (regions: readonly ChangedRegion[]): number => regions.reduce((total, region) => total + region.end - region.start + region.length, 0);

describe('changedRegions', () => {
  it('finds what changed, in order, as regions of the older lines', () => {
    expect(changedRegions(['a', 'b', 'c'], ['a', 'B', 'c'], 100)).toEqual([{ start: 1, end: 2, length: 1 }]);
    expect(changedRegions(['a', 'c'], ['a', 'b', 'c'], 100)).toEqual([{ start: 1, end: 1, length: 1 }]);
    expect(changedRegions(['a', 'b', 'c', 'd'], ['x', 'b', 'c', 'y'], 100)).toEqual([{ start: 0, end: 1, length: 1 }, { start: 3, end: 4, length: 1 }]);
    expect(changedRegions(['a'], ['a'], 100)).toEqual([]);
    expect(changedRegions([], ['a'], 100)).toEqual([{ start: 0, end: 0, length: 1 }]);
  });

  it('is a shortest diff that rebuilds the newer lines, on random pairs (property)', () => {
    for (let seed = 1; seed <= 400; seed += 1) {
      const random = seededRandom(seed);
      const alphabet = ['a', 'b', 'c', '}', ''].slice(0, 2 + Math.floor(random() * 4));
      const before = Array.from({ length: Math.floor(random() * 30) }, () => alphabet[Math.floor(random() * alphabet.length)]!);
      const after = [...before];
      for (let edit = 0; edit < Math.floor(random() * 5); edit += 1) {
        const at = Math.floor(random() * (after.length + 1));
        after.splice(at, Math.floor(random() * 3), ...Array.from({ length: Math.floor(random() * 3) }, () => alphabet[Math.floor(random() * alphabet.length)]!));
      }
      const regions = changedRegions(before, after, 1000);
      expect(rebuilt(before, after, regions), `seed ${seed}`).not.toBeNull();
      const reference = diffIndices([...before], [...after]).reduce((total, chunk) => total + chunk.buffer1[1] + chunk.buffer2[1], 0);
      expect(size(regions), `seed ${seed}`).toBe(reference);
    }
  });

  it('calls everything between the common head and tail changed past its limit, instead of going quadratic', () => {
    const before = ['head', ...Array.from({ length: 100 }, (_, index) => `a${index}`), 'tail'];
    const after = ['head', ...Array.from({ length: 100 }, (_, index) => `b${index}`), 'tail'];
    expect(changedRegions(before, after, 50)).toEqual([{ start: 1, end: 101, length: 100 }]);
  });

  it('costs time linear in the file for a few changes far apart (growth ratio, never a duration)', async () => {
    const run = (lines: number) => {
      const before = Array.from({ length: lines }, (_, index) => `line ${index}`);
      const after = [...before];
      after[0] = 'first, edited';
      after[lines - 1] = 'last, edited';
      after[lines >> 1] = 'middle, edited';
      changedRegions(before, after, 1000);
    };
    expect(await workGrowth(run, 2_000)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });
});
