/**
 * Accept all: every pending hunk of an answer, in order, as one step for Undo (one journal
 * group). A file's line hunks are planned together and written once — linear in the file,
 * however many hunks it has — and whole-file ones (add, delete, move) go one by one.
 *
 * Hunks the user revised (edited in place) are accepted as revised, in the same step: every
 * revision is checked before anything is written, and one that cannot be (not a pending
 * hunk of this answer, or refused as a single revised accept would be) fails the whole
 * Accept all. A revised hunk that is not written shows the model's lines again.
 */
import { randomUUID } from 'node:crypto';
import type { HunkRevision } from '../../shared/edits/hunk-types';
import { FlintFailure } from '../../shared/result';
import type { FileRecord, HunkRecord } from './edit-records';
import { revisedLines } from './hunk-kinds';

/** A hunk's lines and revision, as shown. */
type Shown = Pick<HunkRecord, 'lines' | 'revised'>;

/** What Accept all needs of a board. */
export interface AcceptAllTarget {
  /** The pending hunks, in the answer's order. */
  pending(): HunkRecord[];
  /** The hunk of this answer named `hunkId`, if there is one. */
  hunk(hunkId: string): HunkRecord | undefined;
  fileOf(hunk: HunkRecord): FileRecord;
  /** Accepts one (whole-file) hunk; whether it was written. */
  acceptOne(hunk: HunkRecord, group: string): Promise<boolean>;
  /** Accepts line hunks of one file in one write; how many landed. */
  acceptTogether(file: FileRecord, hunks: HunkRecord[], group: string): Promise<number>;
  /** Shows `hunk` with these lines and revision; the renderer gets all its lines once. */
  showLines(hunk: HunkRecord, shown: Shown): void;
}

/** Returns how many hunks were written; `revisions`: the user's, by hunk id (see the header). */
export async function acceptAll(target: AcceptAllTarget, revisions: Readonly<Record<string, HunkRevision>> = {}): Promise<number> {
  const revised = checkedRevisions(target, revisions);
  const group = randomUUID();
  const before = new Map<HunkRecord, Shown>();
  for (const [hunk, shown] of revised) {
    before.set(hunk, { lines: hunk.lines, revised: hunk.revised });
    target.showLines(hunk, shown);
  }
  const tried = new Set<HunkRecord>();
  let accepted = 0;
  try {
    // Another round takes hunks the first made applicable (a block editing the file an earlier block creates).
    for (let round = 0; round < 3; round += 1) {
      const pending = target.pending().filter((hunk) => !tried.has(hunk));
      if (pending.length === 0) break;
      for (const hunk of pending) tried.add(hunk);
      accepted += await acceptRound(target, pending, group);
    }
  } finally {
    // Not written (declined, failed, or decided otherwise meanwhile): as it was, unless an Undo already put it back.
    for (const [hunk, shown] of before) if (hunk.state !== 'accepted' && hunk.revised === revised.get(hunk)!.revised) target.showLines(hunk, shown);
  }
  return accepted;
}

/** Each revision's hunk and revised lines; a FlintFailure 'invalid-input' for the first that cannot be, before anything is shown or written. */
function checkedRevisions(target: AcceptAllTarget, revisions: Readonly<Record<string, HunkRevision>>): Map<HunkRecord, Shown> {
  const pending = new Set(target.pending());
  const checked = new Map<HunkRecord, Shown>();
  for (const [hunkId, revision] of Object.entries(revisions)) {
    const hunk = target.hunk(hunkId);
    if (hunk === undefined) throw refused(`The edited hunk ${hunkId} is not part of this answer.`);
    const named = `Hunk ${hunk.number} in ${target.fileOf(hunk).path}`;
    if (!pending.has(hunk)) {
      const why = hunk.superseded && hunk.state === 'pending' ? 'superseded by a redirect (Accept all leaves it; accept it on its own)' : hunk.state;
      throw refused(`${named} is ${why}, so it cannot be accepted as you edited it.`);
    }
    try {
      checked.set(hunk, revisedLines(hunk, revision));
    } catch (error) {
      throw error instanceof FlintFailure ? refused(`${named}: ${error.message}`) : error;
    }
  }
  return checked;
}

function refused(reason: string): FlintFailure {
  return new FlintFailure('invalid-input', `Accept all wrote nothing. ${reason}`);
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
