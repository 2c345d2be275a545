/**
 * The undo journal: every change Flint wrote, with the exact bytes before and after,
 * in an append-only file that survives restarts.
 *
 * Undo restores the bytes from before, redo the bytes from after — but only if the
 * file still holds what Flint left there. If the user changed it since, the undo is a
 * conflict and nothing is written: their text is never overwritten.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { FlintFailure } from '../../shared/result';
import { FileChangedError, writeFileAtomic } from '../fs/atomic-write';
import { errorCode } from '../project/fs-errors';

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
}

type JournalRecord =
  | { op: 'write'; id: string; path: string; absolutePath: string; before: string | null; after: string | null; mode: number; at: number }
  /** undo / redo of an entry; drop: the entry is gone (its write failed, or a new change cleared the redo branch). */
  | { op: 'undo' | 'redo' | 'drop'; id: string; at: number };

export type UndoOutcome =
  /** The file holds the restored bytes. */
  | { status: 'done'; entry: JournalEntry }
  /** The file changed since; nothing was written. */
  | { status: 'conflict'; entry: JournalEntry; message: string }
  /** Nothing to undo (or redo). */
  | { status: 'empty' };

export class UndoJournal {
  private constructor(
    private readonly file: string,
    private readonly entries: JournalEntry[],
  ) {}

  /** Opens (or starts) the journal at `file`; a torn last line from a crash is skipped. */
  static async open(file: string): Promise<UndoJournal> {
    const text = await readFile(file, 'utf8').catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT') return '';
      throw error;
    });
    const entries: JournalEntry[] = [];
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      let record: JournalRecord;
      try {
        record = JSON.parse(line) as JournalRecord;
      } catch {
        continue;
      }
      if (record.op === 'write') {
        entries.push({
          id: record.id,
          path: record.path,
          absolutePath: record.absolutePath,
          before: record.before === null ? null : Buffer.from(record.before, 'base64'),
          after: record.after === null ? null : Buffer.from(record.after, 'base64'),
          mode: record.mode,
          at: record.at,
          undone: false,
        });
      } else if (record.op === 'drop') {
        const index = entries.findIndex((candidate) => candidate.id === record.id);
        if (index !== -1) entries.splice(index, 1);
      } else {
        const entry = entries.find((candidate) => candidate.id === record.id);
        if (entry) entry.undone = record.op === 'undo';
      }
    }
    return new UndoJournal(file, entries);
  }

  /** Newest first, for the UI's undo list. */
  get history(): readonly JournalEntry[] {
    return [...this.entries].reverse();
  }

  /**
   * Records a write Flint is about to make. A new change ends the redo branch: undone
   * entries are dropped, as in any editor.
   */
  async record(change: Omit<JournalEntry, 'id' | 'at' | 'undone'>): Promise<JournalEntry> {
    for (const undone of this.entries.filter((candidate) => candidate.undone)) await this.drop(undone);
    const entry: JournalEntry = { ...change, id: randomUUID(), at: Date.now(), undone: false };
    await this.append({
      op: 'write',
      id: entry.id,
      path: entry.path,
      absolutePath: entry.absolutePath,
      before: entry.before === null ? null : Buffer.from(entry.before).toString('base64'),
      after: entry.after === null ? null : Buffer.from(entry.after).toString('base64'),
      mode: entry.mode,
      at: entry.at,
    });
    this.entries.push(entry);
    return entry;
  }

  /** Forgets an entry whose write did not happen (it failed, or the file changed first). */
  async drop(entry: JournalEntry): Promise<void> {
    const index = this.entries.indexOf(entry);
    if (index === -1) return;
    this.entries.splice(index, 1);
    await this.append({ op: 'drop', id: entry.id, at: Date.now() });
  }

  /** Undoes the newest change not yet undone; `beforeWrite` is told which file is about to change. */
  undo(beforeWrite?: (entry: JournalEntry) => void): Promise<UndoOutcome> {
    const entry = [...this.entries].reverse().find((candidate) => !candidate.undone);
    return entry ? this.restore(entry, 'undo', beforeWrite) : Promise.resolve({ status: 'empty' });
  }

  /** Redoes the oldest undone change after the last live one. */
  redo(beforeWrite?: (entry: JournalEntry) => void): Promise<UndoOutcome> {
    const lastLive = this.entries.map((entry) => !entry.undone).lastIndexOf(true);
    const entry = this.entries.slice(lastLive + 1).find((candidate) => candidate.undone);
    return entry ? this.restore(entry, 'redo', beforeWrite) : Promise.resolve({ status: 'empty' });
  }

  private async restore(entry: JournalEntry, op: 'undo' | 'redo', beforeWrite?: (entry: JournalEntry) => void): Promise<UndoOutcome> {
    const expected = op === 'undo' ? entry.after : entry.before;
    const target = op === 'undo' ? entry.before : entry.after;
    const current = await readFile(entry.absolutePath).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    });
    if (!sameBytes(current, expected)) {
      return { status: 'conflict', entry, message: `${entry.path} changed since Flint ${op === 'undo' ? 'wrote' : 'restored'} it; nothing was ${op}ne.` };
    }
    beforeWrite?.(entry);
    try {
      if (target === null) await rm(entry.absolutePath, { force: true });
      else {
        await mkdir(dirname(entry.absolutePath), { recursive: true });
        await writeFileAtomic(entry.absolutePath, target, { mode: entry.mode, unchangedFrom: expected });
      }
    } catch (error) {
      if (error instanceof FileChangedError) return { status: 'conflict', entry, message: error.message };
      throw error;
    }
    await this.append({ op, id: entry.id, at: Date.now() });
    entry.undone = op === 'undo';
    return { status: 'done', entry };
  }

  /** Appends one record and syncs it: the journal must not lose an entry the disk has. */
  private async append(record: JournalRecord): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const handle = await open(this.file, 'a', 0o600);
    try {
      await handle.appendFile(`${JSON.stringify(record)}\n`);
      await handle.sync();
    } catch (error) {
      throw new FlintFailure('io-error', `Could not write the undo journal: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      await handle.close();
    }
  }
}

function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  return Buffer.from(a).equals(Buffer.from(b));
}
