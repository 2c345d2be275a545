/**
 * The conversation on screen in the diff pane: a sticky header (what waits for a decision,
 * streaming progress, Accept all / Reject all), then each turn — the user's words, the
 * model's prose and hunks, how the turn went — and notes about the model's output.
 * Follows the stream while the user is at the bottom: scrolled from a ResizeObserver, which
 * runs once layout is done, so no update pays for a forced layout to scroll.
 */
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { isUndecided } from '../../../../shared/edits/hunk-state';
import type { ReviewHandle } from '../review/use-review';
import { reviewSummary } from '../review/review-order';
import { describeAnswerStatus, pendingHunkCount, type AnswerView } from './answer-view';
import type { HunkCardActions } from './HunkCard';
import { rateFigure } from './output-rate';
import { TurnBlock } from './TurnBlock';
import type { AnswerHandle } from './use-answer';

export interface AnswerBlockProps {
  view: AnswerView;
  answer: AnswerHandle;
  review: ReviewHandle;
  keys: { accept: string; reject: string; acceptAll: string; rejectAll: string };
  onOpenSettings: () => void;
}

/** Within this many pixels of the bottom counts as "at the bottom" (following). */
const FOLLOW_SLACK_PX = 40;

export function AnswerBlock({ view, answer, review, keys, onOpenSettings }: AnswerBlockProps) {
  const { scrollRef, contentRef, onScroll } = useFollowStream();
  // Stable while the answer streams: memoized cards re-render only when their hunk changes.
  const { revert } = answer;
  const { decide, select } = review;
  const cardActions: HunkCardActions = useMemo(
    () => ({ onAccept: (id) => void decide('accept', id, 'card'), onReject: (id) => void decide('reject', id, 'card'), onRevert: (id) => void revert(id), onSelect: (id) => select(id, 'code'), keys }),
    [revert, decide, select, keys],
  );

  return (
    <div ref={scrollRef} className="edit-session" data-session={view.sessionId} onScroll={onScroll}>
      <AnswerBar view={view} answer={answer} keys={keys} onAcceptAll={() => void review.acceptAll()} onShortcuts={review.openSheet} />
      <div ref={contentRef} aria-live="polite">
        {view.turns.map((turn) => (
          <TurnBlock key={turn.index} view={view} turn={turn} answer={answer} currentHunk={review.current} cardActions={cardActions} onOpenSettings={onOpenSettings} />
        ))}
      </div>
      {view.problems.length > 0 && <ProblemNotes problems={view.problems} />}
    </div>
  );
}

/** Keeps the pane at the bottom as its content grows, until the user scrolls up. */
function useFollowStream() {
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const followRef = useRef(true);
  useEffect(() => {
    const pane = scrollRef.current;
    const content = contentRef.current;
    if (!pane || !content) return;
    const observer = new ResizeObserver(() => {
      if (followRef.current) pane.scrollTop = pane.scrollHeight;
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, []);
  const onScroll = (event: React.UIEvent<HTMLDivElement>): void => {
    const element = event.currentTarget;
    followRef.current = element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_SLACK_PX;
  };
  return { scrollRef, contentRef, onScroll };
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
  // Main's figure, as it streams (an estimate) and once it ended (measured): output-rate.ts.
  const rate = rateFigure(useSyncExternalStore(answer.rates.onDidChange, answer.rates.current), view.turns);
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
        {rate !== null && <span className="review-rate">{rate}</span>}
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
