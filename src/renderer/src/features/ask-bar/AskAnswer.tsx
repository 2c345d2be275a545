/**
 * The conversation under the question: each turn's words and the model's prose as
 * Markdown, a pointer to the diff pane when it proposes changes, and how the latest turn
 * ended (an error, or stopped).
 */
import type { TurnFields } from '../../../../shared/ask-types';
import { isMac } from '../../lib/platform';
import type { AnswerView } from '../edits/answer-view';
import type { ProseStore } from '../edits/prose-store';
import { TurnProse, useHasProse } from '../edits/TurnProse';
import { FollowedText } from '../follow-stream/FollowedText';
import type { FollowStream } from '../follow-stream/use-follow-stream';
import { reviewKeyLabels } from '../review/review-keys';

const keys = reviewKeyLabels(isMac);

/**
 * `follow`: the bar follows the stream in this view, with room below its text as the pane
 * (use-follow-stream.ts; the control is the bar's). Busy while it streams: what the live
 * region gets is announced once the answer ends.
 */
export function AskAnswer({ view, prose, follow }: { view: AnswerView; prose: ProseStore; follow: FollowStream }) {
  const isStreaming = view.status === 'streaming';
  const hunkCount = view.order.length;
  const latest = view.turns.at(-1);
  return (
    <div ref={follow.scrollRef} className="ask-bar-answer" aria-label="Answer" aria-busy={isStreaming}>
      <FollowedText follow={follow} busy={isStreaming}>
        {view.turns.map((turn) => (
          <AskTurn key={turn.index} turn={turn} prose={prose} withWords={view.turns.length > 1} />
        ))}
        {hunkCount > 0 && (
          <p className="ask-bar-meta" aria-label="Proposed changes">
            {hunkCount} {hunkCount === 1 ? 'change' : 'changes'} to review in the file: <kbd>{keys.accept}</kbd> accept, <kbd>{keys.reject}</kbd> reject,{' '}
            <kbd>{keys.next}</kbd> next, <kbd>{isMac ? '⌘/' : 'Ctrl+/'}</kbd> all keys.
          </p>
        )}
        {latest?.status === 'failed' && <p className="form-error">{latest.message ?? view.message} Retry is in the diff pane.</p>}
        {latest?.status === 'stopped' && <p className="ask-bar-meta">Stopped.</p>}
      </FollowedText>
    </div>
  );
}

/** One turn in the bar: the user's words (when there are several turns), the model's prose as it streams, how it ended. */
function AskTurn({ turn, prose, withWords }: { turn: TurnFields; prose: ProseStore; withWords: boolean }) {
  const hasProse = useHasProse(prose, turn.index);
  return (
    <div className={`ask-bar-turn is-${turn.status}`}>
      {withWords && (
        <p className="ask-bar-words">
          <span className="ask-bar-meta">{turn.kind === 'redirect' ? 'Redirect' : turn.kind === 'queued' ? 'Queued' : turn.kind === 'follow-up' ? 'Follow-up' : 'You'}:</span> {turn.text}
        </p>
      )}
      {hasProse ? <TurnProse prose={prose} turn={turn.index} /> : turn.status === 'streaming' ? <p className="ask-bar-meta">Thinking…</p> : null}
      {turn.status === 'redirected' && <p className="ask-bar-meta">Redirected.</p>}
      {turn.status === 'queued' && <p className="ask-bar-meta">Queued: sent when the answer above ends.</p>}
    </div>
  );
}
