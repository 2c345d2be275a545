import { describe, expect, it } from 'vitest';
import type { HunkLine } from '../../../../shared/edits/edit-types';
import { buildReviewDoc } from './review-doc';
import { changedSpan, reviewLinesOf } from './review-lines';

const ctx = (text: string): HunkLine => ({ kind: 'context', text });
const rem = (text: string): HunkLine => ({ kind: 'remove', text });
const add = (text: string): HunkLine => ({ kind: 'add', text });

describe('reviewLinesOf', () => {
  it('shows a line a search/replace block removes and adds back unchanged once, as context', () => {
    const lines = [rem('a'), rem('b'), rem('c'), add('a'), add('B'), add('c')];
    expect(reviewLinesOf(lines)).toEqual([
      { kind: 'context', text: 'a', index: 0 },
      { kind: 'remove', text: 'b', index: 1 },
      { kind: 'add', text: 'B', index: 4 },
      { kind: 'context', text: 'c', index: 2 },
    ]);
  });

  it('keeps a patch hunk as the model wrote it', () => {
    const lines = [ctx('x'), rem('y'), add('Y'), add('z'), ctx('w')];
    expect(reviewLinesOf(lines).map((line) => [line.kind, line.index])).toEqual([
      ['context', 0],
      ['remove', 1],
      ['add', 2],
      ['add', 3],
      ['context', 4],
    ]);
  });
});

describe('changedSpan', () => {
  it('marks only the words between the common start and end', () => {
    expect(changedSpan('const total = 1;', 'const total = 2;')).toEqual({ before: [14, 15], after: [14, 15] });
    expect(changedSpan('same', 'same')).toBeNull();
  });
});

describe('buildReviewDoc', () => {
  const file = ['one', 'two', 'three', 'four', 'five'].join('\n');

  it('draws a hunk where it anchors, its removed lines as the file has them', () => {
    const doc = buildReviewDoc(file, [{ id: 'h1', number: 1, anchorLine: 2, lines: [ctx('two'), rem('three  '), add('THREE')] }]);
    expect(doc.text).toBe(['one', 'two', 'three', 'THREE', 'four', 'five'].join('\n'));
    expect(doc.blocks).toEqual([{ hunkId: 'h1', number: 1, firstLine: 1, modelNewText: ['two', 'THREE'], lines: [{ kind: 'context', index: 0 }, { kind: 'remove', index: 1 }, { kind: 'add', index: 2 }] }]);
    expect(doc.unplaced).toEqual([]);
  });

  it('places a hunk where its text is nearest its anchor when the view and main are a save apart', () => {
    const doc = buildReviewDoc(['x', 'a', 'b', 'x', 'a', 'b'].join('\n'), [{ id: 'h', number: 1, anchorLine: 3, lines: [rem('a'), add('A')] }]);
    expect(doc.blocks[0]!.firstLine).toBe(1);
  });

  it('leaves out a hunk whose text is not in the text on view, and one that overlaps an earlier hunk', () => {
    const doc = buildReviewDoc(file, [
      { id: 'moved', number: 1, anchorLine: 1, lines: [rem('six')] },
      { id: 'h2', number: 2, anchorLine: 2, lines: [rem('two'), rem('three'), add('2-3')] },
      { id: 'overlap', number: 3, anchorLine: 3, lines: [rem('three'), add('3')] },
    ]);
    expect(doc.unplaced).toEqual(['moved', 'overlap']);
    expect(doc.text).toBe(['one', 'two', 'three', '2-3', 'four', 'five'].join('\n'));
  });

  it('draws an edited hunk from its old text and the user’s new text', () => {
    const doc = buildReviewDoc(file, [{ id: 'h1', number: 1, anchorLine: 4, lines: [rem('four'), add('FOUR')], edited: ['4', 'and a half'] }]);
    expect(doc.text).toBe(['one', 'two', 'three', 'four', '4', 'and a half', 'five'].join('\n'));
    expect(doc.blocks[0]!.modelNewText).toEqual(['FOUR']);
    expect(doc.blocks[0]!.lines.every((line) => line.index === -1)).toBe(true);
  });

  it('places a hunk whose old text differs from the file only in whitespace (a tab for spaces), as anchoring does', () => {
    const doc = buildReviewDoc('a\n\tb\n', [{ id: 'h', number: 1, anchorLine: 2, lines: [rem('  b'), add('  B')] }]);
    expect(doc.unplaced).toEqual([]);
    expect(doc.text).toBe('a\n\tb\n  B\n');
  });

  it('reads CRLF files line by line like the editor does', () => {
    const doc = buildReviewDoc('a\r\nb\r\n', [{ id: 'h', number: 1, anchorLine: 2, lines: [rem('b'), add('B')] }]);
    expect(doc.text).toBe('a\nb\nB\n');
  });
});
