/**
 * Where one accepted hunk's lines are in a file's current text, and the splice that puts
 * back what they replaced — a revert of that hunk alone, whatever else was written since.
 *
 * The hunk's own lines are not what a revert needs: Flint anchors a hunk tolerantly (quotes,
 * whitespace, indentation), so the lines it removed may differ from the hunk's quote of
 * them. What its write replaced and what it wrote are kept when it lands (LandedLines, with
 * the replaced lines' own endings); the revert writes exactly those back. The written lines
 * are found where the write left them, carried over every change since (as a pending hunk
 * is, see FileVersion.mapRange); failing that (the versions are gone after a restart, or a
 * change touched their edge), only where they occur exactly once in the file. Never at a
 * guess: lines that are not there (the user changed them) or not there once refuse it.
 */
import { occurrences } from '../../shared/edits/linear-search';
import type { Splice } from '../fs/file-text';
import type { FileVersion } from './file-version';
import type { LandedLines } from './plan-hunks';

/** A hunk's landed lines, and the file as its write left them (null once that version is gone: after a restart). */
export interface Landing extends LandedLines {
  version: FileVersion | null;
}

/** Where a revert lands, or why it cannot. */
export type RevertPlan =
  /** `splice` puts the replaced lines back; `anchorLine`: 1-based, where. */
  | { status: 'planned'; splice: Splice; anchorLine: number }
  | { status: 'conflict'; message: string };

/** The splice that reverts `landing` in `current`, or why there is none (see the header). */
export function planRevert(current: FileVersion, landing: Landing, path: string): RevertPlan {
  const start = carriedOver(current, landing) ?? onlyPlaceOf(current.lines, landing.written);
  if (start === null) {
    return {
      status: 'conflict',
      message: `The lines this hunk wrote are no longer in ${path} as it wrote them (changed since, or found more than once), so it was not reverted and nothing was written. Use Undo to step back through Flint's changes instead.`,
    };
  }
  const splice: Splice = { start, end: start + landing.written.length, replacement: landing.replaced, endings: landing.endings };
  return { status: 'planned', splice, anchorLine: start + 1 };
}

/** Where the landed lines are now, following the file from the version the write left; null if unknown or touched since. */
function carriedOver(current: FileVersion, landing: Landing): number | null {
  if (landing.version === null) return null;
  const end = landing.start + landing.written.length;
  const range = landing.version.sameLinesAs(current) ? { start: landing.start } : current.mapRange(landing.version, landing.start, end);
  return range !== null && holds(current.lines, range.start, landing.written) ? range.start : null;
}

/** The one place `written` occurs in `lines`, exactly; null when it is nowhere, twice, or has no line to find it by. */
function onlyPlaceOf(lines: readonly string[], written: readonly string[]): number | null {
  if (!written.some((line) => line.trim() !== '')) return null;
  const found = occurrences(lines, written);
  const first = found.next();
  if (first.done === true || found.next().done !== true) return null;
  return first.value;
}

function holds(lines: readonly string[], start: number, expected: readonly string[]): boolean {
  if (start < 0 || start + expected.length > lines.length) return false;
  return expected.every((line, index) => lines[start + index] === line);
}
