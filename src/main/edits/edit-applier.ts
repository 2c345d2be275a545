/**
 * Writes accepted edits to disk: atomically, byte-preserving, journaled, and never over
 * the user's own changes.
 *
 * A hunk carries the file's text from when it was proposed. If the file still holds
 * that text, the hunk is anchored and applied. If the user changed it meanwhile, the
 * hunk is re-anchored by a 3-way merge (base → user's text, base → hunk applied); a
 * hunk that no longer merges cleanly is a conflict and nothing is written.
 */
import { diff3Merge } from 'node-diff3';
import { AnchorableFile, anchorHunk, type Tolerance } from '../../shared/edits/anchor-hunk';
import type { HunkLine } from '../../shared/edits/edit-types';
import { FlintFailure } from '../../shared/result';
import { ProjectFileWriter, type ProjectFileWriterOptions } from '../fs/project-file-writer';
import { isInsideRoot, toPosixRelative } from '../fs/root-paths';
import { decodeFileText, encodeFileText, joinLines, spliceLines, type FileText } from '../fs/file-text';
import type { ProjectFiles, ResolvedPath } from '../fs/project-files';
import { fileConflict } from './file-conflicts';
import type { JournalEntry, UndoJournal, UndoOutcome } from './undo-journal';

export interface HunkToApply {
  path: string;
  lines: readonly HunkLine[];
  contextHints?: readonly string[];
  atEndOfFile?: boolean;
  /** The file's text (lines joined with \n) when the hunk was proposed; null if unknown. */
  baseText: string | null;
}

export type ApplyResult =
  /** Written (or already so); `merged` when the user's edits were merged around it. */
  | { status: 'applied'; entry: JournalEntry | null; tolerances: Tolerance[]; merged: boolean }
  /** The hunk's text is not (or not uniquely) in the file. */
  | { status: 'unmatched'; message: string }
  /** The user changed the same lines; nothing was written. */
  | { status: 'conflict'; message: string }
  /** The path is outside the project, in .git, or not an editable text file (binary, not UTF-8, too large). */
  | { status: 'refused'; message: string };

/** The file was saved by someone else while Flint wrote it; theirs was kept. */
class FileChangedError extends Error {
  constructor(path: string, keptAs?: string) {
    super(`${path} changed while Flint was writing it; your version was kept${keptAs ? ` (the one it replaced is saved as ${keptAs})` : ''} and the hunk was not applied.`);
    this.name = 'FileChangedError';
  }
}

export class EditApplier {
  /** Every write goes through it: compare and replace without a window, inside the project only. */
  private readonly writer: ProjectFileWriter;
  /** The project is closing: no new write starts (one already queued still finishes). */
  private closed = false;

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

  applyHunk(hunk: HunkToApply): Promise<ApplyResult & { written?: FileText }> {
    return this.serialize(() => this.guard(() => this.writeHunk(hunk)));
  }

