/**
 * The undo journal: every change Flint wrote, with the exact bytes before and after,
 * in an append-only file that survives restarts.
 *
 * Bookkeeping only: which change is next to undo or redo. The applier restores the
 * bytes (through the same guarded writer as every other write) and marks the entry.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { FlintFailure } from '../../shared/result';
import { errorCode } from '../fs/fs-errors';

/** One change Flint made to one file. `null` bytes mean "the file did not exist". */
export interface JournalEntry {
  id: string;
  /** Project-relative path, for display. */
  path: string;
  /** Where the bytes live on disk. */
  absolutePath: string;
  before: Uint8Array | null;
  after: Uint8Array | null;
  mode: number;
  at: number;
  /** Undone (and not redone). */
  undone: boolean;
  /** Entries of one user action (an Accept all across files) share it: one Undo undoes them all. */
  group: string;
}

type JournalRecord =
  | { op: 'write'; id: string; path: string; absolutePath: string; before: string | null; after: string | null; mode: number; at: number; group?: string }
  /** undo / redo of an entry; drop: the entry is gone (its write failed, or a new change cleared the redo branch). */
  | { op: 'undo' | 'redo' | 'drop'; id: string; at: number };

/** What restoring one entry did. */
export type RestoreOutcome =
  /** The file holds the restored bytes. */
  | { status: 'done' }
  /** The file changed since; nothing was written. */
  | { status: 'conflict'; message: string }
  /** The path no longer leads to a file inside the project (a folder became a link); nothing was written. */
  | { status: 'refused'; message: string };

/** What one Undo (or Redo) of a whole group did. */
export type UndoOutcome =
  /** Every file of the group holds the restored bytes. */
  | { status: 'done'; entries: JournalEntry[] }
  /** `entry` could not be restored (see RestoreOutcome); `done` were, before it. */
  | { status: 'conflict' | 'refused'; entry: JournalEntry; message: string; done: JournalEntry[] }
  /** Nothing to undo (or redo). */
  | { status: 'empty' };

export class UndoJournal {
  /** Group id → the id its current run is recorded under (see runOf). */
  private readonly runs = new Map<string, string>();
  /** Each entry's place in the order writes were recorded (this run's, after those read back): decisions that are not writes are ordered against it. */
  private readonly ordinals = new WeakMap<JournalEntry, number>();
  private recordedCount = 0;

  private constructor(
    private readonly file: string,
    private readonly entries: JournalEntry[],
    /** Every path Flint began a write to, dropped entries included: where a crash may have left scratch files. */
    private readonly touched: Set<string>,
  ) {}

