/**
 * The conversation on screen in the diff pane: a sticky header (what waits for a decision,
 * streaming progress, Accept all / Reject all), then each turn — the user's words, the
 * model's prose and hunks, how the turn went — and notes about the model's output.
 * Follows the stream while the user is at the bottom; scrolled up, it stays put and offers
 * "New text below" (features/follow-stream).
 */
import { useMemo } from 'react';
import { isUndecided } from '../../../../shared/edits/hunk-state';
import { FollowedText } from '../follow-stream/FollowedText';
import { NewTextBelow } from '../follow-stream/NewTextBelow';
import { useFollowStream } from '../follow-stream/use-follow-stream';
import type { ReviewHandle } from '../review/use-review';
import { reviewSummary } from '../review/review-order';
import { describeAnswerStatus, pendingHunkCount, type AnswerView } from './answer-view';
import type { HunkCardActions } from './HunkCard';
import { RateFigure } from './RateFigure';
import { TurnBlock } from './TurnBlock';
import type { AnswerHandle } from './use-answer';

export interface AnswerBlockProps {
  view: AnswerView;
  answer: AnswerHandle;
  review: ReviewHandle;
  keys: { accept: string; reject: string; acceptAll: string; rejectAll: string };
  onOpenSettings: () => void;
}

export function AnswerBlock({ view, answer, review, keys, onOpenSettings }: AnswerBlockProps) {
  // A new turn is the user's own act (a follow-up, a queued message, a retry): it comes into view.
  const follow = useFollowStream(String(view.turns.at(-1)?.index ?? 0));
  // Stable while the answer streams: memoized cards re-render only when their hunk changes.
  const { revert, restore } = answer;
  const { decide, select } = review;
  const cardActions: HunkCardActions = useMemo(
    () => ({
      onAccept: (id) => void decide('accept', id, 'card'),
      onReject: (id) => void decide('reject', id, 'card'),
      onRevert: (id) => void revert(id),
      onRestore: (id) => void restore(id),
      onSelect: (id) => select(id, 'code'),
      onSelectLines: (id) => select(id, 'lines'),
      keys,
    }),
    [revert, restore, decide, select, keys],
  );

  return (
    <div ref={follow.scrollRef} className="edit-session" data-session={view.sessionId} tabIndex={-1}>
      <AnswerBar view={view} answer={answer} keys={keys} onAcceptAll={() => void review.acceptAll()} onShortcuts={review.openSheet} />
      <FollowedText follow={follow}>
        {view.turns.map((turn) => (
          <TurnBlock key={turn.index} view={view} turn={turn} answer={answer} currentHunk={review.current} cardActions={cardActions} onOpenSettings={onOpenSettings} />
        ))}
      </FollowedText>
      {view.problems.length > 0 && <ProblemNotes problems={view.problems} />}
      {/* Sticky over the bottom, out of the live region; focus goes to the pane (tabIndex -1) once it is gone. */}
      <NewTextBelow follow={follow} focusAfterRef={follow.viewRef} />
    </div>
  );
}

interface AnswerBarProps {
  view: AnswerView;
  answer: AnswerHandle;
  keys: AnswerBlockProps['keys'];
  onAcceptAll: () => void;
  onShortcuts: () => void;
}

/** Sticky over the hunks: what waits, what streams and how fast, and the buttons for all of them. */
function AnswerBar({ view, answer, keys, onAcceptAll, onShortcuts }: AnswerBarProps) {
  const acceptable = pendingHunkCount(view);
  const summary = reviewSummary(view);
  return (
    <div className="edit-session-bar">
      <div className="edit-session-facts">
        <span className={`edit-status is-${view.status}`} aria-label="Edit status">
          {describeAnswerStatus(view.status)}
        </span>
        {summary.total > 0 && (
          <span className="review-summary" aria-label="Review progress">
            {summary.pending} of {summary.total} pending · {summary.files} {summary.files === 1 ? 'file' : 'files'}
            {summary.streaming > 0 ? ` · ${summary.streaming} streaming` : ''}
          </span>
        )}
        {/* Main's figure, as it streams (an estimate) and once it ended (measured): output-rate.ts. */}
        <RateFigure rates={answer.rates} turns={view.turns} />
      </div>
      <div className="edit-session-actions">
        <button type="button" onClick={onAcceptAll} disabled={acceptable === 0} title={`Accepts every ready hunk except those a redirect superseded (${keys.acceptAll}); one Undo takes them all back`}>
          Accept all{acceptable > 0 ? ` (${acceptable})` : ''}
        </button>
        <button type="button" onClick={() => void answer.rejectAll()} disabled={!view.order.some((id) => isUndecided(view.hunks[id]!.state))} title={`Rejects every hunk still waiting (${keys.rejectAll})`}>
          Reject all
        </button>
        <button type="button" className="icon-button" onClick={onShortcuts} title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts">
          ?
        </button>
      </div>
    </div>
  );
}

function ProblemNotes({ problems }: { problems: string[] }) {
  return (
    <details className="edit-problems">
      <summary>{problems.length} note(s) about the model’s output</summary>
      <ul>
        {problems.map((problem, index) => (
          <li key={index}>{problem}</li>
        ))}
      </ul>
    </details>
  );
}
