/**
 * The hunk state machine: which event moves a hunk from which state to which.
 *
 * Pure and total: every (state, event) pair has an answer, either the next state or a
 * sentence the UI can show saying why the event does not apply. Main's HunkBoard asks
 * here before it changes a hunk, and the renderer's hunk card before it offers a
 * decision, so the rules live in one table instead of guards scattered over both.
 */
import type { HunkState } from './hunk-types';

/** Something that happens to a hunk. */
export type HunkEvent =
  /** A complete hunk was checked against its file. */
  | { type: 'settled'; outcome: 'pending' | 'unmatched' | 'conflict' | 'refused' }
  /** The stream ended (Stop, a dropped connection) before the hunk was complete. */
  | { type: 'cut-off' }
  /** The user accepts: the write starts. */
  | { type: 'accept' }
  /** The write landed. */
  | { type: 'written' }
  /** The applier found it cannot write; nothing was written. */
  | { type: 'write-declined'; outcome: 'conflict' | 'unmatched' | 'refused' }
  /** An I/O error while writing: the hunk can be decided again. */
  | { type: 'write-failed' }
  /** The user declines it (or discards a partial one). */
  | { type: 'reject' }
  /** The user takes a rejection back (Restore, or Undo): undecided again, as it was before. */
  | { type: 'restored'; to: RestorableState }
  /** Its file changed on disk and the hunk was anchored again. */
  | { type: 'replanned'; outcome: 'pending' | 'conflict' | 'unmatched' }
  /** Its file was deleted on disk. */
  | { type: 'file-deleted' }
  /** Its file section was refused (a refused move takes its whole section). */
  | { type: 'section-refused' }
  /** Undo reverted its write. */
  | { type: 'undone' }
  /** Redo wrote it again. */
  | { type: 'redone' };

/** The states a rejection can be taken back to: those a hunk can be rejected from. */
export type RestorableState = 'pending' | 'conflict' | 'unmatched' | 'partial' | 'refused';

/** The answer to an event: the next state, or why the event does not apply (shown in the UI). */
export type HunkTransition = { ok: true; state: HunkState } | { ok: false; message: string };

// Records rather than arrays: the compiler then insists on every member of the union.
const STATES: Record<HunkState, true> = {
  streaming: true,
  pending: true,
  applying: true,
  accepted: true,
  rejected: true,
  partial: true,
  conflict: true,
  unmatched: true,
  refused: true,
};

/**
 * Why an event does not apply, after "This hunk is <state>; ". Reject has no clause in
 * use (every state answers it), but keeps one so the table stays total.
 */
const NOT_APPLICABLE: Record<HunkEvent['type'], string> = {
  settled: 'it is no longer streaming, so it has nothing left to settle.',
  'cut-off': 'it is no longer streaming, so it cannot be cut off.',
  accept: 'only a complete, anchored hunk can be accepted.',
  written: 'it is not being written.',
  'write-declined': 'it is not being written.',
  'write-failed': 'it is not being written.',
  reject: 'it cannot be rejected.',
  restored: 'only a rejected hunk can be restored.',
  replanned: 'a change to its file on disk does not affect it.',
  'file-deleted': 'the deletion of its file does not affect it.',
  'section-refused': 'refusing its file section does not affect it.',
  undone: 'it has no write to undo.',
  redone: 'it has no undone write to redo.',
};

/** Every hunk state, for tests and tools that enumerate them. */
export const HUNK_STATES: readonly HunkState[] = Object.keys(STATES) as HunkState[];

/** Every event type, for tests and tools that enumerate them. */
export const HUNK_EVENT_TYPES: readonly HunkEvent['type'][] = Object.keys(NOT_APPLICABLE) as HunkEvent['type'][];

/**
 * Settled hunks nobody has decided on yet: what Reject all and a refused file section take.
 *
 * A streaming hunk is not among them: it is refused (or rejected) once it settles.
 */
export function isUndecided(state: HunkState): boolean {
  return state === 'pending' || state === 'unmatched' || state === 'conflict' || state === 'partial';
}