  /** Opens (or starts) the journal at `file`; a torn last line from a crash is skipped. */
  static async open(file: string): Promise<UndoJournal> {
    const bytes = await readFile(file).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT') return Buffer.alloc(0);
      throw error;
    });
    // A crash mid-append leaves a torn last line: cut it off (at its bytes, whatever they
    // decode to), or the next record would be appended onto it and lost (with it, say,
    // the drop that ends a redo branch).
    if (bytes.length > 0 && bytes.at(-1) !== 0x0a) await truncate(file, bytes.lastIndexOf(0x0a) + 1);
    const text = bytes.toString('utf8');
    const entries: JournalEntry[] = [];
    const touched = new Set<string>();
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let record: JournalRecord;
      try {
        record = JSON.parse(line) as JournalRecord;
      } catch {
        continue;
      }
      if (record.op === 'write') {
        touched.add(record.absolutePath);
        entries.push({
          id: record.id,
          path: record.path,
          absolutePath: record.absolutePath,
          before: record.before === null ? null : Buffer.from(record.before, 'base64'),
          after: record.after === null ? null : Buffer.from(record.after, 'base64'),
          mode: record.mode,
          at: record.at,
          undone: false,
          group: record.group ?? record.id,
        });
      } else if (record.op === 'drop') {
        const index = entries.findIndex((candidate) => candidate.id === record.id);
        if (index !== -1) entries.splice(index, 1);
      } else {
        const entry = entries.find((candidate) => candidate.id === record.id);
        if (entry) entry.undone = record.op === 'undo';
      }
    }
    const journal = new UndoJournal(file, entries, touched);
    for (const entry of entries) journal.ordinals.set(entry, ++journal.recordedCount);
    return journal;
  }

  /** How many writes were ever recorded (dropped ones too): a new write makes it grow. */
  get recorded(): number {
    return this.recordedCount;
  }

  /** When `entry` was recorded, as a count of the writes recorded up to it (see `recorded`). */
  ordinalOf(entry: JournalEntry): number {
    return this.ordinals.get(entry) ?? 0;
  }

  /** Every file Flint began writing, including writes that did not happen (absolute paths). */
  get touchedPaths(): ReadonlySet<string> {
    return this.touched;
  }

  /** Newest first, for the UI's undo list. */
  get history(): readonly JournalEntry[] {
    return [...this.entries].reverse();
  }

  /**
   * Records a write Flint is about to make. A new change ends the redo branch: undone
   * entries are dropped, as in any editor.
   */
  async record(change: Omit<JournalEntry, 'id' | 'at' | 'undone' | 'group'>, group?: string): Promise<JournalEntry> {
    for (const undone of this.entries.filter((candidate) => candidate.undone)) await this.drop(undone);
    const id = randomUUID();
    const entry: JournalEntry = { ...change, id, at: Date.now(), undone: false, group: group === undefined ? id : this.runOf(group) };
    await this.append(writeRecordLine(entry));
    this.entries.push(entry);
    this.ordinals.set(entry, ++this.recordedCount);
    this.touched.add(entry.absolutePath);
    return entry;
  }

  /**
   * The group id for the next entry of `group`: a group is one unbroken run of entries, so
   * when another write came in between (an accept while Accept all runs), the rest of the
   * group is a new run, undone on its own and in order.
   */
  private runOf(group: string): string {
    const current = this.runs.get(group) ?? group;
    const newest = this.entries.at(-1);
    if (newest === undefined || newest.group === current || !this.entries.some((entry) => entry.group === current)) return current;
    const next = randomUUID();
    this.runs.set(group, next);
    return next;
  }

  /** Forgets an entry whose write did not happen (it failed, or the file changed first). */
  async drop(entry: JournalEntry): Promise<void> {
    const index = this.entries.indexOf(entry);
    if (index === -1) return;
    this.entries.splice(index, 1);
    await this.append({ op: 'drop', id: entry.id, at: Date.now() });
  }

  /** The entry recorded under `id`, if the journal still has it. */
  find(id: string): JournalEntry | null {
    return this.entries.find((entry) => entry.id === id) ?? null;
  }

  /** The newest change not yet undone: the next to undo. */
  nextUndo(): JournalEntry | null {
    return [...this.entries].reverse().find((candidate) => !candidate.undone) ?? null;
  }

  /** The oldest undone change after the last live one: the next to redo. */
  nextRedo(): JournalEntry | null {
    const lastLive = this.entries.map((entry) => !entry.undone).lastIndexOf(true);
    return this.entries.slice(lastLive + 1).find((candidate) => candidate.undone) ?? null;
  }

  /** The live entries of the newest group not yet undone, newest first: what one Undo restores. */
  nextUndoGroup(): JournalEntry[] {
    const newest = this.nextUndo();
    if (!newest) return [];
    return this.entries.filter((entry) => entry.group === newest.group && !entry.undone).reverse();
  }

  /** The undone entries of the next group to redo, oldest first: what one Redo restores. */
  nextRedoGroup(): JournalEntry[] {
    const oldest = this.nextRedo();
    if (!oldest) return [];
    return this.entries.filter((entry) => entry.group === oldest.group && entry.undone);
  }

  /** Records that `entry`'s bytes were restored: 'undo' put `before` back, 'redo' put `after`. */
  async mark(entry: JournalEntry, op: 'undo' | 'redo'): Promise<void> {
    await this.append({ op, id: entry.id, at: Date.now() });
    entry.undone = op === 'undo';
  }

  /** Appends one record (or its line, made in pieces) and syncs it: the journal must not lose an entry the disk has. */
  private async append(record: JournalRecord | string[]): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const handle = await open(this.file, 'a', 0o600);
    try {
      await handle.appendFile(Array.isArray(record) ? record : `${JSON.stringify(record)}\n`);
      await handle.sync();
    } catch (error) {
      throw new FlintFailure('io-error', `Could not write the undo journal: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await handle.close();
    }
  }
}

/**
 * A write's record as its journal line (JSON, as JournalRecord says), in pieces written one
 * after another. Its two copies of the file go in as base64, never through JSON.stringify
 * (base64 needs no escaping) nor joined into one string: an Accept all of a large file
 * journals megabytes, and stringifying and joining them took longer than writing them.
 */
function writeRecordLine(entry: JournalEntry): string[] {
  const fields = { op: 'write', id: entry.id, path: entry.path, absolutePath: entry.absolutePath, mode: entry.mode, at: entry.at, ...(entry.group !== entry.id ? { group: entry.group } : {}) };
  const json = JSON.stringify(fields);
  return [`${json.slice(0, -1)},"before":`, ...base64Field(entry.before), ',"after":', ...base64Field(entry.after), '}\n'];
}

/** Bytes as a JSON string of their base64 (null: none), in pieces, without copying the bytes first. */
function base64Field(bytes: Uint8Array | null): string[] {
  return bytes === null ? ['null'] : ['"', Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), '"'];
}
