import { describe, expect, it } from 'vitest';
import { LineIndex } from './line-index';
import { occurrences } from './linear-search';
import { AnchorableFile, anchorHunk } from './anchor-hunk';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { LINEAR_WORK_BOUND, workGrowth } from '../../../test/helpers/work-growth';

const matches = (lines: string[], needle: string[], from = 0) => [...new LineIndex(lines).matches(needle, from)];

describe('LineIndex', () => {
  it('finds every start of the needle, overlapping ones included, in order', () => {
    expect(matches(['a', 'b', 'a', 'b', 'a'], ['a', 'b', 'a'])).toEqual([0, 2]);
    expect(matches(['x', 'a', 'y'], ['a'])).toEqual([1]);
    expect(matches(['x', 'a', 'y'], ['z'])).toEqual([]);
    expect(matches(['a', 'b', 'a', 'b'], ['a', 'b'], 1)).toEqual([2]);
    expect(matches(['a'], ['a', 'a'])).toEqual([]);
    expect(matches(['a'], [])).toEqual([]);
  });

  it('agrees with the linear scan on random files and needles (property)', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const random = seededRandom(seed);
      // Few distinct lines: needles are common, and both search strategies get exercised.
      const alphabet = ['}', '', 'a', 'b', 'return x;', '  }'].slice(0, 2 + Math.floor(random() * 4));
      const lines = Array.from({ length: Math.floor(random() * 80) }, () => alphabet[Math.floor(random() * alphabet.length)]!);
      const needle = Array.from({ length: 1 + Math.floor(random() * 4) }, () => alphabet[Math.floor(random() * alphabet.length)]!);
      const from = Math.floor(random() * 10);
      expect(matches(lines, needle, from), `seed ${seed}`).toEqual([...occurrences(lines, needle, from)]);
    }
  });

  it('tells apart long lines that differ only in their middle (lines are hashed by their ends)', () => {
    const lines = Array.from({ length: 3000 }, (_, index) => `${'a'.repeat(40)}${String(index).padStart(5, '0')}${'b'.repeat(40)}`);
    expect(matches(lines, [lines[1234]!, lines[1235]!])).toEqual([1234]);
    expect(matches(lines, [`${'a'.repeat(40)}99999${'b'.repeat(40)}`])).toEqual([]);
  });

  it('tells lines apart whose hashes collide only by comparing them whole', () => {
    // Whatever the hash, a candidate is compared in full: a different line never matches.
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index}`);
    expect(matches(lines, ['line 4999'])).toEqual([4999]);
    expect(matches(lines, ['line 5000'])).toEqual([]);
  });
});

describe('anchoring many hunks against one file version (work counted, never timed)', () => {
  it('anchors n/50 hunks in an n-line file in time linear in n, not hunks × lines', async () => {
    const run = (size: number) => {
      const lines = Array.from({ length: size }, (_, index) => `export const value${index} = ${index};`);
      const file = new AnchorableFile(lines);
      for (let at = 25; at < size; at += 50) {
        const result = anchorHunk(file, { lines: [{ kind: 'remove', text: lines[at]! }, { kind: 'add', text: 'x' }] });
        if (result.status !== 'anchored') throw new Error(`hunk at ${at} did not anchor`);
      }
    };
    expect(await workGrowth(run, 2_000)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });

  it('anchors hunks of very common lines without checking every place each occurs', async () => {
    // Every line is `}` or blank: the rarest line of each hunk is everywhere, so the search falls back to one scan.
    const run = (size: number) => {
      const lines = Array.from({ length: size }, (_, index) => (index % 3 === 0 ? '' : '}'));
      new LineIndex(lines).matches(Array<string>(8).fill('}'), 0).next();
    };
    expect(await workGrowth(run, 2_000)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });
});
