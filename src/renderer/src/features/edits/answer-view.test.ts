import { describe, expect, it } from 'vitest';
import type { AnswerUpdate, TurnFields } from '../../../../shared/ask-types';
import type { HunkUpdate } from '../../../../shared/edits/hunk-types';
import { applyAnswerUpdate, changesNothing, hunksOfTurn, pendingHunkCount, startedAnswer } from './answer-view';

const hunk = (id: string, extra: Partial<HunkUpdate> = {}): HunkUpdate => ({
  id,
  turn: 1,
  number: 1,
  fileIndex: 0,
  path: 'src/app.ts',
  operation: 'update',
  state: 'streaming',
  appendLines: [],
  anchorLine: null,
  ...extra,
});

const turn = (index: number, extra: Partial<TurnFields> = {}): TurnFields => ({
  index,
  kind: index === 1 ? 'question' : 'redirect',
  text: `words ${index}`,
  depth: 'fast',
  model: 'spark',
  status: 'streaming',
  askedAtEpochMs: index,
  ...extra,
});

const update = (extra: Partial<AnswerUpdate> = {}): AnswerUpdate => ({ sessionId: 's1', hunks: [], ...extra });

describe('applyAnswerUpdate', () => {
  it('returns the same view for a batch that only brings lines, a line still arriving or prose (React renders nothing)', () => {
    const view = applyAnswerUpdate(startedAnswer('s1'), update({ turns: [turn(1)], hunks: [hunk('1.0', { message: 'm' })] }))!;
    const lines = applyAnswerUpdate(view, update({ hunks: [hunk('1.0', { message: 'm', appendLines: [{ kind: 'add', text: 'x' }], partialLine: { kind: 'add', text: 'y' } })] }));
    expect(lines).toBe(view);
    expect(applyAnswerUpdate(view, update({ prose: [{ turn: 1, text: 'Hello\n' }], proseTail: [{ turn: 1, text: 'W', replace: false }] }))).toBe(view);
    const settled = applyAnswerUpdate(view, update({ hunks: [hunk('1.0', { message: 'm', state: 'pending' })] }))!;
    expect(settled).not.toBe(view);
    expect(settled.hunks['1.0']!.state).toBe('pending');
    expect(applyAnswerUpdate(view, update({ hunks: [hunk('1.0')] }))!.hunks['1.0']!.message).toBeUndefined();
  });

  it('says a batch changes nothing only when applying it returns the same view: prose and a rate, not a field of the view', () => {
    const view = applyAnswerUpdate(startedAnswer('s1'), update({ turns: [turn(1)], hunks: [hunk('1.0')] }))!;
    const prose = update({ prose: [{ turn: 1, text: 'Hello\n' }], proseTail: [{ turn: 1, text: 'W', replace: true }], rate: { turn: 1, tokensPerSecond: 900, measured: false } });
    expect(changesNothing(prose)).toBe(true);
    expect(applyAnswerUpdate(view, prose)).toBe(view);
    const fields: Partial<AnswerUpdate>[] = [{ hunks: [hunk('1.1')] }, { full: { title: 't' } }, { turns: [turn(2)] }, { status: 'complete' }, { message: 'm' }, { problems: ['p'] }];
    for (const extra of fields) {
      expect(changesNothing(update({ ...extra, prose: prose.prose! })), JSON.stringify(extra)).toBe(false);
      expect(applyAnswerUpdate(view, update(extra)), JSON.stringify(extra)).not.toBe(view);
    }
  });

  it('leaves no answer as none, and another conversation’s view as it is', () => {
    expect(applyAnswerUpdate(null, update())).toBeNull();
    const other = startedAnswer('s0');
    expect(applyAnswerUpdate(other, update({ prose: [{ turn: 1, text: 'late' }] }))).toBe(other);
  });

  it('keeps turns in order, and replaces a turn’s fields when it changes', () => {
    let view = applyAnswerUpdate(startedAnswer('s1'), update({ turns: [turn(1)], prose: [{ turn: 1, text: 'Skipping ' }] }));
    view = applyAnswerUpdate(view, update({ turns: [turn(1, { status: 'redirected', followedBy: 2 }), turn(2)] }));
    expect(view?.turns.map((entry) => [entry.index, entry.status, entry.followedBy])).toEqual([
      [1, 'redirected', 2],
      [2, 'streaming', undefined],
    ]);
    expect(view?.title).toBe('words 1');
  });

  it('appends problems, and keeps the status when the batch has none', () => {
    let view = applyAnswerUpdate(startedAnswer('s1'), update({ problems: ['one'] }));
    view = applyAnswerUpdate(view, update({ problems: ['two'] }));
    expect(view).toMatchObject({ status: 'streaming', problems: ['one', 'two'] });
    expect(applyAnswerUpdate(view, update({ status: 'complete' }))?.status).toBe('complete');
  });

  it('replaces the whole view with a full update, whatever was shown', () => {
    const shown = applyAnswerUpdate(startedAnswer('s0'), update({ sessionId: 's0', hunks: [hunk('1.0')] }));
    const full = applyAnswerUpdate(shown, update({ full: { title: 'Skip cancelled invoices' }, status: 'complete', turns: [turn(1, { status: 'complete' })], prose: [{ turn: 1, text: 'Done.' }], hunks: [hunk('1.0', { state: 'pending' })] }));
    expect(full).toMatchObject({ sessionId: 's1', title: 'Skip cancelled invoices', status: 'complete', order: ['1.0'] });
    expect(full?.turns[0]?.status).toBe('complete');
  });

  it('keeps hunks in the order they first arrived, replaces their metadata, and drops their lines', () => {
    const line = { kind: 'add' as const, text: 'x' };
    let view = applyAnswerUpdate(startedAnswer('s1'), update({ hunks: [hunk('a', { appendLines: [line] }), hunk('b')] }));
    view = applyAnswerUpdate(view, update({ hunks: [hunk('c'), hunk('a', { state: 'pending', appendLines: [line] })] }));
    expect(view?.order).toEqual(['a', 'b', 'c']);
    expect(view?.hunks['a']).toEqual({ id: 'a', turn: 1, number: 1, fileIndex: 0, path: 'src/app.ts', operation: 'update', state: 'pending', anchorLine: null });
  });

  it('counts a superseded hunk out of Accept all, and files it under its turn apart', () => {
    const view = applyAnswerUpdate(startedAnswer('s1'), update({ hunks: [hunk('1.0', { state: 'pending', superseded: true }), hunk('2.0', { turn: 2, state: 'pending' })] }))!;
    expect(pendingHunkCount(view)).toBe(1);
    expect(hunksOfTurn(view, 1)).toEqual({ current: [], superseded: ['1.0'] });
    expect(hunksOfTurn(view, 2)).toEqual({ current: ['2.0'], superseded: [] });
  });

  it('does not change the view it is given', () => {
    const view = startedAnswer('s1');
    const copy = structuredClone(view);
    applyAnswerUpdate(view, update({ prose: [{ turn: 1, text: 'x' }], hunks: [hunk('a')], problems: ['p'], turns: [turn(1)] }));
    expect(view).toEqual(copy);
  });
});
