import { describe, expect, it } from 'vitest';
import { overlaps, topBandCovered } from './covering-panels';

const box = (left: number, top: number, width: number, height: number) => ({ left, top, right: left + width, bottom: top + height, height });

describe('topBandCovered', () => {
  const view = box(260, 60, 600, 700);

  it('is the part of the view’s top a panel floating over it hides', () => {
    expect(topBandCovered(view, [box(270, 44, 580, 200)])).toBe(184);
  });

  it('is nothing for a panel beside the view, or docked in its lower half', () => {
    expect(topBandCovered(view, [box(870, 44, 400, 200)])).toBe(0);
    expect(topBandCovered(view, [box(270, 560, 580, 200)])).toBe(0);
  });

  it('takes the deepest of several panels, and never more than the view', () => {
    expect(topBandCovered(view, [box(270, 44, 580, 100), box(300, 100, 100, 900)])).toBe(700);
  });
});

describe('overlaps', () => {
  it('is true only for rects that share area (touching edges do not)', () => {
    expect(overlaps(box(0, 0, 10, 10), box(5, 5, 10, 10))).toBe(true);
    expect(overlaps(box(0, 0, 10, 10), box(10, 0, 10, 10))).toBe(false);
  });
});
