/**
 * What each kind of hunk means for its file: when a complete one is decidable (against
 * the text it was proposed on), and what accepting it writes.
 */
import { newLinesOf } from '../../shared/edits/edit-types';
import { planHunk, type ApplyResult, type EditApplier, type HunkToApply } from './edit-applier';
import type { FileRecord, HunkRecord } from './edit-records';
import { fileConflict } from './file-conflicts';
import type { FileText } from '../fs/file-text';

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
export function settleAgainst(hunk: HunkRecord, file: FileRecord, base: FileText | null, destinationExists: boolean): Settled {
  const destination = hunk.kind === 'move' ? { path: file.moveTo!, exists: destinationExists } : undefined;
  const conflict = fileConflict(hunk.kind, { path: file.path, exists: base !== null }, destination);
  if (conflict !== null) return { outcome: 'conflict', message: conflict };
  if (hunk.kind !== 'update' || base === null) return { outcome: 'pending' };
  const plan = planHunk(base, applyInput(hunk, file), file.path);
  return plan.status === 'planned' ? { outcome: 'pending', anchorLine: plan.anchorLine } : { outcome: plan.status, message: plan.message };
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

/** Writes an accepted hunk through the applier (one write queue, journaled). */
export async function applyRecord(applier: EditApplier, hunk: HunkRecord, file: FileRecord): Promise<ApplyResult & { written?: FileText }> {
  const refusal = contentRefusal(hunk);
  if (refusal !== null) return { status: 'refused', message: refusal };
  switch (hunk.kind) {
    case 'add':
      return applier.createFile(file.path, newLinesOf(hunk.lines));
    case 'delete':
      return applier.deleteFile(file.path);
    case 'move': {
      const result = await applier.moveFile(file.path, file.moveTo!);
      // Later hunks of this file now apply at its new path.
      if (result.status === 'applied') file.path = file.moveTo!;
      return result;
    }
    case 'update':
      return applier.applyHunk(applyInput(hunk, file));
    default: {
      const exhaustive: never = hunk.kind;
      return exhaustive;
    }
  }
}

/** An update hunk as the applier plans it. */
export function applyInput(hunk: HunkRecord, file: FileRecord): HunkToApply {
  return { path: file.path, lines: hunk.lines, contextHints: hunk.contextHints, atEndOfFile: hunk.atEndOfFile, baseText: hunk.baseText };
}
