/**
 * How a turn went, and when: streaming, waiting in the queue, sent when the answer before
 * it ended, redirected (and by which turn), stopped, or failed — a failed turn keeps its
 * words and offers Retry, the deep model, or Settings, and after a 429 counts down to
 * retrying by itself.
 */
import { useEffect, useState } from 'react';
import type { TurnFields } from '../../../../shared/ask-types';
import { ModelOffer } from './ModelOffer';
import type { AnswerHandle } from './use-answer';

export interface TurnStatusProps {
  turn: TurnFields;
  answer: AnswerHandle;
  onOpenSettings: () => void;
}

export function TurnStatus({ turn, answer, onOpenSettings }: TurnStatusProps) {
  const at = (epochMs: number | undefined) => (epochMs === undefined ? '' : new Date(epochMs).toLocaleTimeString());
  switch (turn.status) {
    case 'queued':
      return <p className="turn-status" role="status">Queued at {at(turn.askedAtEpochMs)}: sent when the answer above ends.</p>;
    case 'streaming':
      return <p className="turn-status">{sentWords(turn, at)}Streaming…</p>;
    case 'complete':
      return turn.kind === 'queued' ? <p className="turn-status">{sentWords(turn, at)}</p> : null;
    case 'redirected':
      return <p className="turn-status">Redirected at {at(turn.endedAtEpochMs ?? turn.askedAtEpochMs)}{turn.followedBy ? ` — replaced by turn ${turn.followedBy}` : ''}; its undecided hunks are superseded.</p>;
    case 'stopped':
      return <p className="turn-status">{turn.message ?? 'Stopped.'} ({at(turn.endedAtEpochMs)})</p>;
    case 'failed':
      return <FailedTurn turn={turn} answer={answer} onOpenSettings={onOpenSettings} />;
    default: {
      const exhaustive: never = turn.status;
      return exhaustive;
    }
  }
}

/** A queued turn says when it was sent (it took effect when the answer before it ended). */
function sentWords(turn: TurnFields, at: (epochMs: number | undefined) => string): string {
  return turn.kind === 'queued' && turn.startedAtEpochMs !== undefined ? `Queued at ${at(turn.askedAtEpochMs)}, sent at ${at(turn.startedAtEpochMs)} when the answer above ended. ` : '';
}

function FailedTurn({ turn, answer, onOpenSettings }: TurnStatusProps) {
  const failure = turn.failure;
  const seconds = useCountdown(failure?.retryAtEpochMs);
  // Any failed turn not yet retried (a queued message left unsent is not always the latest).
  const canRetry = turn.followedBy === undefined;
  return (
    <div className="turn-failure" role="alert">
      <p className="form-error">{turn.message ?? 'The request failed.'}</p>
      {turn.followedBy !== undefined && <p className="turn-status">Retried as turn {turn.followedBy}.</p>}
      {canRetry && failure?.code === 'model-unavailable' && <ModelOffer turn={turn} answer={answer} />}
      {canRetry && (
        <div className="turn-actions">
          {seconds !== null && (
            <span className="turn-countdown" aria-live="polite">
              Retrying in {seconds} s…
            </span>
          )}
          {/* A refused model would be refused again: the offered models are the way on, not Retry. */}
          <button type="button" className={seconds === null && failure?.code !== 'model-unavailable' ? 'primary' : ''} onClick={() => void answer.retry(turn.index, turn.depth)}>
            {seconds === null ? 'Retry' : 'Retry now'}
          </button>
          {seconds !== null && (
            <button type="button" onClick={() => void answer.cancelRetry()}>
              Cancel
            </button>
          )}
          {failure?.canRetryDeep && (
            <button type="button" onClick={() => void answer.retry(turn.index, 'deep')}>
              Retry with the deep model
            </button>
          )}
          {failure?.needsSettings && (
            <button type="button" onClick={onOpenSettings}>
              Open Settings
            </button>
          )}
        </div>
      )}
    </div>
  );
}

/** Whole seconds left until `atEpochMs`, ticking; null without one. */
function useCountdown(atEpochMs: number | undefined): number | null {
  const left = (): number | null => (atEpochMs === undefined ? null : Math.max(0, Math.ceil((atEpochMs - Date.now()) / 1000)));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    if (atEpochMs === undefined) return;
    const timer = setInterval(() => setSeconds(left()), 250);
    return () => clearInterval(timer);
  }, [atEpochMs]);
  return seconds;
}
