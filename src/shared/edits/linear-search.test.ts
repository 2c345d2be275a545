import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { LINEAR_WORK_BOUND, workGrowth } from '../../../test/helpers/work-growth';
import { countWork } from '../work-meter';
import { LiteralSearch, occurrences } from './linear-search';

/** Every start where `pattern` occurs, the obvious quadratic way (its comparisons counted, to show the meter sees it). */
function naiveOccurrences<T>(sequence: readonly T[], pattern: readonly T[]): number[] {
  const starts: number[] = [];
  if (pattern.length === 0) return starts;
  for (let start = 0; start + pattern.length <= sequence.length; start += 1) {
    if (pattern.every((element, offset) => (countWork(1), sequence[start + offset] === element))) starts.push(start);
  }
  return starts;
}

describe('LiteralSearch', () => {
  it('finds a literal anywhere in a text, and the empty literal everywhere', () => {
    expect(new LiteralSearch('abab').foundIn('xxababx')).toBe(true);
    expect(new LiteralSearch('abab').foundIn('xxabax')).toBe(false);
    expect(new LiteralSearch('aab').foundIn('aaab')).toBe(true);
    expect(new LiteralSearch('').foundIn('')).toBe(true);
    expect(new LiteralSearch('long').foundIn('lon')).toBe(false);
  });

  it('agrees with String.prototype.includes on random texts over a small alphabet', () => {
    const random = seededRandom(11);
    const text = (length: number) => Array.from({ length }, () => 'ab c'[Math.floor(random() * 4)]).join('');
    for (let trial = 0; trial < 5_000; trial += 1) {
      const haystack = text(Math.floor(random() * 30));
      const literal = text(Math.floor(random() * 6));
      expect(new LiteralSearch(literal).foundIn(haystack), `${JSON.stringify(literal)} in ${JSON.stringify(haystack)}`).toBe(haystack.includes(literal));
    }
  });

  it('searches a 400 KB run of a for a…aba…a in linear work (V8’s includes is quadratic there)', async () => {
    const run = (size: number) => new LiteralSearch(`${'a'.repeat(size / 8)}b${'a'.repeat(size / 8)}`).foundIn('a'.repeat(size));
    expect(run(16)).toBe(false);
    expect(await workGrowth(run, 25_000)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });
});

describe('occurrences', () => {
  it('yields every start in order, overlapping ones included', () => {
    expect([...occurrences(['a', 'a', 'a'], ['a', 'a'])]).toEqual([0, 1]);
    expect([...occurrences(['x', 'y'], [])]).toEqual([]);
    expect([...occurrences(['x'], ['x', 'y'])]).toEqual([]);
  });

  it('agrees with a naive search on random sequences of lines', () => {
    const random = seededRandom(12);
    const lines = (length: number) => Array.from({ length }, () => ['}', '', 'x', 'x '][Math.floor(random() * 4)]!);
    for (let trial = 0; trial < 5_000; trial += 1) {
      const sequence = lines(Math.floor(random() * 30));
      const pattern = lines(Math.floor(random() * 5));
      expect([...occurrences(sequence, pattern)]).toEqual(naiveOccurrences(sequence, pattern));
    }
  });

  it('stops when the caller has seen enough', () => {
    const found = occurrences(Array<string>(1_000_000).fill('}'), ['}']);
    expect([found.next().value, found.next().value]).toEqual([0, 1]);
  });

  it('searches 40,000 identical lines for 20,000 of them and one more in linear work (starting at every line is quadratic)', async () => {
    const lines = (size: number) => [Array<string>(size).fill('}'), [...Array<string>(size / 2).fill('}'), 'z']] as const;
    const run = (size: number) => [...occurrences(...lines(size))];
    expect(run(8)).toEqual([]);
    expect(await workGrowth(run, 2_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
    // The same count on the quadratic search fails the bound: the meter can tell them apart.
    expect(await workGrowth((size) => naiveOccurrences(...lines(size)), 250)).toBeGreaterThan(8);
  });
});
