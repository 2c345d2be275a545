/**
 * Writes accepted edits to disk: atomically, byte-preserving, journaled, and never over
 * the user's own changes.
 *
 * A hunk carries the version of the file it was proposed on. If the file still holds
 * those lines, the hunk is anchored and applied; if the user changed it meanwhile, it is
 * carried over their changes (hunk-plan.ts), and one that cannot be is a conflict and
 * nothing is written. Hunks of one file accepted together are written at once.
 */
import { FlintFailure } from '../../shared/result';
import { ProjectFileWriter, type ProjectFileWriterOptions } from '../fs/project-file-writer';
import { isInsideRoot, toPosixRelative } from '../fs/root-paths';
import { decodeFileText, encodeFileText, spliceMany, type FileText } from '../fs/file-text';
import type { ProjectFiles, ResolvedPath } from '../fs/project-files';
import { sameBytes } from '../fs/same-bytes';
import { fileConflict } from './file-conflicts';
import { FileVersion } from './file-version';
import { declinedBy, FileChangedError, type ApplyResult } from './apply-result';
import { planHunks } from './plan-hunks';
import { planRevert, type Landing } from './revert-plan';
import type { HunkToApply } from './hunk-plan';
import type { JournalEntry, RestoreOutcome, UndoJournal, UndoOutcome } from './undo-journal';

export type { HunkToApply } from './hunk-plan';
export type { ApplyResult } from './apply-result';

/**
 * What a revert re-checks when its turn in the write queue comes: the hunk may have been
 * undone (or changed state) while it waited.
 */
export interface RevertGuard {
  /** The journal entries of the write being taken back: each must still be in the journal, not undone. */
  entryIds: readonly string[];
  /** Why the hunk may no longer be reverted, or null. */
  refusal(): string | null;
}

export class EditApplier {
  /** Every write goes through it: compare and replace without a window, inside the project only. */
  private readonly writer: ProjectFileWriter;
  /** The project is closing: no new write starts (one already queued still finishes). */
  private closed = false;
  /** The versions Flint last wrote, by path, oldest first (see versionOf). */
  private readonly lastWritten = new Map<string, FileVersion[]>();

  constructor(
    /** The project's files: every path the model names is resolved there, as the model's. */
    private readonly files: ProjectFiles,
    private readonly journal: UndoJournal,
    /** Told just before Flint writes a file (what it will hold; null: deleted), so the watcher's echo is not taken for the user's save. */
    private readonly onWillWrite?: (relativePath: string, bytes: Uint8Array | null) => void,
    writerOptions: ProjectFileWriterOptions = {},
  ) {
    this.writer = new ProjectFileWriter(files.root, writerOptions);
  }

  /** Accepts one hunk: a read, a plan, a write. */
  async applyHunk(hunk: HunkToApply): Promise<ApplyResult & { written?: FileVersion }> {
    const { results, written } = await this.applyHunks([hunk]);
    return { ...results[0]!, ...(written ? { written } : {}) };
  }

  /**
   * Accepts hunks of one file together (all with the same path): one read, one plan of
   * them all on that text, one write and one journal entry (in `group`, so one Undo of
   * an Accept all undoes every file it wrote). A result per hunk, in order; `written` is
   * what the file holds now, when something landed.
   */
  applyHunks(hunks: readonly HunkToApply[], group?: string): Promise<{ results: ApplyResult[]; written?: FileVersion }> {
    return this.serialize(async () => {
      try {
        return await this.writeHunks(hunks, group);
      } catch (error) {
        const declined = declinedBy(error);
        if (declined === null) throw error;
        return { results: hunks.map(() => declined) };
      }
    });
  }

