import { describe, expect, it } from 'vitest';
import { placesOfAdded } from './line-pairs';

describe('placesOfAdded', () => {
  it('matches unchanged lines first, then pairs the others in order between them', () => {
    expect(placesOfAdded(['a', 'b', 'c'], ['b', 'X', 'Y', 'Z'])).toEqual([1, 2, null, null]);
    expect(placesOfAdded(['a', 'b', 'c'], ['A', 'b', 'C'])).toEqual([0, 1, 2]);
    expect(placesOfAdded(['a'], [])).toEqual([]);
    expect(placesOfAdded([], ['a'])).toEqual([null]);
  });

  it('gives one removed line to the first added line equal to it, else to the first added line (a table or not)', () => {
    expect(placesOfAdded(['b'], ['a', 'b', 'b'])).toEqual([null, 0, null]);
    expect(placesOfAdded(['x'], ['a', 'b'])).toEqual([0, null]);
    expect(placesOfAdded(['x'], ['x'])).toEqual([0]);
  });

  it('pairs long runs in order only, without a table', () => {
    const removed = Array.from({ length: 1000 }, (_, index) => `r${index}`);
    const added = Array.from({ length: 1001 }, (_, index) => (index === 0 ? 'r999' : `a${index}`));
    const places = placesOfAdded(removed, added);
    expect(places.slice(0, 3)).toEqual([0, 1, 2]);
    expect(places.at(-1)).toBeNull();
  });
});
