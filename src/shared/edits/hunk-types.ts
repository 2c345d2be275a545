/**
 * The live diff as the renderer sees it: each hunk and its state.
 */
import type { FileOperation, HunkLine } from './edit-types';

/** Where a hunk is in its life. */
export type HunkState =
  /** Lines are still arriving. */
  | 'streaming'
  /** Complete and anchored: it can be accepted or rejected. */
  | 'pending'
  /** Being written. */
  | 'applying'
  /** Written to disk. */
  | 'accepted'
  /** Declined by the user. */
  | 'rejected'
  /** Cut off by Stop or a dropped stream: it can only be discarded. */
  | 'partial'
  /** The user changed the same lines meanwhile: not applicable; their text stays. */
  | 'conflict'
  /** Its text is not (or not uniquely) in the file: shown raw, never applied at a guess. */
  | 'unmatched'
  /** Never written: its path leaves the project or touches .git, its text holds a NUL, or its file is not a regular text file within the size limit. */
  | 'refused';

export interface HunkUpdate {
  /** Stable within the answer. */
  id: string;
  /** The conversation turn that wrote it. */
  turn: number;
  /** Its number in the conversation, 1-based, as the model is told about it ("hunk 2"). */
  number: number;
  /**
   * A redirect replaced the turn that wrote it before it was decided: left out of Accept
   * all and the A key, still acceptable on its own.
   */
  superseded?: boolean;
  /** A newer hunk changes the same lines (said before a superseded hunk is accepted). */
  overlapsNewer?: string;
  fileIndex: number;
  path: string;
  /** What accepting it does: apply lines, create, delete, or move (rename) the file. */
  operation: FileOperation | 'move';
  /** The destination, for a move. */
  moveTo?: string;
  state: HunkState;
  /** Lines to append to what the renderer has (never repeated). */
  appendLines: HunkLine[];
  /**
   * The hunk's whole lines, replacing what the renderer has: sent once when the user
   * accepted it revised (some of its lines, or its new text edited).
   */
  replaceLines?: HunkLine[];
  /** Accepted as the user revised it: what was taken ("lines 2–3 of 5", "edited by you"). */
  revised?: string;
  /** 1-based line in the file where the hunk applies, once anchored. */
  anchorLine: number | null;
  /** Why it is unmatched, conflicted or refused; or which tolerances anchoring needed. */
  message?: string;
  /**
   * When main received the hunk's first byte — of its `@@` line, SEARCH marker or file
   * header (performance.timeOrigin + now, comparable across processes on one machine): the
   * renderer measures first byte → paint from it.
   */
  firstByteAtEpochMs?: number;
  /**
   * The hunk's line still arriving, as far as it has come (replaced by the next one; gone
   * once the line is complete and appended): the row paints before its line is whole.
   */
  partialLine?: HunkLine;
}

/**
 * How the user changed a hunk before accepting it.
 * - `lines`: only these lines of the hunk (indices into its lines; each a removed or an
 *   added line) change the file; its other removed lines stay, its other added lines are left out.
 * - `edited`: the hunk's new text (context and added lines) as the user edited it in place.
 */
export type HunkRevision = { kind: 'lines'; indices: number[] } | { kind: 'edited'; newLines: string[] };
