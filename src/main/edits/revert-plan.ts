/**
 * Where one accepted hunk's lines are in a file's current text, and the splice that puts
 * back what they replaced — a revert of that hunk alone, whatever else was written since.
 *
 * The hunk's own lines are not what a revert needs: Flint anchors a hunk tolerantly (quotes,
 * whitespace, indentation), so the lines it removed may differ from the hunk's quote of
 * them. What its write replaced and what it wrote are kept when it lands (LandedLines, with
 * the replaced lines' own endings); the revert writes exactly those back. The written lines
 * are found only where the write left them, carried over every change since (as a pending
 * hunk is, see FileVersion.mapRange), from the file as that write left it (kept in memory,
 * or after a restart read back from the write's journal entry). Never by searching for
 * them: lines the user changed (or a change touching their edge) refuse it, even when the
 * same lines occur elsewhere, and so does a write whose version is gone.
 */
import type { Splice } from '../fs/file-text';
import type { FileVersion } from './file-version';
import type { LandedLines } from './plan-hunks';

/** A hunk's landed lines, and the file as its write left them (null after a restart: see `entryId`). */
export interface Landing extends LandedLines {
  version: FileVersion | null;
  /** The journal entry of the write (none when it changed no byte): its bytes after are that version again. */
  entryId?: string;
}

/** Where a revert lands, or why it cannot. */
export type RevertPlan =
  /** `splice` puts the replaced lines back; `anchorLine`: 1-based, where. */
  | { status: 'planned'; splice: Splice; anchorLine: number }
  | { status: 'conflict'; message: string };

/** The splice that reverts `landing` in `current`, or why there is none (see the header). */
export function planRevert(current: FileVersion, landing: Landing, path: string): RevertPlan {
  if (landing.version === null) {
    return { status: 'conflict', message: `Flint no longer has ${path} as this hunk's write left it, so it cannot tell where its lines are now; it was not reverted and nothing was written. Use Undo to step back through Flint's changes instead.` };
  }
  const start = carriedOver(current, landing.version, landing);
  if (start === null) {
    return {
      status: 'conflict',
      message: `The lines this hunk wrote are no longer in ${path} as it wrote them (changed since), so it was not reverted and nothing was written. Use Undo to step back through Flint's changes instead.`,
    };
  }
  const splice: Splice = { start, end: start + landing.written.length, replacement: landing.replaced, endings: landing.endings };
  return { status: 'planned', splice, anchorLine: start + 1 };
}

/** Where the landed lines are now, following the file from `version` (what the write left); null if touched since. */
function carriedOver(current: FileVersion, version: FileVersion, landing: LandedLines): number | null {
  // A version read back from the journal must hold the lines where the write put them.
  if (!holds(version.lines, landing.start, landing.written)) return null;
  const end = landing.start + landing.written.length;
  const range = version.sameLinesAs(current) ? { start: landing.start } : current.mapRange(version, landing.start, end);
  return range !== null && holds(current.lines, range.start, landing.written) ? range.start : null;
}

function holds(lines: readonly string[], start: number, expected: readonly string[]): boolean {
  if (start < 0 || start + expected.length > lines.length) return false;
  return expected.every((line, index) => lines[start + index] === line);
}
