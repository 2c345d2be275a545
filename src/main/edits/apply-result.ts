/**
 * What a write of the applier (edit-applier.ts) comes to, and the expected failures that
 * become a declined result rather than an error.
 */
import type { Tolerance } from '../../shared/edits/anchor-hunk';
import { FlintFailure } from '../../shared/result';
import type { LandedLines } from './plan-hunks';
import type { JournalEntry } from './undo-journal';

export type ApplyResult =
  /**
   * Written (or already so); `merged` when carried over the user's edits, `appended` when
   * it named no place and went at the end, `created` when it made the file.
   */
  | {
      status: 'applied';
      entry: JournalEntry | null;
      tolerances: Tolerance[];
      merged: boolean;
      appended?: boolean;
      created?: boolean;
      /** A line hunk's lines in what the file became, and what they replaced (for a revert of it alone). */
      landed?: LandedLines | null;
      /** Every entry the write made, when more than one (a move makes two). */
      entries?: JournalEntry[];
    }
  /** The hunk's text is not (or not uniquely) in the file. */
  | { status: 'unmatched'; message: string }
  /** The user changed the same lines; nothing was written. */
  | { status: 'conflict'; message: string }
  /** The path is outside the project, in .git, or not an editable text file (binary, not UTF-8, too large). */
  | { status: 'refused'; message: string };

/** The file was saved by someone else while Flint wrote it; theirs was kept. */
export class FileChangedError extends Error {
  constructor(path: string, keptAs?: string) {
    super(`${path} changed while Flint was writing it; your version was kept${keptAs ? ` (the one it replaced is saved as ${keptAs})` : ''} and the hunk was not applied.`);
    this.name = 'FileChangedError';
  }
}

/** The result an expected failure becomes (a conflict or a refusal), or null for a bug to rethrow. */
export function declinedBy(error: unknown): ApplyResult | null {
  if (error instanceof FileChangedError) return { status: 'conflict', message: error.message };
  if (error instanceof FlintFailure && (error.code === 'outside-project' || error.code === 'not-a-file' || error.code === 'too-large')) {
    return { status: 'refused', message: error.message };
  }
  return null;
}
