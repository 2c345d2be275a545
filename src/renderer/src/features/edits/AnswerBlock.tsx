/**
 * One answer in the diff pane: its status and Accept all / Reject all, the prose, the
 * hunk cards, and notes about the model's output. Follows the stream while the user is
 * at the bottom.
 */
import { useLayoutEffect, useRef } from 'react';
import { MarkdownAnswer } from '../markdown/LazyMarkdownAnswer';
import { describeAnswerStatus, pendingHunkCount, type AnswerView } from './answer-view';
import { HunkCard } from './HunkCard';
import type { AnswerHandle } from './use-answer';

/** Within this many pixels of the bottom counts as "at the bottom" (following). */
const FOLLOW_SLACK_PX = 40;

export interface AnswerBlockProps {
  view: AnswerView;
  answer: AnswerHandle;
}

export function AnswerBlock({ view, answer }: AnswerBlockProps) {
  const { lines, accept, reject, acceptAll, rejectAll } = answer;
  const scrollRef = useRef<HTMLDivElement>(null);
  /** Follow the stream while the user is at the bottom; stop following when they scroll up. */
  const followRef = useRef(true);
  const hunkCount = view.order.length;
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element && followRef.current) element.scrollTop = element.scrollHeight;
  }, [hunkCount, view.prose]);

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
      <AnswerBar view={view} onAcceptAll={() => void acceptAll()} onRejectAll={() => void rejectAll()} />
      {view.message && <p role="alert" className="form-error">{view.message}</p>}
      {view.prose.trim() && (
        <div className="edit-prose" aria-label="Answer">
          <MarkdownAnswer text={view.prose} />
        </div>
      )}
      {view.order.map((id) => (
        <HunkCard key={id} hunk={view.hunks[id]!} store={lines} onAccept={accept} onReject={reject} />
      ))}
      {view.problems.length > 0 && <ProblemNotes problems={view.problems} />}
    </div>
  );
}

function AnswerBar({ view, onAcceptAll, onRejectAll }: { view: AnswerView; onAcceptAll: () => void; onRejectAll: () => void }) {
  return (
    <div className="edit-session-bar">
      <span className={`edit-status is-${view.status}`} aria-label="Edit status">
        {describeAnswerStatus(view.status)}
      </span>
      <span className="spacer" />
      <button type="button" onClick={onAcceptAll} disabled={pendingHunkCount(view) === 0}>
        Accept all
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
