import { EditorSelection, EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import type { HunkLine } from '../../../../shared/edits/edit-types';
import { buildReviewDoc } from './review-doc';
import { blocksNow, fileLineLabel, reviewExtension, setReviewBlocks } from './review-extension';
import { revisionFor } from './review-revision';

const ctx = (text: string): HunkLine => ({ kind: 'context', text });
const rem = (text: string): HunkLine => ({ kind: 'remove', text });
const add = (text: string): HunkLine => ({ kind: 'add', text });

const actions = () => ({ accept: () => {}, reject: () => {}, enter: () => {}, acceptKey: 'Ctrl+Enter', rejectKey: 'Ctrl+Backspace' });

/** The file `a b c d e` (one per line) with hunk h1 at line 2: b → B1, B2 (c kept). */
function reviewState(): EditorState {
  const doc = buildReviewDoc('a\nb\nc\nd\ne', [{ id: 'h1', number: 1, anchorLine: 2, lines: [rem('b'), add('B1'), add('B2'), ctx('c')] }]);
  const empty = EditorState.create({ doc: '', extensions: reviewExtension(actions) });
  return empty.update({ changes: { from: 0, insert: doc.text }, effects: setReviewBlocks.of(doc.blocks) }).state;
}

const lineStart = (state: EditorState, text: string): number => {
  for (let number = 1; number <= state.doc.lines; number += 1) if (state.doc.line(number).text === text) return state.doc.line(number).from;
  throw new Error(`no line ${text}`);
};

describe('the diff drawn in the file', () => {
  it('finds the block line by line, kept, removed and added', () => {
    const [block] = blocksNow(reviewState());
    expect(block!.lines.map((line) => [line.kind, line.text])).toEqual([
      ['remove', 'b'],
      ['add', 'B1'],
      ['add', 'B2'],
      ['context', 'c'],
    ]);
  });

  it('lets the user type in added lines only: kept, removed and unrelated lines never change', () => {
    const state = reviewState();
    const typedInAdded = state.update({ changes: { from: lineStart(state, 'B1') + 2, insert: 'x' } }).state;
    expect(typedInAdded.doc.toString()).toContain('B1x');
    for (const text of ['a', 'b', 'c', 'e']) {
      const refused = state.update({ changes: { from: lineStart(state, text), insert: 'x' } }).state;
      expect(refused.doc.toString()).toBe(state.doc.toString());
    }
  });

  it('numbers lines as the file on disk has them: added lines have no number yet', () => {
    const state = reviewState();
    expect([1, 2, 3, 4, 5, 6, 7].map((line) => fileLineLabel(state, line))).toEqual(['1', '2 −', '+', '+', '3', '4', '5']);
  });

  it('accepts the whole hunk with no selection, and only the selected changed lines with one', () => {
    const state = reviewState();
    expect(revisionFor(state, 'h1')).toBeUndefined();
    const from = lineStart(state, 'B2');
    const selected = state.update({ selection: EditorSelection.range(from, from + 2) }).state;
    expect(revisionFor(selected, 'h1')).toEqual({ kind: 'lines', indices: [2] });
  });

  it('takes no line a selection only starts at the end of or stops at the start of', () => {
    const state = reviewState();
    const from = lineStart(state, 'B1') + 2;
    const selected = state.update({ selection: EditorSelection.range(from, lineStart(state, 'c')) }).state;
    expect(revisionFor(selected, 'h1')).toEqual({ kind: 'lines', indices: [2] });
  });

  it('lets the user delete every added line of a run with one line break, never a kept line', () => {
    const state = reviewState();
    const from = lineStart(state, 'B1');
    const to = lineStart(state, 'B2') + 2;
    const deleted = state.update({ changes: { from: from - 1, to } }).state;
    expect(deleted.doc.toString()).toBe('a\nb\nc\nd\ne');
    expect(revisionFor(deleted, 'h1')).toEqual({ kind: 'edited', newLines: ['c'] });
    const intoKept = state.update({ changes: { from: from - 2, to } }).state;
    expect(intoKept.doc.toString()).toBe(state.doc.toString());
  });

  it('deletes the lines, not just their text, when all of a run of added lines is deleted', () => {
    const state = reviewState();
    const deleted = state.update({ changes: { from: lineStart(state, 'B1'), to: lineStart(state, 'B2') + 2 } }).state;
    expect(deleted.doc.toString()).toBe('a\nb\nc\nd\ne');
  });

  it('reads an edit taken back (to the model\'s text) as no edit: the whole hunk is accepted', () => {
    const state = reviewState();
    const at = lineStart(state, 'B1') + 2;
    const edited = state.update({ changes: { from: at, insert: '!' } }).state;
    const undone = edited.update({ changes: { from: at, to: at + 1 } }).state;
    expect(revisionFor(edited, 'h1')).toMatchObject({ kind: 'edited' });
    expect(revisionFor(undone, 'h1')).toBeUndefined();
  });

  it('accepts the edited text once the user changed the hunk, a new line typed in it included', () => {
    const state = reviewState();
    const edited = state.update({ changes: { from: lineStart(state, 'B2') + 2, insert: '\nB3' } }).state;
    expect(revisionFor(edited, 'h1')).toEqual({ kind: 'edited', newLines: ['B1', 'B2', 'B3', 'c'] });
  });
});
