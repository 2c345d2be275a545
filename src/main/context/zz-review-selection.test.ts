import { describe, expect, it } from 'vitest';
import { findSelection } from './selection-lines';

describe('review: findSelection on hostile input', () => {
  it('stays fast on a selection holding a long run of spaces inside a line (trimEnd /\\s+$/ is quadratic)', () => {
    const lines = ['const a = 1;', 'const b = 2;'];
    const selection = `a${' '.repeat(40_000)}b\nconst b = 2;`; // 40 KB; the reader lets 1 MB through
    const started = performance.now();
    findSelection(selection, lines);
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('stays fast when a line of the current file has a long run of spaces', () => {
    const lines = ['const a = 1;', `x${' '.repeat(40_000)}y`, 'const b = 2;', 'const c = 3;'];
    const started = performance.now();
    findSelection('const b = 2;\nconst c = 3;', lines);
    expect(performance.now() - started).toBeLessThan(250);
  });
});
