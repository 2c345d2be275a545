import { describe, expect, it, vi } from 'vitest';
import { focusWindow, type LineSpan } from './focus-window';
import { seededRandom } from '../../../test/helpers/seeded-random';

const unit = () => 1;
const byLength = (line: string) => line.length + 1;
const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`);


const cost = (file: readonly string[], span: LineSpan, of: (line: string) => number) => file.slice(span.start, span.end).reduce((sum, line) => sum + of(line), 0);

describe('focusWindow', () => {
  it('takes the whole file, untruncated, when it fits', () => {
    const file = lines(10);
    const expectedTokens = cost(file, { start: 0, end: 10 }, byLength);
    expect(focusWindow(file, null, 1000, byLength)).toEqual({ start: 0, end: 10, tokens: expectedTokens, truncated: false });
    expect(focusWindow(file, { start: 4, end: 6 }, 1000, byLength)).toEqual({ start: 0, end: 10, tokens: expectedTokens, truncated: false });
  });

  it('takes the whole file when the budget is exactly its cost', () => {
    expect(focusWindow(lines(10), { start: 3, end: 4 }, 10, unit)).toEqual({ start: 0, end: 10, tokens: 10, truncated: false });
  });

  it('keeps the focus lines and grows around them symmetrically when the file does not fit', () => {
    expect(focusWindow(lines(100), { start: 50, end: 52 }, 12, unit)).toEqual({ start: 45, end: 57, tokens: 12, truncated: true });
  });

  it('gives the extra line to the side below when the budget left is odd', () => {
    expect(focusWindow(lines(100), { start: 50, end: 51 }, 4, unit)).toEqual({ start: 49, end: 53, tokens: 4, truncated: true });
  });

  it('spends what one side cannot use on the other side', () => {
    expect(focusWindow(lines(100), { start: 1, end: 2 }, 10, unit)).toEqual({ start: 0, end: 10, tokens: 10, truncated: true });
    expect(focusWindow(lines(100), { start: 98, end: 99 }, 10, unit)).toEqual({ start: 90, end: 100, tokens: 10, truncated: true });
  });

  it('starts at the top without a focus', () => {
    expect(focusWindow(lines(100), null, 7, unit)).toEqual({ start: 0, end: 7, tokens: 7, truncated: true });
  });

  it('keeps the first lines of a focus larger than the budget', () => {
    expect(focusWindow(lines(100), { start: 20, end: 60 }, 5, unit)).toEqual({ start: 20, end: 25, tokens: 5, truncated: true });
  });

  it('returns an empty window at the focus when not even its first line fits', () => {
    expect(focusWindow(lines(10), { start: 4, end: 5 }, 3, () => 4)).toEqual({ start: 4, end: 4, tokens: 0, truncated: true });
  });

  it('treats an empty focus as its first line', () => {
    expect(focusWindow(lines(100), { start: 30, end: 30 }, 1, unit)).toMatchObject({ start: 30, end: 31 });
  });

  it('clamps a focus past the end of the file to the file', () => {
    const window = focusWindow(lines(10), { start: 50, end: 60 }, 3, unit);
    expect(window).toEqual({ start: 7, end: 10, tokens: 3, truncated: true });
  });

  it('stops only the side where a line of infinite cost is, and keeps growing the other', () => {
    const file = lines(100);
    file[47] = 'a minified bundle';
    const window = focusWindow(file, { start: 50, end: 51 }, 20, (line) => (line === 'a minified bundle' ? Number.POSITIVE_INFINITY : 1));
    expect(window).toEqual({ start: 48, end: 68, tokens: 20, truncated: true });
  });

  it('stops a side at the first line that does not fit, even when cheaper lines follow it', () => {
    const file = lines(100);
    file[52] = 'x'.repeat(50);
    const window = focusWindow(file, { start: 50, end: 51 }, 10, (line) => line.length > 20 ? 100 : 1);
    expect(window.end).toBe(52);
    expect(window.start).toBe(42);
  });

  it('counts only lines the window reaches', () => {
    const file = lines(100_000);
    const counted = vi.fn(unit);
    focusWindow(file, { start: 50_000, end: 50_001 }, 100, counted);
    expect(counted.mock.calls.length).toBeLessThanOrEqual(102);
  });

  it('handles an empty file', () => {
    expect(focusWindow([], null, 10, unit)).toEqual({ start: 0, end: 0, tokens: 0, truncated: false });
    expect(focusWindow([], { start: 0, end: 1 }, 10, unit)).toEqual({ start: 0, end: 0, tokens: 0, truncated: false });
  });

  it('never exceeds the budget and always returns a contiguous window around the focus, for random files', () => {
    const next = seededRandom(7);
    for (let round = 0; round < 500; round += 1) {
      const file = Array.from({ length: Math.floor(next() * 60) }, () => 'x'.repeat(Math.floor(next() * 30)));
      const focus: LineSpan | null =
        next() < 0.2 || file.length === 0
          ? null
          : (() => {
              const start = Math.floor(next() * file.length);
              return { start, end: start + 1 + Math.floor(next() * 6) };
            })();
      const budget = Math.floor(next() * 400);
      const window = focusWindow(file, focus, budget, byLength);
      const label = `round ${round}: ${file.length} lines, focus ${JSON.stringify(focus)}, budget ${budget}`;

      expect(window.start, label).toBeGreaterThanOrEqual(0);
      expect(window.end, label).toBeLessThanOrEqual(file.length);
      expect(window.start, label).toBeLessThanOrEqual(window.end);
      expect(window.tokens, label).toBe(cost(file, window, byLength));
      expect(window.tokens, label).toBeLessThanOrEqual(budget);
      expect(window.truncated, label).toBe(window.start > 0 || window.end < file.length);

      const focusStart = focus ? Math.min(focus.start, file.length) : 0;
      const focusEnd = focus ? Math.min(focus.end, file.length) : 0;
      const focusCost = cost(file, { start: focusStart, end: focusEnd }, byLength);
      if (focusCost <= budget) {
        expect(window.start, label).toBeLessThanOrEqual(focusStart);
        expect(window.end, label).toBeGreaterThanOrEqual(focusEnd);
        // Grown as far as it can: the next line on either side would not fit.
        if (window.start > 0) expect(window.tokens + byLength(file[window.start - 1]!), label).toBeGreaterThan(budget);
        if (window.end < file.length) expect(window.tokens + byLength(file[window.end]!), label).toBeGreaterThan(budget);
      } else {
        expect(window.start, label).toBe(focusStart);
        expect(window.end, label).toBeLessThan(focusEnd);
        expect(window.tokens + byLength(file[window.end]!), label).toBeGreaterThan(budget);
      }
    }
  });
});
