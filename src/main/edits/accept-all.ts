/**
 * Accept all: every pending hunk of an answer, in order, as one step for Undo (one journal
 * group). A file's line hunks are planned together and written once — linear in the file,
 * however many hunks it has — and whole-file ones (add, delete, move) go one by one.
 */
import { randomUUID } from 'node:crypto';
import type { FileRecord, HunkRecord } from './edit-records';

/** What Accept all needs of a board. */
export interface AcceptAllTarget {
  /** The pending hunks, in the answer's order. */
  pending(): HunkRecord[];
  fileOf(hunk: HunkRecord): FileRecord;
  /** Accepts one (whole-file) hunk; whether it was written. */
  acceptOne(hunk: HunkRecord, group: string): Promise<boolean>;
  /** Accepts line hunks of one file in one write; how many landed. */
  acceptTogether(file: FileRecord, hunks: HunkRecord[], group: string): Promise<number>;
}

/** Returns how many hunks were written. */
export async function acceptAll(target: AcceptAllTarget): Promise<number> {
  const group = randomUUID();
  const tried = new Set<HunkRecord>();
  let accepted = 0;
  // Another round takes hunks the first made applicable (a block editing the file an earlier block creates).
  for (let round = 0; round < 3; round += 1) {
    const pending = target.pending().filter((hunk) => !tried.has(hunk));
    if (pending.length === 0) break;
    for (const hunk of pending) tried.add(hunk);
    accepted += await acceptRound(target, pending, group);
  }
  return accepted;
}

async function acceptRound(target: AcceptAllTarget, pending: readonly HunkRecord[], group: string): Promise<number> {
  const done = new Set<FileRecord>();
  let accepted = 0;
  for (const hunk of pending) {
    // Decisions made while this runs (or a section refused) are left alone.
    if (hunk.state !== 'pending') continue;
    if (hunk.kind !== 'update') {
      if (await target.acceptOne(hunk, group)) accepted += 1;
      continue;
    }
    const file = target.fileOf(hunk);
    if (done.has(file)) continue;
    done.add(file);
    const together = pending.filter((candidate) => candidate.kind === 'update' && target.fileOf(candidate) === file && candidate.state === 'pending');
    accepted += await target.acceptTogether(file, together, group);
  }
  return accepted;
}
