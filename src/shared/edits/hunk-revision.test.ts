import { describe, expect, it } from 'vitest';
import { newLinesOf, oldLinesOf, type HunkLine } from './edit-types';
import { linesBetween, reviseHunk } from './hunk-revision';

const hunk = (...lines: string[]): HunkLine[] => lines.map((line) => ({ kind: line[0] === '-' ? 'remove' : line[0] === '+' ? 'add' : 'context', text: line.slice(1) }));

describe('reviseHunk: some of a hunk’s lines', () => {
  it('keeps the removed lines not chosen as context and leaves out the added lines not chosen', () => {
    const lines = hunk(' a', '-b', '-c', '+B', '+C', ' d');
    const revised = reviseHunk(lines, { kind: 'lines', indices: [1, 3] });
    expect(revised).toEqual({ ok: true, lines: hunk(' a', '-b', '+B', ' c', ' d'), words: '2 of 4 changed lines' });
  });

  it('puts a chosen added line where the line it replaces was, even when that line is kept', () => {
    // A search/replace block repeats the lines it keeps: "X" goes between "a" and "b".
    const block = hunk('-a', '-b', '+a', '+X', '+b');
    expect(reviseHunk(block, { kind: 'lines', indices: [3] })).toMatchObject({ ok: true, lines: hunk(' a', '+X', ' b') });
    // "C" takes the place of "c"; "b" stays above it, and the unpaired "extra" follows "C".
    const change = hunk('-b', '-c', '+B', '+C', '+extra');
    expect(reviseHunk(change, { kind: 'lines', indices: [1, 3, 4] })).toMatchObject({ ok: true, lines: hunk(' b', '-c', '+C', '+extra') });
  });

  it('keeps only the chosen lines of a new file', () => {
    const revised = reviseHunk(hunk('+one', '+two', '+three'), { kind: 'lines', indices: [2, 0] });
    expect(revised).toEqual({ ok: true, lines: hunk('+one', '+three'), words: '2 of 3 changed lines' });
  });

  it('refuses an index outside the hunk, a context line, or the same line twice, saying which', () => {
    const lines = hunk(' a', '-b', '+B');
    expect(reviseHunk(lines, { kind: 'lines', indices: [3] })).toMatchObject({ ok: false, message: expect.stringContaining('index 3 is not in the hunk') });
    expect(reviseHunk(lines, { kind: 'lines', indices: [-1] })).toMatchObject({ ok: false });
    expect(reviseHunk(lines, { kind: 'lines', indices: [0] })).toMatchObject({ ok: false, message: expect.stringContaining('context line') });
    expect(reviseHunk(lines, { kind: 'lines', indices: [1, 1] })).toMatchObject({ ok: false, message: expect.stringContaining('chosen twice') });
  });

  it('refuses a choice of no line or of every changed line: neither revises anything', () => {
    const lines = hunk(' a', '-b', '+B');
    expect(reviseHunk(lines, { kind: 'lines', indices: [] })).toMatchObject({ ok: false, message: expect.stringContaining('reject the hunk') });
    expect(reviseHunk(lines, { kind: 'lines', indices: [2, 1] })).toMatchObject({ ok: false, message: expect.stringContaining('accept it without choosing') });
  });
});

describe('reviseHunk: a hunk’s new text edited', () => {
  it('turns the old text into the user’s lines with the fewest changed lines', () => {
    const lines = hunk(' a', '-b', '+B', ' c');
    const revised = reviseHunk(lines, { kind: 'edited', newLines: ['a', 'b', 'mine', 'c'] });
    expect(revised).toEqual({ ok: true, lines: hunk(' a', ' b', '+mine', ' c'), words: 'edited by you' });
  });

  it('gives a new file the edited text', () => {
    const revised = reviseHunk(hunk('+one', '+two'), { kind: 'edited', newLines: ['uno'] });
    expect(revised).toMatchObject({ ok: true, lines: hunk('+uno') });
  });

  it('refuses an edit that is the hunk as it is, or the file as it is', () => {
    const lines = hunk(' a', '-b', '+B');
    expect(reviseHunk(lines, { kind: 'edited', newLines: ['a', 'B'] })).toMatchObject({ ok: false, message: expect.stringContaining('accept it as it is') });
    expect(reviseHunk(lines, { kind: 'edited', newLines: ['a', 'b'] })).toMatchObject({ ok: false, message: expect.stringContaining('reject the hunk') });
  });

  it('refuses a line holding a line break or a NUL', () => {
    const lines = hunk('-b', '+B');
    expect(reviseHunk(lines, { kind: 'edited', newLines: ['x\ny'] })).toMatchObject({ ok: false, message: expect.stringContaining('line break') });
    expect(reviseHunk(lines, { kind: 'edited', newLines: ['x\r'] })).toMatchObject({ ok: false });
    expect(reviseHunk(lines, { kind: 'edited', newLines: ['x\0'] })).toMatchObject({ ok: false, message: expect.stringContaining('NUL') });
  });
});

describe('linesBetween', () => {
  it('writes a change as removed lines, then added ones, between shared lines', () => {
    expect(linesBetween(['a', 'b', 'c'], ['a', 'x', 'y', 'c'])).toEqual(hunk(' a', '-b', '+x', '+y', ' c'));
    expect(linesBetween([], ['a'])).toEqual(hunk('+a'));
    expect(linesBetween(['a'], [])).toEqual(hunk('-a'));
    const lines = linesBetween(['p', 'q', 'r', 's'], ['q', 's', 't']);
    expect([oldLinesOf(lines), newLinesOf(lines)]).toEqual([['p', 'q', 'r', 's'], ['q', 's', 't']]);
  });
});
