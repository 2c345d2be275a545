import { describe, expect, it } from 'vitest';
import { AnchorableFile, anchorHunk } from './anchor-hunk';
import type { HunkLine } from './edit-types';
import { LINEAR_WORK_BOUND, workGrowth } from '../../../test/helpers/work-growth';

const context = (text: string): HunkLine => ({ kind: 'context', text });
const remove = (text: string): HunkLine => ({ kind: 'remove', text });
const add = (text: string): HunkLine => ({ kind: 'add', text });
const file = (...lines: string[]) => new AnchorableFile(lines);

/** Applies an anchored result to the lines, for readable assertions. */
function applied(lines: string[], hunk: HunkLine[], extra: { contextHints?: string[]; atEndOfFile?: boolean } = {}) {
  const result = anchorHunk(new AnchorableFile(lines), { lines: hunk, ...extra });
  if (result.status !== 'anchored') return result;
  return { lines: [...lines.slice(0, result.start), ...result.replacement, ...lines.slice(result.end)], tolerances: result.tolerances };
}

describe('anchorHunk', () => {
  it('anchors an exact match and replaces only its lines', () => {
    expect(applied(['a', 'b', 'c', 'd'], [context('b'), remove('c'), add('C')])).toEqual({ lines: ['a', 'b', 'C', 'd'], tolerances: [] });
  });

  it('tolerates trailing whitespace and stray carriage returns, keeping the user’s context line as it is', () => {
    expect(applied(['x', 'keep   ', 'old\r', 'y'], [context('keep'), remove('old'), add('new')])).toEqual({
      lines: ['x', 'keep   ', 'new', 'y'],
      tolerances: ['whitespace'],
    });
  });

  it('tolerates curly quotes and dashes the model typed for straight ones', () => {
    expect(applied(['say("hi")', 'a - b'], [remove('say(“hi”)'), add('say("hello")'), context('a – b')])).toEqual({
      lines: ['say("hello")', 'a - b'],
      tolerances: ['whitespace', 'unicode-punctuation'],
    });
  });

  it('tolerates indentation drift and re-indents the added lines to the file', () => {
    const lines = ['class A {', '    method() {', '        return 1;', '    }', '}'];
    expect(applied(lines, [context('method() {'), remove('    return 1;'), add('    return 2;'), add('    // changed')])).toEqual({
      lines: ['class A {', '    method() {', '        return 2;', '        // changed', '    }', '}'],
      tolerances: ['whitespace', 'unicode-punctuation', 'indentation'],
    });
  });

  it('tolerates a missing blank line, keeping the user’s blank line', () => {
    expect(applied(['first', '', 'second', 'third'], [context('first'), context('second'), remove('third'), add('THIRD')])).toEqual({
      lines: ['first', '', 'second', 'THIRD'],
      tolerances: ['whitespace', 'unicode-punctuation', 'indentation', 'blank-lines'],
    });
  });

  it('tolerates an extra blank line the file does not have', () => {
    expect(applied(['first', 'second'], [context('first'), context(''), remove('second'), add('2nd')])).toEqual({
      lines: ['first', '2nd'],
      tolerances: ['whitespace', 'unicode-punctuation', 'indentation', 'blank-lines'],
    });
  });

  it('refuses a hunk whose text appears twice in the strictest pass that finds it', () => {
    expect(anchorHunk(file('x = 1', 'y', 'x = 1'), { lines: [remove('x = 1'), add('x = 2')] })).toEqual({ status: 'unmatched', reason: 'ambiguous', matches: 2 });
    expect(anchorHunk(file('x = 1  ', 'x = 1\t'), { lines: [remove('x = 1'), add('x = 2')] })).toMatchObject({ status: 'unmatched', reason: 'ambiguous' });
    // A stricter pass with one match wins over a looser one that would find two.
    expect(anchorHunk(file('  x = 1', 'x = 1  '), { lines: [remove('x = 1 '), add('x = 2')] })).toMatchObject({ status: 'anchored', start: 1, tolerances: ['whitespace'] });
  });

  it('uses @@ hints, outermost first, to choose between repeated text', () => {
    const lines = ['class A:', '  def run(self):', '    return 1', 'class B:', '  def run(self):', '    return 1'];
    const result = applied(lines, [remove('    return 1'), add('    return 2')], { contextHints: ['class B:', 'def run'] });
    expect(result).toEqual({ lines: [...lines.slice(0, 5), '    return 2'], tolerances: [] });
  });

  it('refuses a hunk that is not in the file', () => {
    expect(anchorHunk(file('a', 'b'), { lines: [remove('zzz'), add('y')] })).toEqual({ status: 'unmatched', reason: 'not-found', matches: 0 });
  });

  it('matches at the end of the file only when told End of File', () => {
    const lines = ['}', 'x', '}'];
    expect(applied(lines, [remove('}'), add('} // end')], { atEndOfFile: true })).toEqual({ lines: ['}', 'x', '} // end'], tolerances: [] });
  });

  it('places a pure insertion where an End of File marker or a hint says, and appends one that names no place', () => {
    expect(applied(['a'], [add('b')], { atEndOfFile: true })).toEqual({ lines: ['a', 'b'], tolerances: [] });
    // The hint is the line above the change, as the prompt tells the model.
    expect(applied(['import x', 'body'], [add('import y')], { contextHints: ['import x'] })).toEqual({ lines: ['import x', 'import y', 'body'], tolerances: [] });
    expect(anchorHunk(file('def a():', 'def a():'), { lines: [add("  'doc'")], contextHints: ['def a():'] })).toMatchObject({ status: 'unmatched', reason: 'ambiguous' });
    // No old lines and no @@ context: appended at the end, the reference implementation's rule.
    expect(anchorHunk(file('a'), { lines: [add('b')] })).toEqual({ status: 'anchored', start: 1, end: 1, replacement: ['b'], sources: [null], tolerances: [], placement: 'appended' });
    // Blank context alone says nothing about where; a hint that is not in the file says it is elsewhere.
    expect(anchorHunk(file('a'), { lines: [context(''), add('b')] })).toEqual({ status: 'unmatched', reason: 'empty', matches: 0 });
    expect(anchorHunk(file('a'), { lines: [add('b')], contextHints: ['missing'] })).toEqual({ status: 'unmatched', reason: 'not-found', matches: 0 });
  });

  it('anchors 20 hunks in a 2,000-line file', () => {
    const lines = Array.from({ length: 2000 }, (_, index) => `const value${index} = ${index};`);
    const anchorable = new AnchorableFile(lines);
    for (let hunk = 0; hunk < 20; hunk += 1) {
      const at = hunk * 100 + 50;
      const result = anchorHunk(anchorable, { lines: [context(lines[at - 1]!), remove(lines[at]!), add(`const value${at} = -1;`), context(lines[at + 1]!)] });
      expect(result).toMatchObject({ status: 'anchored', start: at - 1, end: at + 2 });
    }
  });
});