  /** Creates a new file (V4A Add File); refused if it already exists. */
  createFile(path: string, lines: readonly string[], group?: string): Promise<ApplyResult> {
    return this.serialize(() =>
      this.guard(async () => {
        const target = await this.files.resolve(path, 'model');
        const conflict = fileConflict('add', { path: target.relativePath, exists: target.exists });
        if (conflict !== null) return { status: 'conflict', message: conflict };
        const bytes = new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));
        const entry = await this.commit(target, null, bytes, 0o644, group);
        return { status: 'applied', entry, tolerances: [], merged: false };
      }),
    );
  }

  /** Deletes a file (V4A Delete File); the journal keeps its bytes for undo. */
  deleteFile(path: string, group?: string): Promise<ApplyResult> {
    return this.serialize(() =>
      this.guard(async () => {
        const target = await this.files.resolve(path, 'model');
        const conflict = fileConflict('delete', { path: target.relativePath, exists: target.exists });
        if (conflict !== null) return { status: 'conflict', message: conflict };
        const current = await this.readQuiet(target);
        if ('status' in current) return current;
        const entry = await this.commit(target, current.bytes, null, current.mode, group);
        return { status: 'applied', entry, tolerances: [], merged: false };
      }),
    );
  }

  /** Moves a file (V4A Move to) without ever replacing an existing destination. */
  moveFile(from: string, to: string, group?: string): Promise<ApplyResult> {
    return this.serialize(() =>
      this.guard(async () => {
        const source = await this.files.resolve(from, 'model');
        const destination = await this.files.resolve(to, 'model');
        const conflict = fileConflict('move', { path: source.relativePath, exists: source.exists }, { path: destination.relativePath, exists: destination.exists });
        if (conflict !== null) return { status: 'conflict', message: conflict };
        const current = await this.readQuiet(source);
        if ('status' in current) return current;
        const { bytes, mode } = current;
        // Two journal entries, created first: undo walks them back one at a time.
        // One group: one Undo takes the whole move back.
        const entry = await this.commit(destination, null, bytes, mode, group);
        let removed: JournalEntry;
        try {
          removed = await this.commit(source, bytes, null, mode, group ?? entry.group);
        } catch (error) {
          // The source could not go: take the copy back (only if it is still Flint's), and
          // forget it, so no redo creates the copy again.
          if ((await this.restore(entry, 'undo')).status === 'done') await this.journal.drop(entry);
          throw error;
        }
        // The same bytes under the new name: what Flint knew of them goes along.
        for (const version of this.lastWritten.get(source.relativePath) ?? []) this.remember(destination.relativePath, version);
        return { status: 'applied', entry, tolerances: [], merged: false, entries: [entry, removed] };
      }),
    );
  }

  /**
   * Takes one line hunk's write back (see revert-plan.ts) as a new change, itself undoable:
   * its written lines, followed to where they are in the file now, become the lines they
   * replaced. `still` is checked in the write queue, just before: an Undo queued first may
   * have taken the write off disk already.
   */
  revertLines(path: string, landing: Landing, still: RevertGuard): Promise<ApplyResult & { written?: FileVersion }> {
    return this.serialize(() =>
      this.guard(async () => {
        const gone = this.goneSince(still);
        if (gone !== null) return gone;
        const target = await this.files.resolve(path, 'model');
        const read = await this.currentText(target, []);
        if ('status' in read) return read;
        const version = landing.version ?? this.leftBy(landing.entryId, target.relativePath);
        const current = this.versionOf(target.relativePath, read.text, version);
        const plan = planRevert(current, { ...landing, version }, target.relativePath);
        if (plan.status !== 'planned') return plan;
        const next = FileVersion.of(spliceMany(current.text, [plan.splice]), current);
        const after = encodeFileText(next.text);
        const entry = read.before !== null && sameBytes(after, read.before) ? null : await this.commit(target, read.before, after, read.mode);
        this.remember(target.relativePath, next);
        return { status: 'applied', entry, tolerances: [], merged: false, written: next };
      }),
    );
  }

  /**
   * Writes back what journal entries replaced (a whole-file hunk's write: a created,
   * deleted or moved file), as one new change, itself undoable — only while every file
   * still holds what its entry left there. Newest first; if one cannot be written, those
   * written before it are taken back. `still` as for revertLines.
   */
  revertEntries(ids: readonly string[], still: RevertGuard): Promise<ApplyResult> {
    return this.serialize(() =>
      this.guard(async () => {
        const gone = this.goneSince(still);
        if (gone !== null) return gone;
        const entries = ids.map((id) => this.journal.find(id));
        if (entries.some((entry) => entry === null || entry.undone)) return { status: 'conflict', message: 'Flint no longer has the change this hunk wrote in its undo history, so it was not reverted. Use Undo and Redo instead.' };
        for (const entry of entries as JournalEntry[]) {
          const target = await this.files.resolve(entry.path, 'model');
          await this.writer.settle(this.realRelative(target));
          const current = await this.files.readBytes(target);
          const same = current === null ? entry.after === null : entry.after !== null && sameBytes(current.bytes, entry.after);
          if (!same) return { status: 'conflict', message: `${entry.path} changed since this hunk was written, so it was not reverted and nothing was written. Use Undo to step back through Flint's changes instead.` };
        }
        const written: JournalEntry[] = [];
        try {
          for (const entry of [...(entries as JournalEntry[])].reverse()) {
            written.push(await this.commit(await this.files.resolve(entry.path, 'model'), entry.after, entry.before, entry.mode, written[0]?.group));
          }
        } catch (error) {
          // All or nothing: what was written of it is taken back (only if still Flint's) and forgotten.
          for (const entry of written.reverse()) if ((await this.restore(entry, 'undo')).status === 'done') await this.journal.drop(entry);
          throw error;
        }
        return { status: 'applied', entry: written[0]!, tolerances: [], merged: false, entries: written };
      }),
    );
  }

  /** Why a revert may no longer be made now that its turn in the queue came (see RevertGuard), or null. */
  private goneSince(still: RevertGuard): ApplyResult | null {
    const undone = still.entryIds.some((id) => this.journal.find(id)?.undone !== false);
    const message = still.refusal() ?? (undone ? 'This hunk’s write was undone just before, so there is nothing of it to revert; nothing was written.' : null);
    return message === null ? null : { status: 'conflict', message };
  }

  /** The file as journal entry `id` left it, read back from its bytes; null when the journal no longer has it live. */
  private leftBy(id: string | undefined, path: string): FileVersion | null {
    const entry = id === undefined ? null : this.journal.find(id);
    if (entry === null || entry.undone || entry.after === null) return null;
    return FileVersion.of(decodeFileText(entry.after, path));
  }

  /** Undoes the last thing Flint wrote — every file of it (an Accept all is one step) — in the same queue as every write. */
  undo(): Promise<UndoOutcome> {
    return this.serialize(() => this.restoreGroup(this.journal.nextUndoGroup(), 'undo'));
  }

  redo(): Promise<UndoOutcome> {
    return this.serialize(() => this.restoreGroup(this.journal.nextRedoGroup(), 'redo'));
  }

  /** The project is closing: lets a queued write finish, refuses new ones, and checks the files kept aside for late writers now. */
  async dispose(): Promise<void> {
    this.closed = true;
    // A write already queued (an accept in flight as the project closes) lands first, and is watched like any other.
    await this.writer.run(async () => undefined);
    await this.writer.dispose();
  }

  /**
   * Restores a group's entries one by one; the first that cannot be restored (changed
   * since, or no longer inside the project) stops the rest, and says which were.
   */
  private async restoreGroup(entries: readonly JournalEntry[], op: 'undo' | 'redo'): Promise<UndoOutcome> {
    if (entries.length === 0) return { status: 'empty' };
    const done: JournalEntry[] = [];
    for (const entry of entries) {
      const outcome = await this.restore(entry, op);
      if (outcome.status !== 'done') return { ...outcome, entry, done };
      done.push(entry);
    }
    return { status: 'done', entries: done };
  }

  /**
   * Puts an entry's bytes back — only if the file still holds what Flint left there, and
   * only through folders that are still the project's: the stored path is re-walked, so
   * a folder swapped for a link since the change was made is refused, not followed.
   */
  private async restore(entry: JournalEntry, op: 'undo' | 'redo'): Promise<RestoreOutcome> {
    const expected = op === 'undo' ? entry.after : entry.before;
    const target = op === 'undo' ? entry.before : entry.after;
    if (!isInsideRoot(this.files.root, entry.absolutePath)) {
      return { status: 'refused', message: `Refused: ${entry.path} is not inside this project; nothing was ${op}ne.` };
    }
    this.onWillWrite?.(entry.path, target);
    let outcome;
    try {
      outcome = await this.writer.replaceNow(toPosixRelative(this.files.root, entry.absolutePath), expected, target, entry.mode);
    } catch (error) {
      if (error instanceof FlintFailure && error.code === 'outside-project') return { status: 'refused', message: `${error.message} Nothing was ${op}ne.` };
      throw error;
    }
    if (outcome.status === 'changed') {
      const kept = outcome.keptAs ? ` Your version is kept as ${outcome.keptAs}.` : '';
      return { status: 'conflict', message: `${entry.path} changed since Flint ${op === 'undo' ? 'wrote' : 'restored'} it; nothing was ${op}ne.${kept}` };
    }
    await this.journal.mark(entry, op);
    return { status: 'done' };
  }

  private async writeHunks(hunks: readonly HunkToApply[], group: string | undefined): Promise<{ results: ApplyResult[]; written?: FileVersion }> {
    const target = await this.files.resolve(hunks[0]!.path, 'model');
    const read = await this.currentText(target, hunks);
    if ('status' in read) return { results: hunks.map(() => read) };
    const current = this.versionOf(target.relativePath, read.text, hunks.find((hunk) => hunk.base !== null)?.base);
    // A file that is not there is only for the hunks that may create it.
    const landing = read.before === null ? hunks.filter((hunk) => hunk.createIfMissing) : hunks;
    const { next, outcomes } = planHunks(current, landing, target.relativePath);
    const missing: ApplyResult = { status: 'conflict', message: fileConflict('update', { path: target.relativePath, exists: false })! };
    const byHunk = new Map(landing.map((hunk, index) => [hunk, outcomes[index]!]));
    const plans = hunks.map((hunk) => byHunk.get(hunk) ?? missing);
    if (!plans.some((plan) => plan.status === 'planned')) return { results: plans.map((plan) => plan as ApplyResult) };
    const after = encodeFileText(next.text);
    const unchanged = read.before !== null && sameBytes(after, read.before);
    const entry = unchanged ? null : await this.commit(target, read.before, after, read.mode, group);
    this.remember(target.relativePath, next);
    const created = read.before === null;
    const results = plans.map((plan): ApplyResult => (plan.status === 'planned' ? { status: 'applied', entry, tolerances: plan.tolerances, merged: plan.merged, appended: plan.appended && !created, created, landed: plan.landed } : plan));
    return { results, written: next };
  }

  /**
   * The version of what a file holds: the one Flint last wrote there when the file still
   * holds exactly that (its indexes, its diffs and its dominant line ending carry on, so
   * hunks accepted one by one end their added lines as one Accept all would), else one
   * sharing what `base` worked out when the lines are the same.
   */
  private versionOf(path: string, text: FileText, base: FileVersion | null | undefined): FileVersion {
    // Newest first: after an Undo the file may hold one written before the last.
    for (const written of [...(this.lastWritten.get(path) ?? [])].reverse()) if (FileVersion.of(text, written) === written) return written;
    return FileVersion.of(text, base);
  }

  /** Keeps the version just written, for the next write of the file (the last few, of a few files). */
  private remember(path: string, version: FileVersion): void {
    const versions = [...(this.lastWritten.get(path) ?? []), version].slice(-REMEMBERED_VERSIONS);
    this.lastWritten.delete(path);
    this.lastWritten.set(path, versions);
    if (this.lastWritten.size > REMEMBERED_FILES) this.lastWritten.delete(this.lastWritten.keys().next().value!);
  }

  /**
   * The file's text as it is now (read once it is quiet), with its bytes and mode; an
   * empty text when it is missing and one of the hunks may create it; else why not.
   */
  private async currentText(target: ResolvedPath, hunks: readonly HunkToApply[]): Promise<{ text: FileText; before: Uint8Array | null; mode: number } | ApplyResult> {
    if (!target.exists && hunks.some((hunk) => hunk.createIfMissing)) return { text: EMPTY_TEXT, before: null, mode: 0o644 };
    const conflict = fileConflict('update', { path: target.relativePath, exists: target.exists });
    if (conflict !== null) return { status: 'conflict', message: conflict };
    const current = await this.readQuiet(target);
    if ('status' in current) return current;
    return { text: decodeFileText(current.bytes, target.relativePath), before: current.bytes, mode: current.mode };
  }

  /**
   * Journals, then writes — only if the file still holds `before` (null: absent), as
   * captured at the moment of the swap. A write that does not happen leaves no journal
   * entry behind, and is a conflict: the user's version stays (or is kept beside).
   */
  private async commit(target: ResolvedPath, before: Uint8Array | null, after: Uint8Array | null, mode: number, group?: string): Promise<JournalEntry> {
    const entry = await this.journal.record({ path: target.relativePath, absolutePath: target.absolutePath, before, after, mode }, group);
    this.onWillWrite?.(target.relativePath, after);
    let outcome;
    try {
      outcome = await this.writer.replaceNow(this.realRelative(target), before, after, mode);
    } catch (error) {
      await this.journal.drop(entry);
      throw error;
    }
    if (outcome.status === 'changed') {
      await this.journal.drop(entry);
      throw new FileChangedError(target.relativePath, outcome.keptAs);
    }
    return entry;
  }

  /**
   * The file's bytes and mode, read once it is quiet (a save in progress is waited out);
   * a conflict instead when it is gone. Not a regular file, or too large: a refusal
   * (thrown, and turned into a result by guard).
   */
  private async readQuiet(target: ResolvedPath): Promise<{ bytes: Uint8Array; mode: number } | ApplyResult> {
    await this.writer.settle(this.realRelative(target));
    const read = await this.files.readBytes(target);
    return read ?? { status: 'conflict', message: fileConflict('update', { path: target.relativePath, exists: false })! };
  }

  /** The path as it is on disk (symlinks inside the project resolved), relative to the root. */
  private realRelative(target: ResolvedPath): string {
    return toPosixRelative(this.files.root, target.absolutePath);
  }

  private async guard<T extends ApplyResult>(operation: () => Promise<T>): Promise<T | ApplyResult> {
    try {
      return await operation();
    } catch (error) {
      const declined = declinedBy(error);
      if (declined === null) throw error;
      return declined;
    }
  }

  /**
   * One queue for every write of the project, undo and redo included (the writer's, so
   * its late-writer checks wait too): writes are human-paced, and one queue leaves no
   * room for two accepts (or an accept and an undo) to read the same bytes and
   * overwrite each other, however a path is spelled.
   */
  private serialize<T>(task: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new FlintFailure('no-project', 'The project was closed; nothing was written.'));
    return this.writer.run(task);
  }
}

/** How many files' last written versions are kept (the files of one Accept all, typically), and how many of each. */
const REMEMBERED_FILES = 16;
const REMEMBERED_VERSIONS = 4;

/** An empty text file: what a file that does not exist yet holds, for a hunk that creates it. */
const EMPTY_TEXT: FileText = { bom: false, lines: [], terminators: [], eol: '\n' };