  /** Creates a new file (V4A Add File); refused if it already exists. */
  createFile(path: string, lines: readonly string[]): Promise<ApplyResult> {
    return this.serialize(() =>
      this.guard(async () => {
        const target = await this.files.resolve(path, 'model');
        const conflict = fileConflict('add', { path: target.relativePath, exists: target.exists });
        if (conflict !== null) return { status: 'conflict', message: conflict };
        const bytes = new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));
        const entry = await this.commit(target, null, bytes, 0o644);
        return { status: 'applied', entry, tolerances: [], merged: false };
      }),
    );
  }

  /** Deletes a file (V4A Delete File); the journal keeps its bytes for undo. */
  deleteFile(path: string): Promise<ApplyResult> {
    return this.serialize(() =>
      this.guard(async () => {
        const target = await this.files.resolve(path, 'model');
        const conflict = fileConflict('delete', { path: target.relativePath, exists: target.exists });
        if (conflict !== null) return { status: 'conflict', message: conflict };
        const current = await this.readQuiet(target);
        if ('status' in current) return current;
        const entry = await this.commit(target, current.bytes, null, current.mode);
        return { status: 'applied', entry, tolerances: [], merged: false };
      }),
    );
  }

  /** Moves a file (V4A Move to) without ever replacing an existing destination. */
  moveFile(from: string, to: string): Promise<ApplyResult> {
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
        const entry = await this.commit(destination, null, bytes, mode);
        try {
          await this.commit(source, bytes, null, mode);
        } catch (error) {
          // The source could not go: take the copy back (only if it is still Flint's), and
          // forget it, so no redo creates the copy again.
          if ((await this.restore(entry, 'undo')).status === 'done') await this.journal.drop(entry);
          throw error;
        }
        return { status: 'applied', entry, tolerances: [], merged: false };
      }),
    );
  }

  /** Undoes the last change Flint wrote, in the same queue as every write. */
  undo(): Promise<UndoOutcome> {
    return this.serialize(async () => {
      const entry = this.journal.nextUndo();
      return entry ? this.restore(entry, 'undo') : { status: 'empty' };
    });
  }

  redo(): Promise<UndoOutcome> {
    return this.serialize(async () => {
      const entry = this.journal.nextRedo();
      return entry ? this.restore(entry, 'redo') : { status: 'empty' };
    });
  }

  /** The project is closing: lets a queued write finish, refuses new ones, and checks the files kept aside for late writers now. */
  async dispose(): Promise<void> {
    this.closed = true;
    // A write already queued (an accept in flight as the project closes) lands first, and is watched like any other.
    await this.writer.run(async () => undefined);
    await this.writer.dispose();
  }

  /**
   * Puts an entry's bytes back — only if the file still holds what Flint left there, and
   * only through folders that are still the project's: the stored path is re-walked, so
   * a folder swapped for a link since the change was made is refused, not followed.
   */
  private async restore(entry: JournalEntry, op: 'undo' | 'redo'): Promise<UndoOutcome> {
    const expected = op === 'undo' ? entry.after : entry.before;
    const target = op === 'undo' ? entry.before : entry.after;
    if (!isInsideRoot(this.files.root, entry.absolutePath)) {
      return { status: 'refused', entry, message: `Refused: ${entry.path} is not inside this project; nothing was ${op}ne.` };
    }
    this.onWillWrite?.(entry.path, target);
    let outcome;
    try {
      outcome = await this.writer.replaceNow(toPosixRelative(this.files.root, entry.absolutePath), expected, target, entry.mode);
    } catch (error) {
      if (error instanceof FlintFailure && error.code === 'outside-project') return { status: 'refused', entry, message: `${error.message} Nothing was ${op}ne.` };
      throw error;
    }
    if (outcome.status === 'changed') {
      const kept = outcome.keptAs ? ` Your version is kept as ${outcome.keptAs}.` : '';
      return { status: 'conflict', entry, message: `${entry.path} changed since Flint ${op === 'undo' ? 'wrote' : 'restored'} it; nothing was ${op}ne.${kept}` };
    }
    await this.journal.mark(entry, op);
    return { status: 'done', entry };
  }

  private async writeHunk(hunk: HunkToApply): Promise<ApplyResult & { written?: FileText }> {
    const target = await this.files.resolve(hunk.path, 'model');
    const conflict = fileConflict('update', { path: target.relativePath, exists: target.exists });
    if (conflict !== null) return { status: 'conflict', message: conflict };
    const current = await this.readQuiet(target);
    if ('status' in current) return current;
    const { bytes, mode } = current;
    const plan = planHunk(decodeFileText(bytes, target.relativePath), hunk, target.relativePath);
    if (plan.status !== 'planned') return plan;
    const after = encodeFileText(plan.next);
    if (Buffer.from(after).equals(bytes)) return { status: 'applied', entry: null, tolerances: plan.tolerances, merged: plan.merged, written: plan.next };
    const entry = await this.commit(target, bytes, after, mode);
    return { status: 'applied', entry, tolerances: plan.tolerances, merged: plan.merged, written: plan.next };
  }

  /**
   * Journals, then writes — only if the file still holds `before` (null: absent), as
   * captured at the moment of the swap. A write that does not happen leaves no journal
   * entry behind, and is a conflict: the user's version stays (or is kept beside).
   */
  private async commit(target: ResolvedPath, before: Uint8Array | null, after: Uint8Array | null, mode: number): Promise<JournalEntry> {
    const entry = await this.journal.record({ path: target.relativePath, absolutePath: target.absolutePath, before, after, mode });
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
      if (error instanceof FileChangedError) return { status: 'conflict', message: error.message };
      if (error instanceof FlintFailure && (error.code === 'outside-project' || error.code === 'not-a-file' || error.code === 'too-large')) {
        return { status: 'refused', message: error.message };
      }
      throw error;
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

export type HunkPlan =
  /** What the file becomes. */
  | { status: 'planned'; next: FileText; tolerances: Tolerance[]; merged: boolean; anchorLine: number }
  | Extract<ApplyResult, { status: 'unmatched' | 'conflict' }>;

/**
 * Plans a hunk against the file's current text without writing: anchored directly if
 * the file still holds the hunk's base text, else merged 3-way around the user's edits.
 */
export function planHunk(current: FileText, hunk: HunkToApply, path: string): HunkPlan {
  if (hunk.baseText === null || hunk.baseText === joinLines(current)) {
    const anchored = anchorHunk(new AnchorableFile(current.lines), hunk);
    if (anchored.status !== 'anchored') return unmatched(path, anchored.reason);
    return { status: 'planned', next: spliceLines(current, anchored.start, anchored.end, anchored.replacement), tolerances: anchored.tolerances, merged: false, anchorLine: anchored.start + 1 };
  }
  const base = hunk.baseText.split('\n');
  const anchored = anchorHunk(new AnchorableFile(base), hunk);
  if (anchored.status !== 'anchored') return unmatched(path, anchored.reason);
  const theirs = [...base.slice(0, anchored.start), ...anchored.replacement, ...base.slice(anchored.end)];
  const regions = diff3Merge<string>(current.lines, base, theirs, { excludeFalseConflicts: true });
  if (regions.some((region) => region.conflict)) {
    return { status: 'conflict', message: `${path} changed where this hunk applies; your text was kept and the hunk was not applied.` };
  }
  const lines = regions.flatMap((region) => region.ok ?? []);
  const terminators: string[] = lines.map(() => current.eol);
  if (current.terminators.at(-1) === '' && lines.length > 0) terminators[lines.length - 1] = '';
  return { status: 'planned', next: { ...current, lines, terminators }, tolerances: anchored.tolerances, merged: true, anchorLine: anchored.start + 1 };
}

function unmatched(path: string, reason: 'not-found' | 'ambiguous' | 'empty'): Extract<ApplyResult, { status: 'unmatched' }> {
  const why = reason === 'ambiguous' ? 'appears more than once' : reason === 'empty' ? 'has no lines to locate it by' : 'is not in the file';
  return { status: 'unmatched', message: `The hunk's text ${why} in ${path}; it was not applied.` };
}
