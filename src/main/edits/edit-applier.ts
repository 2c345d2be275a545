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
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AnchorableFile, anchorHunk, type Tolerance } from '../../shared/edits/anchor-hunk';
import type { HunkLine } from '../../shared/edits/edit-types';
import { FlintFailure } from '../../shared/result';
import { FileChangedError, writeFileAtomic } from '../fs/atomic-write';
import { decodeFileText, encodeFileText, joinLines, spliceLines, type FileText } from './file-text';
import { resolveModelPath, type ModelPath } from './model-path';
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
  /** The path is outside the project, in .git, or not an editable text file. */
  | { status: 'refused'; message: string };

export class EditApplier {
  /**
   * One queue for every write of the project, undo and redo included: writes are
   * human-paced, and one queue leaves no room for two accepts (or an accept and an
   * undo) to read the same bytes and overwrite each other, however a path is spelled.
   */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly root: string,
    private readonly journal: UndoJournal,
    /** Told just before Flint writes a file, so the watcher's echo is not taken for the user's save. */
    private readonly onWillWrite?: (relativePath: string) => void,
  ) {}

  applyHunk(hunk: HunkToApply): Promise<ApplyResult & { written?: FileText }> {
    return this.serialize(() => this.guard(() => this.writeHunk(hunk)));
  }

  /** Creates a new file (V4A Add File); refused if it already exists. */
  createFile(path: string, lines: readonly string[]): Promise<ApplyResult> {
    return this.serialize(() =>
      this.guard(async () => {
        const target = await resolveModelPath(this.root, path);
        if (target.exists) return { status: 'conflict', message: `${target.relativePath} already exists; Flint will not overwrite it.` };
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
        const target = await resolveModelPath(this.root, path);
        if (!target.exists) return { status: 'conflict', message: `${target.relativePath} does not exist (any more).` };
        const stats = await stat(target.absolutePath);
        if (!stats.isFile()) return { status: 'refused', message: `${target.relativePath} is not a regular file.` };
        const entry = await this.commit(target, await readFile(target.absolutePath), null, stats.mode & 0o7777);
        return { status: 'applied', entry, tolerances: [], merged: false };
      }),
    );
  }

  /** Moves a file (V4A Move to) without ever replacing an existing destination. */
  moveFile(from: string, to: string): Promise<ApplyResult> {
    return this.serialize(() =>
      this.guard(async () => {
        const source = await resolveModelPath(this.root, from);
        const destination = await resolveModelPath(this.root, to);
        if (!source.exists) return { status: 'conflict', message: `${source.relativePath} does not exist (any more).` };
        if (destination.exists) return { status: 'conflict', message: `${destination.relativePath} already exists; Flint will not overwrite it.` };
        const stats = await stat(source.absolutePath);
        const bytes = await readFile(source.absolutePath);
        const mode = stats.mode & 0o7777;
        // Two journal entries, created first: undo walks them back one at a time.
        const entry = await this.commit(destination, null, bytes, mode);
        try {
          await this.commit(source, bytes, null, mode);
        } catch (error) {
          await this.journal.undo();
          throw error;
        }
        return { status: 'applied', entry, tolerances: [], merged: false };
      }),
    );
  }

  /** Undoes the last change Flint wrote, in the same queue as every write. */
  undo(): Promise<UndoOutcome> {
    return this.serialize(() => this.journal.undo((entry) => this.onWillWrite?.(entry.path)));
  }

  redo(): Promise<UndoOutcome> {
    return this.serialize(() => this.journal.redo((entry) => this.onWillWrite?.(entry.path)));
  }

  private async writeHunk(hunk: HunkToApply): Promise<ApplyResult & { written?: FileText }> {
    const target = await resolveModelPath(this.root, hunk.path);
    if (!target.exists) return { status: 'conflict', message: `${target.relativePath} was deleted; the hunk has nowhere to go.` };
    const stats = await stat(target.absolutePath);
    if (!stats.isFile()) return { status: 'refused', message: `${target.relativePath} is not a regular file.` };
    const bytes = await readFile(target.absolutePath);
    const plan = planHunk(decodeFileText(bytes, target.relativePath), hunk, target.relativePath);
    if (plan.status !== 'planned') return plan;
    const after = encodeFileText(plan.next);
    if (Buffer.from(after).equals(bytes)) return { status: 'applied', entry: null, tolerances: plan.tolerances, merged: plan.merged, written: plan.next };
    const entry = await this.commit(target, bytes, after, stats.mode & 0o7777);
    return { status: 'applied', entry, tolerances: plan.tolerances, merged: plan.merged, written: plan.next };
  }

  /**
   * Journals, then writes — only if the file still holds `before` (null: absent). A write
   * that does not happen leaves no journal entry behind.
   */
  private async commit(target: ModelPath, before: Uint8Array | null, after: Uint8Array | null, mode: number): Promise<JournalEntry> {
    const entry = await this.journal.record({ path: target.relativePath, absolutePath: target.absolutePath, before, after, mode });
    this.onWillWrite?.(target.relativePath);
    try {
      if (after === null) {
        const current = await readFile(target.absolutePath);
        if (before === null || !Buffer.from(current).equals(Buffer.from(before))) throw new FileChangedError(target.relativePath);
        await rm(target.absolutePath);
      } else {
        await mkdir(dirname(target.absolutePath), { recursive: true });
        await writeFileAtomic(target.absolutePath, after, { mode, unchangedFrom: before });
      }
    } catch (error) {
      await this.journal.drop(entry);
      throw error;
    }
    return entry;
  }

  private async guard<T extends ApplyResult>(operation: () => Promise<T>): Promise<T | ApplyResult> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof FileChangedError) {
        return { status: 'conflict', message: `${error.path.split('/').pop()} changed while Flint was writing it; your version was kept.` };
      }
      if (error instanceof FlintFailure && (error.code === 'outside-project' || error.code === 'not-a-file')) {
        return { status: 'refused', message: error.message };
      }
      throw error;
    }
  }

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
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
