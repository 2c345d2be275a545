/**
 * The project's conversations, newest first: each with its first question, when, how it
 * ended and how many hunks still wait for a decision. Choosing one shows it in the pane;
 * nothing undecided is ever dropped by asking something new.
 */
import type { ConversationSummary } from '../../../../shared/ask-types';

export interface HistoryListProps {
  conversations: readonly ConversationSummary[];
  shownId: string | null;
  onShow: (sessionId: string) => void;
}

/** Undecided hunks in conversations other than the one on screen (the pane's head says so). */
export function pendingElsewhere(conversations: readonly ConversationSummary[], shownId: string | null): number {
  return conversations.reduce((sum, summary) => sum + (summary.sessionId === shownId ? 0 : summary.pending + summary.superseded), 0);
}

export function HistoryList({ conversations, shownId, onShow }: HistoryListProps) {
  const elsewhere = pendingElsewhere(conversations, shownId);
  return (
    <details className="history">
      <summary>
        History ({conversations.length}){elsewhere > 0 && <span className="history-pending"> · {elsewhere} undecided in earlier conversations</span>}
      </summary>
      <ul aria-label="Conversations">
        {conversations.map((summary) => (
          <li key={summary.sessionId}>
            <button type="button" className={`history-entry${summary.sessionId === shownId ? ' is-shown' : ''}`} aria-current={summary.sessionId === shownId} onClick={() => onShow(summary.sessionId)}>
              <span className="history-title">{summary.title}</span>
              <span className="history-meta">
                {new Date(summary.updatedAtEpochMs).toLocaleTimeString()} · {summary.turns} {summary.turns === 1 ? 'turn' : 'turns'}
                {summary.pending > 0 && ` · ${summary.pending} pending`}
                {summary.superseded > 0 && ` · ${summary.superseded} superseded`}
                {summary.status === 'failed' && ' · failed'}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
