/**
 * The life of Flint's X connection, as a pure state machine: the X11 desktop
 * (x11-desktop.ts) holds the state and does what each transition says. Pure, so every
 * path — the server gone, back, Flint quitting mid-connect — is tested without an X server.
 */

export type FollowerState =
  /** Opening the connection (at start, or again after a loss); a press waits for the attempt. */
  | { kind: 'connecting'; attempt: number }
  /** Connected: the focused window and its title are kept in memory from the server's events. */
  | { kind: 'following' }
  /** No connection (the server refused, went away, or is slow to set up): presses use the xprop/xclip readers; a retry is due. */
  | { kind: 'lost'; reason: string; attempt: number; retryInMs: number }
  /** Flint is quitting: nothing is open and nothing is retried. */
  | { kind: 'disposed' };

export type FollowerInput =
  | { kind: 'connected' }
  | { kind: 'failed'; reason: string }
  | { kind: 'closed'; reason: string }
  | { kind: 'retry' }
  | { kind: 'dispose' };

/** The first retry waits this long; each failed one doubles it, up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 500;
export const RETRY_MAX_MS = 30_000;

export const INITIAL_STATE: FollowerState = { kind: 'connecting', attempt: 0 };

/** The state after `input`; an input that means nothing in a state leaves it as it is. */
export function nextState(state: FollowerState, input: FollowerInput): FollowerState {
  if (input.kind === 'dispose') return { kind: 'disposed' };
  switch (state.kind) {
    case 'connecting':
      if (input.kind === 'connected') return { kind: 'following' };
      if (input.kind === 'failed') return { kind: 'lost', reason: input.reason, attempt: state.attempt, retryInMs: retryDelay(state.attempt) };
      return state;
    case 'following':
      // A connection that worked and then broke is retried at once (the server restarted, a display manager came back).
      if (input.kind === 'closed') return { kind: 'lost', reason: input.reason, attempt: 0, retryInMs: 0 };
      return state;
    case 'lost':
      if (input.kind === 'retry') return { kind: 'connecting', attempt: state.attempt + 1 };
      return state;
    case 'disposed':
      return state;
  }
}

/** How long to wait before attempt `attempt + 1`: 0.5 s, 1 s, 2 s … 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(RETRY_FIRST_MS * 2 ** attempt, RETRY_MAX_MS);
}
