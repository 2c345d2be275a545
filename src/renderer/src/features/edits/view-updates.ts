/**
 * Puts `ask:update` batches into the view (React state), in the order they came.
 *
 * A batch that drew a new hunk at once (hunk-previews.ts) goes to React only once that
 * hunk is painted (`afterPaint`: use-answer.ts waits for the preview's paint to be on
 * record): until then, nothing but the preview's own small DOM write stands between the
 * message and the hunk on screen. React's render of the pane (the card that takes the
 * preview over) would otherwise run first, in the same task or the next, and the frame
 * would wait for it. Batches that come while one waits wait with it, so the view takes
 * them in order. A streaming hunk cannot be decided yet: its card a frame or two later
 * costs the user nothing.
 *
 * Any other batch is rendered in the task its message came in (flushSync), so the renderer
 * can acknowledge it at once (use-conversation-sync.ts) and main's next batch, prose that
 * came meanwhile, can still make this frame. Still one render per batch: main sends the
 * next only once this one is acknowledged.
 */
import type { Dispatch, SetStateAction } from 'react';
import { flushSync } from 'react-dom';
import type { AnswerUpdate } from '../../../../shared/ask-types';
import { afterNextPaint } from '../../lib/after-paint';
import { applyAnswerUpdate, changesNothing, type AnswerView } from './answer-view';

/** Runs `run` once the hunks drawn are painted; returns a function that cancels it. */
export type AfterPaint = (run: () => void) => () => void;

export class ViewUpdates {
  /** Batches waiting for the frame, oldest first; null when none waits. */
  private waiting: AnswerUpdate[] | null = null;
  private cancel: () => void = () => undefined;

  constructor(
    private readonly setView: Dispatch<SetStateAction<AnswerView | null>>,
    private readonly afterPaint: AfterPaint = afterNextPaint,
    /** Renders what `work` sets, before returning (React's flushSync). */
    private readonly renderNow: (work: () => void) => void = flushSync,
  ) {}

  /**
   * Applies `update` to the view: now, or after the next paint if it drew a hunk (`drewHunk`)
   * or a batch before it waits. Now is in this task: 'rendered' means the view changed and
   * is in the DOM when this returns (no turn of React's scheduler between a message and its
   * text on screen), 'unchanged' that the batch changed nothing React draws (lines, prose:
   * changesNothing spares those the view's render pass).
   */
  take(update: AnswerUpdate, drewHunk: boolean): 'rendered' | 'unchanged' | 'waiting' {
    if (this.waiting) {
      this.waiting.push(update);
      return 'waiting';
    }
    if (drewHunk) {
      this.waiting = [update];
      this.cancel = this.afterPaint(() => this.flush());
      return 'waiting';
    }
    if (changesNothing(update)) {
      // No pass over the view; but what the batch's stores scheduled (a turn's first prose
      // mounts its TurnProse: useHasProse) is rendered now, not in React's microtask.
      this.renderNow(() => undefined);
      return 'unchanged';
    }
    let changed = false;
    this.renderNow(() =>
      this.setView((current) => {
        const next = applyAnswerUpdate(current, update);
        changed ||= next !== current;
        return next;
      }),
    );
    return changed ? 'rendered' : 'unchanged';
  }

  /** Applies what waits, at once. */
  flush(): void {
    const updates = this.waiting;
    this.waiting = null;
    this.cancel();
    if (updates) this.setView((current) => updates.reduce(applyAnswerUpdate, current));
  }

  /** The view is being replaced (a load, another conversation): what waits is already in the new one, or is not of it. */
  drop(): void {
    this.waiting = null;
    this.cancel();
  }
}