/** Where `event` takes a hunk in `state`, or why it cannot. */
export function nextHunkState(state: HunkState, event: HunkEvent): HunkTransition {
  switch (state) {
    case 'streaming':
      return fromStreaming(event);
    case 'pending':
      return fromPending(event);
    case 'applying':
      return fromApplying(event);
    case 'accepted':
      return fromAccepted(event);
    case 'conflict':
      return fromConflict(event);
    case 'unmatched':
      return fromUnmatched(event);
    case 'partial':
      return fromPartial(event);
    case 'rejected':
      return fromRejected(event);
    case 'refused':
      return fromRefused(event);
    default: {
      const exhaustive: never = state;
      return exhaustive;
    }
  }
}

function fromStreaming(event: HunkEvent): HunkTransition {
  switch (event.type) {
    case 'settled':
      return to(event.outcome);
    case 'cut-off':
      return to('partial');
    case 'section-refused':
      return to('refused');
    case 'accept':
      return refuse('This hunk is still streaming; wait for it to complete.');
    case 'reject':
      return refuse('This hunk is still streaming; Stop first, or wait for it.');
    default:
      return notApplicable('streaming', event);
  }
}

function fromPending(event: HunkEvent): HunkTransition {
  switch (event.type) {
    case 'accept':
      return to('applying');
    case 'reject':
      return to('rejected');
    case 'replanned':
      return to(event.outcome);
    case 'file-deleted':
      return to('conflict');
    case 'section-refused':
      return to('refused');
    case 'redone':
      return to('accepted');
    default:
      return notApplicable('pending', event);
  }
}

function fromApplying(event: HunkEvent): HunkTransition {
  switch (event.type) {
    case 'written':
      return to('accepted');
    case 'write-declined':
      return to(event.outcome);
    case 'write-failed':
      return to('pending');
    case 'reject':
      return refuse('This hunk is being written; use Undo once it is.');
    default:
      return notApplicable('applying', event);
  }
}

function fromAccepted(event: HunkEvent): HunkTransition {
  switch (event.type) {
    case 'undone':
      return to('pending');
    case 'reject':
      return refuse('This hunk is already written; use Undo instead.');
    default:
      return notApplicable('accepted', event);
  }
}

function fromConflict(event: HunkEvent): HunkTransition {
  switch (event.type) {
    case 'reject':
      return to('rejected');
    case 'replanned':
      return to(event.outcome);
    case 'file-deleted':
      return to('conflict');
    case 'section-refused':
      return to('refused');
    case 'redone':
      return to('accepted');
    default:
      return notApplicable('conflict', event);
  }
}

function fromUnmatched(event: HunkEvent): HunkTransition {
  switch (event.type) {
    case 'reject':
      return to('rejected');
    case 'section-refused':
      return to('refused');
    case 'redone':
      return to('accepted');
    default:
      return notApplicable('unmatched', event);
  }
}

function fromPartial(event: HunkEvent): HunkTransition {
  switch (event.type) {
    case 'reject':
      return to('rejected');
    case 'section-refused':
      return to('refused');
    default:
      return notApplicable('partial', event);
  }
}

function fromRejected(event: HunkEvent): HunkTransition {
  switch (event.type) {
    // Idempotent: a second click, or Reject all over an already rejected hunk.
    case 'reject':
      return to('rejected');
    case 'restored':
      return to(event.to);
    case 'redone':
      return to('accepted');
    default:
      return notApplicable('rejected', event);
  }
}

function fromRefused(event: HunkEvent): HunkTransition {
  switch (event.type) {
    case 'reject':
      return to('rejected');
    default:
      return notApplicable('refused', event);
  }
}

function to(state: HunkState): HunkTransition {
  return { ok: true, state };
}

function refuse(message: string): HunkTransition {
  return { ok: false, message };
}

function notApplicable(state: HunkState, event: HunkEvent): HunkTransition {
  return refuse(`This hunk is ${state}; ${NOT_APPLICABLE[event.type]}`);
}
