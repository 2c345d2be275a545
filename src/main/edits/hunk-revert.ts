/**
 * Reverting one accepted hunk from its card: its write is taken back as a new change (so
 * Undo can take the revert back in turn), even when it was written in one Accept all with
 * others, or other hunks of its file were written after it.
 *
 * A line hunk's written lines are put back as they were (revert-plan.ts): its own lines
 * only, never a neighbour's. A whole-file hunk (a created, deleted or moved file, or a file
 * a search/replace block created alone) is reverted by writing back what its journal
 * entries replaced, only while its files still hold what it left there. A line hunk whose
 * lines an overlapping hunk of its Accept all wrote over has no lines of its own to take
 * back: refused. Whether the write is still on disk (no Undo took it back while the revert
 * waited) is checked in the write queue, just before. Anything else is refused in words,
 * and nothing is written.
 *
 * Each write of a hunk is kept with its journal entry (HunkWrite): an Undo or Redo that
 * brings one back shows that write's lines and revision, not the latest; one that takes a
 * write off (or a revert) shows the lines the model wrote, unrevised (HunkRecord.modelLines).
 */
import { FlintFailure } from '../../shared/result';
import type { HunkState } from '../../shared/edits/hunk-types';
import type { FileText } from '../fs/file-text';
import type { HunkLine } from '../../shared/edits/edit-types';
import type { ApplyResult, EditApplier, RevertGuard } from './edit-applier';
import type { FileRecord, HunkRecord, HunkWrite } from './edit-records';
import { FileVersion } from './file-version';
import type { ReplanReason } from './hunk-planner';
import type { JournalEntry } from './undo-journal';

/** What a card says once its hunk was reverted. */
export const REVERTED = 'Reverted; you can accept it again.';
/** What a card says once the revert of its hunk was undone. */
export const REVERT_UNDONE = 'The revert was undone: this hunk is on disk again.';

/** What reverting needs of a board. */
export interface RevertHost {
  applier: EditApplier;
  readText(path: string): Promise<FileText | null>;
  fileOf(hunk: HunkRecord): FileRecord;
  /** The hunk's write is off disk (`off`), or back on it: its card and the model hear so. */
  wentBack(hunk: HunkRecord, off: boolean): void;
  /** Plans the undecided hunks of `path` again on what it holds now. */
  replanAll(path: string, current: FileVersion, after: ReplanReason, except?: ReadonlySet<HunkRecord>): void;
  /** Plans `hunk` itself (just reverted) on what its file holds now, keeping its card's words when it is still pending. */
  replanReverted(hunk: HunkRecord, current: FileVersion): void;
}

type Reverted = { status: 'reverted'; entry: JournalEntry | null; written?: FileVersion; paths: string[] } | { status: 'refused'; message: string };

/** Hunks being reverted: a second click waits for nothing and is refused. */
const reverting = new WeakSet<HunkRecord>();

/**
 * Reverts an accepted hunk (see the header); returns its state after. A revert that cannot
 * be done is a FlintFailure 'invalid-state' saying why: the hunk stays accepted, nothing
 * is written, and its card is left as it was.
 */
export async function revertHunk(host: RevertHost, hunk: HunkRecord): Promise<HunkState> {
  if (hunk.state !== 'accepted') throw new FlintFailure('invalid-state', `This hunk is ${hunk.state}; only an accepted hunk can be reverted.`);
  if (reverting.has(hunk)) throw new FlintFailure('invalid-state', 'This hunk is already being reverted.');
  reverting.add(hunk);
  let outcome: Reverted;
  try {
    outcome = await revertWrite(host, hunk);
  } finally {
    reverting.delete(hunk);
  }
  if (outcome.status === 'refused') throw new FlintFailure('invalid-state', outcome.message);
  if (outcome.entry) {
    (hunk.revertEntryIds ??= []).push(outcome.entry.id);
    // Undoing the revert brings back the write it took off.
    (hunk.writes ??= new Map()).set(outcome.entry.id, writeOf(hunk));
  }
  host.wentBack(hunk, true);
  if (outcome.written) {
    host.replanAll(outcome.paths[0]!, outcome.written, 'written', new Set([hunk]));
    host.replanReverted(hunk, outcome.written);
    return hunk.state;
  }
  // A whole file came back (or went): the hunks of its path are planned on what it holds now.
  for (const path of new Set(outcome.paths)) {
    const text = await host.readText(path).catch(() => null);
    if (text !== null) host.replanAll(path, FileVersion.of(text), 'restored');
  }
  return hunk.state;
}

