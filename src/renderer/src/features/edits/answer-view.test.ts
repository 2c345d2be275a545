import { describe, expect, it } from 'vitest';
import type { AnswerUpdate } from '../../../../shared/ask-types';
import type { HunkUpdate } from '../../../../shared/edits/hunk-types';
import { applyAnswerUpdate, describeAnswerStatus, pendingHunkCount, startedAnswer, type AnswerView } from './answer-view';

const hunk = (id: string, extra: Partial<HunkUpdate> = {}): HunkUpdate => ({
  id,
  fileIndex: 0,
  path: 'src/app.ts',
  operation: 'update',
  state: 'streaming',
  appendLines: [],
  anchorLine: null,
  ...extra,
});

const update = (extra: Partial<AnswerUpdate> = {}): AnswerUpdate => ({ sessionId: 's1', hunks: [], ...extra });

describe('applyAnswerUpdate', () => {
  it('leaves no answer as none, and another session’s answer as it is', () => {
    expect(applyAnswerUpdate(null, update())).toBeNull();
    const other = startedAnswer('s0');
    expect(applyAnswerUpdate(other, update({ prose: 'late' }))).toBe(other);
  });

  it('appends prose and problems, and keeps the status when the batch has none', () => {
    let view = applyAnswerUpdate(startedAnswer('s1'), update({ prose: 'Hello', problems: ['one'] }));
    view = applyAnswerUpdate(view, update({ prose: ', world', problems: ['two'] }));
    expect(view).toMatchObject({ status: 'streaming', prose: 'Hello, world', problems: ['one', 'two'] });
    expect(applyAnswerUpdate(view, update({ status: 'complete' }))?.status).toBe('complete');
  });

  it('keeps hunks in the order they first arrived, replaces their metadata, and drops their lines', () => {
    const line = { kind: 'add' as const, text: 'x' };
    let view = applyAnswerUpdate(startedAnswer('s1'), update({ hunks: [hunk('a', { appendLines: [line] }), hunk('b')] }));
    view = applyAnswerUpdate(view, update({ hunks: [hunk('c'), hunk('a', { state: 'pending', appendLines: [line] })] }));
    expect(view?.order).toEqual(['a', 'b', 'c']);
    expect(view?.hunks['a']).toEqual({ id: 'a', fileIndex: 0, path: 'src/app.ts', operation: 'update', state: 'pending', anchorLine: null });
  });

  it('sets the message only when the batch carries one', () => {
    const failed = applyAnswerUpdate(startedAnswer('s1'), update({ status: 'failed', message: 'The connection dropped.' }));
    expect(applyAnswerUpdate(failed, update())?.message).toBe('The connection dropped.');
    expect(applyAnswerUpdate(startedAnswer('s1'), update())).not.toHaveProperty('message');
  });

  it('does not change the view it is given', () => {
    const view = startedAnswer('s1');
    const copy = structuredClone(view);
    applyAnswerUpdate(view, update({ prose: 'x', hunks: [hunk('a')], problems: ['p'] }));
    expect(view).toEqual(copy);
  });
});

describe('pendingHunkCount', () => {
  it('counts the hunks awaiting a decision', () => {
    expect(pendingHunkCount(null)).toBe(0);
    const view = applyAnswerUpdate(startedAnswer('s1'), update({
      hunks: [hunk('a', { state: 'pending' }), hunk('b', { state: 'accepted' }), hunk('c', { state: 'pending' }), hunk('d')],
    })) as AnswerView;
    expect(pendingHunkCount(view)).toBe(2);
  });
});

describe('describeAnswerStatus', () => {
  it('names every status', () => {
    expect(['streaming', 'complete', 'stopped', 'failed'].map((status) => describeAnswerStatus(status as AnswerView['status']))).toEqual([
      'Streaming…',
      'Answer complete',
      'Stopped',
      'Failed',
    ]);
  });
});
