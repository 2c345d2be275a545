import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { LINEAR_WORK_BOUND, workGrowth } from '../../../test/helpers/work-growth';
import { findSelection } from './selection-lines';

const FILE = ['import { a } from "./a";', '', 'export function total(items: Item[]): number {', '  let sum = 0;', '  for (const item of items) sum += item.price;', '  return sum;', '}', '', 'export const twice = (n: number) => n * 2;'];

describe('findSelection', () => {
  it('finds whole lines the user selected', () => {
    expect(findSelection('  let sum = 0;\n  for (const item of items) sum += item.price;\n', FILE)).toEqual({ kind: 'lines', startLine: 4, endLine: 5 });
  });

  it('finds a selection that starts and ends mid-line, with CRLF endings and trailing spaces from a terminal', () => {
    expect(findSelection('total(items: Item[]): number {   \r\n  let sum = 0;\r\n  for (const', FILE)).toEqual({ kind: 'lines', startLine: 3, endLine: 5 });
  });

  it('finds a part of one line when it is long enough to mean a place', () => {
    expect(findSelection('=> n * 2', FILE)).toEqual({ kind: 'lines', startLine: 9, endLine: 9 });
  });

  it('does not take a selection of a few characters, or one that is in several places, as a focus', () => {
    expect(findSelection('sum', FILE)).toEqual({ kind: 'not-found' });
    expect(findSelection('export', FILE)).toEqual({ kind: 'ambiguous', places: 2 });
  });

  it('does not find text that is not the file’s (a stale selection from a browser)', () => {
    expect(findSelection('Pull requests 12', FILE)).toEqual({ kind: 'not-found' });
    expect(findSelection('  let sum = 0;\n  return sum;', FILE)).toEqual({ kind: 'not-found' });
    expect(findSelection('\n\n', FILE)).toEqual({ kind: 'not-found' });
  });

  it('finds any run of lines cut from a random file at random columns, each cut keeping a distinctive part (seeded)', () => {
    const next = seededRandom(1405);
    const random = { int: (below: number) => Math.floor(next() * below) };
    for (let trial = 0; trial < 300; trial += 1) {
      const lines = Array.from({ length: 40 }, (_, index) => `line ${index} ${random.int(1_000_000)} ${'x'.repeat(random.int(10))}`);
      const start = random.int(38);
      const end = start + 1 + random.int(Math.min(10, 39 - start));
      const first = lines[start]!;
      const last = lines[end]!;
      // Cut before the first line's number and after the last line's: what remains is distinctive.
      const numberEnd = last.indexOf(' ', last.indexOf(' ') + 1);
      const text = [first.slice(random.int(first.indexOf(' ') + 1)), ...lines.slice(start + 1, end), last.slice(0, numberEnd + random.int(last.length - numberEnd + 1))].join('\n');
      expect(findSelection(text, lines)).toEqual({ kind: 'lines', startLine: start + 1, endLine: end + 1 });
    }
  });

  it('stays fast and bounded on a 10 MB selection against a large file', () => {
    const lines = Array.from({ length: 100_000 }, (_, index) => `const value${index} = ${index};`);
    expect(findSelection('x'.repeat(10 * 1024 * 1024), lines)).toEqual({ kind: 'not-found' });
  });
  it('does linear work on a long run of spaces inside a selected line or a line of the file (a backtracking /\\s+$/ took seconds)', async () => {
    expect(await workGrowth((size) => findSelection(`a${' '.repeat(size)}b\nconst b = 2;`, ['const a = 1;', 'const b = 2;']), 2_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
    const file = (size: number) => ['const a = 1;', `x${' '.repeat(size)}y`, 'const b = 2;', 'const c = 3;'];
    expect(await workGrowth((size) => findSelection('const b = 2;\nconst c = 3;', file(size)), 2_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });

  it('does linear work finding a selection of many identical lines in a file of them (a check from every line is quadratic)', async () => {
    const run = (size: number) => findSelection([...Array<string>(size / 2).fill('}'), 'z'].join('\n'), Array<string>(size).fill('}'));
    expect(run(8)).toEqual({ kind: 'not-found' });
    expect(await workGrowth(run, 2_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });

  it('does linear work finding a one-line selection in a long line that almost holds it (a…aba…a: native includes is quadratic)', async () => {
    const run = (size: number) => findSelection(`${'a'.repeat(size / 8)}b${'a'.repeat(size / 8)}`, ['a'.repeat(size), 'c']);
    expect(run(64)).toEqual({ kind: 'not-found' });
    expect(await workGrowth(run, 12_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });
});