async function revertWrite(host: RevertHost, hunk: HunkRecord): Promise<Reverted> {
  const file = host.fileOf(hunk);
  if (hunk.kind === 'update' && hunk.landing) {
    const result = await host.applier.revertLines(file.path, hunk.landing, stillWritten(hunk, hunk.landing.entryId !== undefined ? [hunk.landing.entryId] : []));
    if (result.status !== 'applied') return { status: 'refused', message: result.message };
    return { status: 'reverted', entry: result.entry, ...(result.written ? { written: result.written } : {}), paths: [file.path] };
  }
  // Written over by an overlapping hunk in the same change (or with others into a file it created): its entries hold theirs too.
  if (hunk.kind === 'update' && hunk.ownEntries !== true) {
    return { status: 'refused', message: `This hunk was written to ${file.path} in one change with a hunk whose lines overlap its own, so Flint cannot take back its lines alone; it was not reverted and nothing was written. Use Undo to take that change back.` };
  }
  const ids = hunk.writtenEntryIds ?? (hunk.journalEntryId !== undefined ? [hunk.journalEntryId] : []);
  if (ids.length === 0) return { status: 'refused', message: 'Flint has no record of what this hunk wrote, so it cannot take it back on its own; use Undo instead.' };
  const result = await host.applier.revertEntries(ids, stillWritten(hunk, ids));
  if (result.status !== 'applied') return { status: 'refused', message: result.message };
  return { status: 'reverted', entry: result.entry, paths: (result.entries ?? []).map((entry) => entry.path) };
}

/** What a revert checks in the write queue: the hunk is still accepted, and its write's entries are still on disk. */
function stillWritten(hunk: HunkRecord, entryIds: readonly string[]): RevertGuard {
  return {
    entryIds,
    refusal: () => (hunk.state === 'accepted' ? null : `This hunk is ${hunk.state} now (an Undo came first); only an accepted hunk can be reverted, and nothing was written.`),
  };
}

/**
 * Keeps what a hunk's write left for Undo, Redo and a revert: its journal entries (an
 * earlier write's too, which an Undo after a revert can reach) and, for a line hunk, where
 * its lines landed. A file a search/replace block created is reverted by its entry instead.
 */
export function noteWrite(hunk: HunkRecord, result: Extract<ApplyResult, { status: 'applied' }>, version: FileVersion | undefined, shared = false): void {
  if (result.entry) {
    if (hunk.journalEntryId !== undefined && hunk.journalEntryId !== result.entry.id) (hunk.earlierEntryIds ??= []).push(hunk.journalEntryId);
    hunk.journalEntryId = result.entry.id;
  }
  hunk.writtenEntryIds = result.entries?.map((entry) => entry.id);
  if (hunk.writtenEntryIds === undefined) delete hunk.writtenEntryIds;
  hunk.landing = result.landed && version && !result.created ? { ...result.landed, version, ...(result.entry ? { entryId: result.entry.id } : {}) } : undefined;
  if (hunk.landing === undefined) delete hunk.landing;
  hunk.ownEntries = !shared;
  if (result.entry) (hunk.writes ??= new Map()).set(result.entry.id, writeOf(hunk));
}

/** The hunk's latest write, as kept (see HunkWrite). */
function writeOf(hunk: HunkRecord): HunkWrite {
  const { revised, journalEntryId, writtenEntryIds, landing, ownEntries } = hunk;
  return {
    lines: [...hunk.lines],
    ...(revised !== undefined ? { revised } : {}),
    ...(journalEntryId !== undefined ? { journalEntryId } : {}),
    ...(writtenEntryIds !== undefined ? { writtenEntryIds } : {}),
    ...(landing !== undefined ? { landing } : {}),
    ...(ownEntries !== undefined ? { ownEntries } : {}),
  };
}

/**
 * An Undo, Redo or revert brought `write` back on disk, or took it off (`off`): the hunk is
 * that write again — its lines, revision, landing and entries. Off disk, it shows the lines
 * the model wrote, unrevised: a revision was the user's for that write only (a Redo brings
 * it back with the write). Returns whether its lines changed (the renderer then needs them all).
 */
export function bringBack(hunk: HunkRecord, write: HunkWrite | undefined, off: boolean): boolean {
  const shown = hunk.lines;
  if (write !== undefined) {
    // The entry it leaves stays reachable: a Redo may bring that write back in turn.
    if (hunk.journalEntryId !== undefined && hunk.journalEntryId !== write.journalEntryId && !hunk.earlierEntryIds?.includes(hunk.journalEntryId)) (hunk.earlierEntryIds ??= []).push(hunk.journalEntryId);
    for (const key of ['revised', 'journalEntryId', 'writtenEntryIds', 'landing', 'ownEntries'] as const) delete hunk[key];
    Object.assign(hunk, write, { lines: [...write.lines] });
  }
  if (off && hunk.modelLines !== undefined) {
    hunk.lines = [...hunk.modelLines];
    delete hunk.revised;
  }
  return !sameLines(shown, hunk.lines);
}

function sameLines(a: readonly HunkLine[], b: readonly HunkLine[]): boolean {
  return a.length === b.length && a.every((line, index) => line.kind === b[index]!.kind && line.text === b[index]!.text);
}
