/**
 * The conversation on screen in the diff pane: its status and Accept all / Reject all,
 * then each turn — the user's words, the model's prose and hunks, how the turn went —
 * and notes about the model's output. Follows the stream while the user is at the bottom.
 */
import { useLayoutEffect, useRef } from 'react';
import { describeAnswerStatus, pendingHunkCount, type AnswerView } from './answer-view';
import { TurnBlock } from './TurnBlock';
import type { AnswerHandle } from './use-answer';

/** Within this many pixels of the bottom counts as "at the bottom" (following). */
const FOLLOW_SLACK_PX = 40;

export interface AnswerBlockProps {
  view: AnswerView;
  answer: AnswerHandle;
  onOpenSettings: () => void;
}

export function AnswerBlock({ view, answer, onOpenSettings }: AnswerBlockProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  /** Follow the stream while the user is at the bottom; stop following when they scroll up. */
  const followRef = useRef(true);
  const hunkCount = view.order.length;
  const proseLength = view.turns.reduce((sum, turn) => sum + turn.prose.length, 0);
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element && followRef.current) element.scrollTop = element.scrollHeight;
  }, [hunkCount, proseLength, view.turns.length]);

  return (
    <div
      ref={scrollRef}
      className="edit-session"
      aria-live="polite"
      data-session={view.sessionId}
      onScroll={(event) => {
        const element = event.currentTarget;
        followRef.current = element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_SLACK_PX;
      }}
    >
      <AnswerBar view={view} onAcceptAll={() => void answer.acceptAll()} onRejectAll={() => void answer.rejectAll()} />
      {view.turns.map((turn) => (
        <TurnBlock key={turn.index} view={view} turn={turn} answer={answer} onOpenSettings={onOpenSettings} />
      ))}
      {view.problems.length > 0 && <ProblemNotes problems={view.problems} />}
    </div>
  );
}

function AnswerBar({ view, onAcceptAll, onRejectAll }: { view: AnswerView; onAcceptAll: () => void; onRejectAll: () => void }) {
  const pending = pendingHunkCount(view);
  return (
    <div className="edit-session-bar">
      <span className={`edit-status is-${view.status}`} aria-label="Edit status">
        {describeAnswerStatus(view.status)}
      </span>
      <span className="spacer" />
      <button type="button" onClick={onAcceptAll} disabled={pending === 0} title="Accepts every ready hunk except those a redirect superseded">
        Accept all{pending > 0 ? ` (${pending})` : ''}
      </button>
      <button type="button" onClick={onRejectAll} disabled={view.order.length === 0}>
        Reject all
      </button>
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
