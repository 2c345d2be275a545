/**
 * Batches reach the view in order; one that drew a new hunk waits for the frame's paint
 * (stood in for by a callback the test runs), and the batches after it wait with it.
 */
import { describe, expect, it } from 'vitest';
import type { AnswerUpdate } from '../../../../shared/ask-types';
import { startedAnswer, type AnswerView } from './answer-view';
import { ViewUpdates } from './view-updates';

const S = 'session';
const hunk = (id: string, state: 'streaming' | 'pending') => ({ id, turn: 1, number: Number(id.split('.')[1]), fileIndex: 0, path: 'src/a.ts', operation: 'update', state, anchorLine: state === 'pending' ? 3 : null, appendLines: [] });
const update = (...hunks: ReturnType<typeof hunk>[]) => ({ sessionId: S, hunks }) as unknown as AnswerUpdate;

function harness() {
  let view: AnswerView | null = startedAnswer(S);
  let renders = 0;
  const painted: Array<() => void> = [];
  let cancelled = 0;
  const views = new ViewUpdates(
    (next) => {
      renders += 1;
      view = typeof next === 'function' ? next(view) : next;
    },
    (run) => {
      painted.push(run);
      return () => (cancelled += 1);
    },
  );
  return { views, view: () => view, renders: () => renders, paint: () => painted.splice(0).forEach((run) => run()), waitingPaints: () => painted.length, cancelled: () => cancelled };
}

describe('ViewUpdates', () => {
  it('applies a batch that drew nothing at once', () => {
    const h = harness();
    h.views.take(update(hunk('1.1', 'pending')), false);
    expect(h.view()!.order).toEqual(['1.1']);
    expect(h.waitingPaints()).toBe(0);
  });

  it('holds a batch that drew a hunk until the frame is painted, and the batches after it in order', () => {
    const h = harness();
    h.views.take(update(hunk('1.1', 'streaming')), true);
    h.views.take(update(hunk('1.1', 'pending')), false);
    h.views.take(update(hunk('1.2', 'streaming')), true);
    expect(h.renders()).toBe(0);
    expect(h.waitingPaints()).toBe(1);
    h.paint();
    expect(h.renders()).toBe(1);
    expect(h.view()!.order).toEqual(['1.1', '1.2']);
    expect(h.view()!.hunks['1.1']!.state).toBe('pending');
    // Nothing waits any more: the next batch goes at once.
    h.views.take(update(hunk('1.2', 'pending')), false);
    expect(h.renders()).toBe(2);
    expect(h.view()!.hunks['1.2']!.state).toBe('pending');
  });

  it('drops what waits when the view is replaced, and cancels its frame', () => {
    const h = harness();
    h.views.take(update(hunk('1.1', 'streaming')), true);
    h.views.drop();
    expect(h.cancelled()).toBe(1);
    h.paint();
    expect(h.renders()).toBe(0);
    h.views.take(update(hunk('1.2', 'pending')), false);
    expect(h.view()!.order).toEqual(['1.2']);
  });

  it('takes a batch of prose only without a pass over the view, but renders what its stores scheduled before returning', () => {
    let setViews = 0;
    let flushes = 0;
    const views = new ViewUpdates(
      () => (setViews += 1),
      () => () => undefined,
      (work) => {
        flushes += 1;
        work();
      },
    );
    // A turn's first prose mounts its TurnProse (a React update its store scheduled): flushed here, so its words are in the page when the message's handler returns.
    expect(views.take({ sessionId: S, hunks: [], prose: [{ turn: 1, text: 'Hello\n' }], rate: { turn: 1, tokensPerSecond: 9, measured: false } }, false)).toBe('unchanged');
    expect([setViews, flushes]).toEqual([0, 1]);
  });

  it('says whether a batch is in the view when it returns, changed nothing, or waits for a paint', () => {
    const h = harness();
    expect(h.views.take(update(hunk('1.1', 'pending')), false)).toBe('rendered');
    // Lines only (the hunk's fields as they were): nothing for React to draw.
    expect(h.views.take(update(hunk('1.1', 'pending')), false)).toBe('unchanged');
    // Prose only: not even a render pass.
    const renders = h.renders();
    expect(h.views.take({ sessionId: S, hunks: [], prose: [{ turn: 1, text: 'Hello\n' }] }, false)).toBe('unchanged');
    expect(h.renders()).toBe(renders);
    expect(h.views.take(update(hunk('1.2', 'streaming')), true)).toBe('waiting');
    expect(h.views.take(update(hunk('1.2', 'pending')), false)).toBe('waiting');
    h.paint();
    expect(h.view()!.hunks['1.2']!.state).toBe('pending');
  });
});