describe('anchorHunk on adversarial lines (time linear in the input: work counted, never timed)', () => {
  it('anchors past a 200 KB whitespace run in a hunk line in linear work (a trailing-whitespace regex took 190 s)', async () => {
    const run = (size: number) => anchorHunk(file('a', 'b'), { lines: [remove(`a${' '.repeat(size)}x`), add('y')] });
    expect(run(10)).toEqual({ status: 'unmatched', reason: 'not-found', matches: 0 });
    expect(await workGrowth(run, 12_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });

  it('anchors an inexact hunk in a file with a 50,000-character line in linear work', async () => {
    const run = (size: number) => anchorHunk(file('a', `${' '.repeat(size)}x`, 'b  '), { lines: [remove('b'), add('y')] });
    expect(run(10)).toMatchObject({ status: 'anchored', start: 2, tolerances: ['whitespace'] });
    expect(await workGrowth(run, 3_125)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });

  it('looks for an @@ hint in a long line in linear work (String.prototype.includes is quadratic on a…aba…a)', async () => {
    const run = (size: number) => {
      const hint = `${'a'.repeat(size / 8)}b${'a'.repeat(size / 8)}`;
      return anchorHunk(file('a'.repeat(size), 'c'), { lines: [remove('c'), add('d')], contextHints: [hint] });
    };
    expect(run(16)).toMatchObject({ status: 'anchored', start: 1 });
    expect(await workGrowth(run, 12_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });

  it('matches a long run of identical lines in time linear in lines, not lines × hunk lines', async () => {
    const run = (size: number) => anchorHunk(new AnchorableFile(Array<string>(size).fill('}')), { lines: [...Array<HunkLine>(size / 2).fill(context('}')), remove('z')] });
    expect(run(8)).toEqual({ status: 'unmatched', reason: 'not-found', matches: 0 });
    expect(await workGrowth(run, 2_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });

  it('keeps the file’s blank lines between matched lines, at the end of the file too', () => {
    expect(applied(['x', 'a', '', '', 'b', '', 'c', ''], [context('a'), remove('b'), add('B'), context('c')], { atEndOfFile: true })).toEqual({
      lines: ['x', 'a', '', '', 'B', '', 'c', ''],
      tolerances: ['whitespace', 'unicode-punctuation', 'indentation', 'blank-lines'],
    });
    // Not at the end: a non-blank line follows the only match.
    expect(anchorHunk(file('a', '', 'b', 'tail'), { lines: [context('a'), remove('b')], atEndOfFile: true })).toMatchObject({ status: 'unmatched', reason: 'not-found' });
  });

  it('anchors a hunk that stacks thousands of @@ hints on one long line in linear work (only the innermost 16 count)', async () => {
    const run = (size: number) => anchorHunk(file(`${'a'.repeat(size)}b`, 'c'), { lines: [remove('c'), add('d')], contextHints: Array<string>(Math.floor(size / 16)).fill('b') });
    expect(run(64)).toMatchObject({ status: 'anchored', start: 1 });
    expect(await workGrowth(run, 12_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });
});

describe('anchorHunk: the Unicode a model types for ASCII', () => {
  it('reads the whole dash family and the typographic spaces as - and a space, in the tolerant pass', () => {
    const dashes = ['\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212'];
    for (const dash of dashes) {
      expect(applied(['x = a - b;', 'y'], [remove(`x = a ${dash} b;`), add('x = a + b;')]), `U+${dash.charCodeAt(0).toString(16)}`).toEqual({
        lines: ['x = a + b;', 'y'],
        tolerances: ['whitespace', 'unicode-punctuation'],
      });
    }
    const spaces = ['\u2000', '\u2003', '\u2007', '\u2009', '\u200a', '\u3000', '\u00a0', '\u202f'];
    for (const space of spaces) {
      expect(applied(['let total = 0;'], [remove(`let${space}total = 0;`), add('let total = 1;')]), `U+${space.charCodeAt(0).toString(16)}`).toMatchObject({
        lines: ['let total = 1;'],
      });
    }
  });

  it('never treats a zero-width space as a space (it is not one in code)', () => {
    expect(anchorHunk(file('let total = 0;'), { lines: [remove('let\u200btotal = 0;'), add('x')] })).toMatchObject({ status: 'unmatched', reason: 'not-found' });
  });
});

describe('anchorHunk: which line each new line takes the place of (for its line ending)', () => {
  it('gives kept lines their own place, added lines the places of the removed lines between the same kept lines', () => {
    const anchored = anchorHunk(file('a', 'b', 'c', 'd'), { lines: [context('a'), remove('b'), add('B1'), add('B2'), context('c'), remove('d'), add('D')] });
    expect(anchored).toMatchObject({ status: 'anchored', replacement: ['a', 'B1', 'B2', 'c', 'D'], sources: [0, 1, null, 2, 3] });
  });

  it('takes a line a search/replace block removes and adds unchanged for the same line', () => {
    // SEARCH x, blank, y; REPLACE blank, Y1, Y2: the blank line stays itself, Y1 takes y's place.
    const anchored = anchorHunk(file('x', '  ', 'y'), { lines: [remove('x'), remove('  '), remove('y'), add('  '), add('Y1'), add('Y2')] });
    expect(anchored).toMatchObject({ status: 'anchored', replacement: ['  ', 'Y1', 'Y2'], sources: [1, 2, null] });
  });

  it('pairs added lines with removed ones whichever the model wrote first', () => {
    const anchored = anchorHunk(file('k', 'old'), { lines: [context('k'), add('new'), remove('old')] });
    expect(anchored).toMatchObject({ status: 'anchored', replacement: ['k', 'new'], sources: [0, 1] });
  });
});
