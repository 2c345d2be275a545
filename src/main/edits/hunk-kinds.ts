/**
 * What each kind of hunk means for its file: when a complete one is decidable (against
 * the version it was proposed on), and what accepting it writes.
 */
import { newLinesOf, oldLinesOf, type HunkLine } from '../../shared/edits/edit-types';
import { reviseHunk } from '../../shared/edits/hunk-revision';
import type { HunkRevision } from '../../shared/edits/hunk-types';
import { FlintFailure } from '../../shared/result';
import type { ApplyResult, EditApplier, HunkToApply } from './edit-applier';
import type { FileRecord, HunkRecord, Revised } from './edit-records';
import { fileConflict } from './file-conflicts';
import type { FileVersion } from './file-version';
import { KEPT_THEIR_TEXT, planHunk } from './hunk-plan';

/** Where a complete hunk stands once checked against its file. */
export interface Settled {
  outcome: 'pending' | 'conflict' | 'unmatched' | 'refused';
  message?: string;
  anchorLine?: number;
}

/**
 * Where a complete hunk stands against `base` (its file as read; null if missing).
 * A move also needs to know whether its destination exists.
 */
export function settleAgainst(hunk: HunkRecord, file: FileRecord, base: FileVersion | null, destinationExists: boolean): Settled {
  if (createsFile(hunk, file) && file.writtenAs !== undefined) {
    // A new file at the root, or more lines for the one file of that name elsewhere: either could be meant.
    return { outcome: 'refused', message: `Refused: an empty SEARCH for "${file.writtenAs}" may mean a new file at the project's root or lines added to ${file.path}; Flint will not guess. Ask again naming the folder.` };
  }
  if (createsFile(hunk, file) && base === null) {
    return { outcome: 'pending', message: withNote(file, `Creates ${file.path} (the SEARCH section is empty and there is no such file).`) };
  }
  const destination = hunk.kind === 'move' ? { path: file.moveTo!, exists: destinationExists } : undefined;
  const conflict = fileConflict(hunk.kind, { path: file.path, exists: base !== null }, destination);
  if (conflict !== null) return { outcome: 'conflict', message: conflict };
  if (hunk.kind !== 'update' || base === null) return { outcome: 'pending', message: file.pathNote };
  const plan = planHunk(base, applyInput(hunk, file), file.path);
  if (plan.status !== 'planned') return { outcome: plan.status, message: plan.message };
  return { outcome: 'pending', anchorLine: plan.anchorLine, message: withNote(file, plan.appended ? appendedNote(hunk, file) : undefined) };
}

/** The card's words for a hunk that goes at the end of its file. */
export function appendedNote(hunk: HunkRecord, file: FileRecord): string {
  return createsFile(hunk, file)
    ? `Appends to the end of ${file.path} (the SEARCH section is empty and the file exists).`
    : `Goes at the end of ${file.path}: the hunk names no place (no old lines, no @@ text), so it is appended, as the reference implementation does.`;
}

function withNote(file: FileRecord, message: string | undefined): string | undefined {
  if (file.pathNote === undefined) return message;
  return message === undefined ? file.pathNote : `${file.pathNote} ${message}`;
}

/** A search/replace block with an empty SEARCH: it creates its file, or appends to it. */
function createsFile(hunk: HunkRecord, file: FileRecord): boolean {
  return hunk.kind === 'update' && file.format === 'search-replace' && oldLinesOf(hunk.lines).length === 0;
}

/**
 * Why a hunk's text can never be written, or null. A NUL would be written as is, and
 * Flint (like git) then reads the file as binary and refuses to edit it again: the hunk
 * is refused instead, visibly.
 */
export function contentRefusal(hunk: HunkRecord): string | null {
  if (!hunk.lines.some((line) => line.text.includes('\0'))) return null;
  return 'Refused: this hunk contains a NUL character; Flint writes text files only, and the file would read as binary afterwards.';
}

/** Writes an accepted hunk through the applier (one write queue, journaled; `group`: one Undo with others). */
export async function applyRecord(applier: EditApplier, hunk: HunkRecord, file: FileRecord, group?: string): Promise<ApplyResult & { written?: FileVersion }> {
  const refusal = contentRefusal(hunk);
  if (refusal !== null) return { status: 'refused', message: refusal };
  switch (hunk.kind) {
    case 'add':
      return applier.createFile(file.path, newLinesOf(hunk.lines), group);
    case 'delete':
      return applier.deleteFile(file.path, group);
    case 'move': {
      const result = await applier.moveFile(file.path, file.moveTo!, group);
      // Later hunks of this file now apply at its new path.
      if (result.status === 'applied') {
        file.movedFrom = file.path;
        file.path = file.moveTo!;
      }
      return result;
    }
    case 'update': {
      const { results, written } = await applier.applyHunks([applyInput(hunk, file)], group);
      return { ...results[0]!, ...(written ? { written } : {}) };
    }
    default: {
      const exhaustive: never = hunk.kind;
      return exhaustive;
    }
  }
}

/**
 * An update hunk as the applier plans it. Its version is read when the write runs, not
 * when it is queued: a write queued behind another of the same file lands on what that
 * one left (the board moves it there), as an accept a moment later would.
 */
export function applyInput(hunk: HunkRecord, file: FileRecord): HunkToApply {
  return {
    path: file.path,
    lines: hunk.lines,
    contextHints: hunk.contextHints,
    atEndOfFile: hunk.atEndOfFile,
    get base() {
      return hunk.base;
    },
    ...(createsFile(hunk, file) ? { createIfMissing: true } : {}),
  };
}

/**
 * Why a write was declined, in the card's words. A conflict in a file only Flint wrote
 * since the answer began is not about the user's text: another accepted hunk (a redirect's
 * replacement, say) took the lines.
 */
export function declineWords(result: ApplyResult, file: FileRecord, savedByUser: boolean): string | undefined {
  if (result.status === 'applied') return undefined;
  if (result.status !== 'conflict' || savedByUser || !result.message.includes(KEPT_THEIR_TEXT)) return result.message;
  return `Flint already wrote another change to these lines of ${file.path} (an accepted hunk): this one no longer applies, and nothing was written. Reject it, or ask again.`;
}

/**
 * A hunk's lines as the user revised them before accepting it (see hunk-revision.ts): a
 * line hunk's or a new file's only; a revision that is out of range or changes nothing is
 * refused ('invalid-input'), and the hunk is left as it was.
 */
export function revisedLines(hunk: HunkRecord, revision: HunkRevision): { lines: HunkLine[]; revised: Revised } {
  if (hunk.kind === 'delete' || hunk.kind === 'move') {
    throw new FlintFailure('invalid-input', `This hunk ${hunk.kind === 'move' ? 'moves' : 'deletes'} a whole file: it has no lines to choose or edit. Accept or reject it as it is.`);
  }
  const result = reviseHunk(hunk.lines, revision);
  if (!result.ok) throw new FlintFailure('invalid-input', result.message);
  return { lines: result.lines, revised: { kind: revision.kind, words: result.words } };
}
