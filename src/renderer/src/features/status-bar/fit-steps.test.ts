import { describe, expect, it } from 'vitest';
import { stepsToFit } from './fit-steps';

/** A row of items by width; each step takes its item's width away. */
const row = (widths: Record<string, number>, room: number) => (applied: readonly string[]) =>
  Object.entries(widths).reduce((sum, [name, width]) => sum + (applied.includes(name) ? 0 : width), 0) > room;

describe('stepsToFit', () => {
  it('applies no step when the row fits as it is', () => {
    expect(stepsToFit(['a', 'b'], row({ a: 10, b: 10, c: 10 }, 30))).toEqual([]);
  });

  it('applies the steps in their order, the least important first, and stops at the first that fits', () => {
    expect(stepsToFit(['a', 'b', 'c'], row({ a: 5, b: 10, c: 10 }, 20))).toEqual(['a']);
    expect(stepsToFit(['a', 'b', 'c'], row({ a: 5, b: 10, c: 10 }, 12))).toEqual(['a', 'b']);
  });

  it('never skips a step to keep a later one: a big later item does not save a small earlier one', () => {
    expect(stepsToFit(['small', 'big'], row({ small: 1, big: 50, rest: 10 }, 20))).toEqual(['small', 'big']);
  });

  it('applies every step when even all of them leave the row too wide', () => {
    expect(stepsToFit(['a', 'b'], row({ a: 5, b: 5, c: 100 }, 20))).toEqual(['a', 'b']);
  });

  it('measures each prefix once, shortest first, and not the whole list when it is not needed', () => {
    const tried: string[][] = [];
    stepsToFit(['a', 'b', 'c'], (applied) => {
      tried.push([...applied]);
      return applied.length < 2;
    });
    expect(tried).toEqual([[], ['a'], ['a', 'b']]);
  });
});
