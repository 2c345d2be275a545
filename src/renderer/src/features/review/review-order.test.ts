import { describe, expect, it } from 'vitest';
import type { HunkState } from '../../../../shared/edits/hunk-types';
import type { AnswerView, HunkMeta } from '../edits/answer-view';
import { currentHunkOf, neighbourOf, reviewSummary } from './review-order';

function viewOf(hunks: Array<[string, HunkState, string?, boolean?]>): AnswerView {
  const metas: Record<string, HunkMeta> = {};
  hunks.forEach(([id, state, path = 'a.ts', superseded], index) => {
    metas[id] = { id, turn: 1, number: index + 1, fileIndex: 0, path, operation: 'update', state, anchorLine: 1, ...(superseded ? { superseded } : {}) };
  });
  return { sessionId: 's', title: '', status: 'complete', turns: [], order: hunks.map(([id]) => id), hunks: metas, problems: [] };
}

describe('the review order', () => {
  const view = viewOf([
    ['h1', 'accepted'],
    ['h2', 'pending'],
    ['h3', 'streaming'],
    ['h4', 'conflict', 'b.ts'],
    ['h5', 'pending', 'a.ts', true],
  ]);

  it('acts on the chosen hunk while it waits, else on the first that waits', () => {
    expect(currentHunkOf(view, 'h4')).toBe('h4');
    expect(currentHunkOf(view, 'h1')).toBe('h2');
    expect(currentHunkOf(view, null)).toBe('h2');
  });

  it('moves to the next waiting hunk, wrapping around and skipping superseded and streaming ones', () => {
    expect(neighbourOf(view, 'h2', 1)).toBe('h4');
    expect(neighbourOf(view, 'h4', 1)).toBe('h2');
    expect(neighbourOf(view, 'h2', -1)).toBe('h4');
    expect(neighbourOf(view, 'h1', 1)).toBe('h2');
  });

  it('starts at the first waiting hunk going forward and the last going back', () => {
    expect(neighbourOf(view, null, 1)).toBe('h2');
    expect(neighbourOf(view, null, -1)).toBe('h4');
  });

  it('finds nothing next when the last waiting hunk was decided', () => {
    const done = viewOf([['h1', 'accepted'], ['h2', 'rejected']]);
    expect(neighbourOf(done, 'h2', 1)).toBeNull();
    expect(neighbourOf(viewOf([['h1', 'pending']]), 'h1', 1)).toBe('h1');
  });

  it('counts pending hunks and files for the header, superseded ones left out', () => {
    expect(reviewSummary(view)).toEqual({ pending: 1, total: 4, files: 2, streaming: 1 });
  });
});
