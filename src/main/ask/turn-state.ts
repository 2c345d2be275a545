/**
 * The turn state machine: which event moves a conversation turn from which status to
 * which. Pure and total: every (status, event) pair has an answer, the next status or
 * null (the event does not apply, and nothing changes).
 *
 *   queued ──send──▶ streaming ──completed──▶ complete
 *     │                 │ ├──cancelled──▶ stopped
 *     └──not-sent──▶ failed ◀──failed, not-sent (still being prepared)──┤ └──redirected──▶ redirected
 *                                      └──interrupted (Flint closed)──▶ stopped
 */
import type { TurnStatus } from '../../shared/ask-types';

export type TurnEvent =
  /** A queued turn's request goes out. */
  | 'send'
  /** The model finished. */
  | 'completed'
  /** The user stopped it (Esc). */
  | 'cancelled'
  /** The request or stream failed (or the provider stopped early). */
  | 'failed'
  /** The user typed while it streamed: the next turn replaces it. */
  | 'redirected'
  /** Flint closed while it streamed (seen when the conversation is read back). */
  | 'interrupted'
  /** A queued turn can no longer be sent as queued (the answer it waited for failed, or Flint closed). */
  | 'not-sent';

const TABLE: Record<TurnStatus, Partial<Record<TurnEvent, TurnStatus>>> = {
  queued: { send: 'streaming', 'not-sent': 'failed' },
  // 'not-sent': a queued turn whose request was being prepared when a redirect came first.
  streaming: { completed: 'complete', cancelled: 'stopped', failed: 'failed', redirected: 'redirected', interrupted: 'stopped', 'not-sent': 'failed' },
  complete: {},
  stopped: {},
  failed: {},
  redirected: {},
};

/** Where `event` takes a turn in `status`, or null when it does not apply. */
export function nextTurnStatus(status: TurnStatus, event: TurnEvent): TurnStatus | null {
  return TABLE[status][event] ?? null;
}

/** Whether a turn in `status` is over (its stream, if any, has ended). */
export function isTurnOver(status: TurnStatus): boolean {
  return status !== 'queued' && status !== 'streaming';
}
