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
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AnchorableFile, anchorHunk, type Tolerance } from '../../shared/edits/anchor-hunk';
import type { HunkLine } from '../../shared/edits/edit-types';
import { FlintFailure } from '../../shared/result';
import { writeFileAtomic } from '../fs/atomic-write';
import { decodeFileText, encodeFileText, joinLines, spliceLines, type FileText } from './file-text';
import { resolveModelPath } from './model-path';
import type { JournalEntry, UndoJournal } from './undo-journal';

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
  /** Per-file queues: two accepts on one file never interleave. */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly root: string,
    private readonly journal: UndoJournal,
    /** Told just before Flint writes a file, so the watcher's echo is not taken for the user's save. */
    private readonly onWillWrite?: (relativePath: string) => void,
  ) {}

  applyHunk(hunk: HunkToApply): Promise<ApplyResult> {
    return this.serialize(hunk.path, () => this.guard(() => this.writeHunk(hunk)));
  }

  /** Creates a new file (V4A Add File); refused if it already exists. */
  createFile(path: string, lines: readonly string[]): Promise<ApplyResult> {
    return this.serialize(path, () =>
      this.guard(async () => {
        const target = await resolveModelPath(this.root, path);
        if (target.exists) return { status: 'conflict', message: `${target.relativePath} already exists; Flint will not overwrite it.` };
        const bytes = new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));
        const entry = await this.journal.record({ path: target.relativePath, absolutePath: target.absolutePath, before: null, after: bytes, mode: 0o644 });
        await mkdir(dirname(target.absolutePath), { recursive: true });
        await writeFileAtomic(target.absolutePath, bytes, { mode: 0o644 });
        return { status: 'applied', entry, tolerances: [], merged: false };
      }),
    );
  }

  /** Deletes a file (V4A Delete File); the journal keeps its bytes for undo. */
  deleteFile(path: string): Promise<ApplyResult> {
    return this.serialize(path, () =>
      this.guard(async () => {
        const target = await resolveModelPath(this.root, path);
        if (!target.exists) return { status: 'conflict', message: `${target.relativePath} does not exist (any more).` };
        const stats = await stat(target.absolutePath);
        if (!stats.isFile()) return { status: 'refused', message: `${target.relativePath} is not a regular file.` };
        const bytes = await readFile(target.absolutePath);
        const entry = await this.journal.record({ path: target.relativePath, absolutePath: target.absolutePath, before: bytes, after: null, mode: stats.mode & 0o7777 });
        await rm(target.absolutePath);
        return { status: 'applied', entry, tolerances: [], merged: false };
      }),
    );
  }

  /** Moves a file (V4A Move to); refused if the destination exists. */
  moveFile(from: string, to: string): Promise<ApplyResult> {
    return this.serialize(from, () =>
      this.guard(async () => {
        const source = await resolveModelPath(this.root, from);
        const destination = await resolveModelPath(this.root, to);
        if (!source.exists) return { status: 'conflict', message: `${source.relativePath} does not exist (any more).` };
        if (destination.exists) return { status: 'conflict', message: `${destination.relativePath} already exists; Flint will not overwrite it.` };
        const stats = await stat(source.absolutePath);
        const bytes = await readFile(source.absolutePath);
        await this.journal.record({ path: source.relativePath, absolutePath: source.absolutePath, before: bytes, after: null, mode: stats.mode & 0o7777 });
        const entry = await this.journal.record({ path: destination.relativePath, absolutePath: destination.absolutePath, before: null, after: bytes, mode: stats.mode & 0o7777 });
        await mkdir(dirname(destination.absolutePath), { recursive: true });
        await rename(source.absolutePath, destination.absolutePath);
        return { status: 'applied', entry, tolerances: [], merged: false };
      }),
    );
  }

  private async writeHunk(hunk: HunkToApply): Promise<ApplyResult> {
    const target = await resolveModelPath(this.root, hunk.path);
    if (!target.exists) return { status: 'conflict', message: `${target.relativePath} was deleted; the hunk has nowhere to go.` };
    const stats = await stat(target.absolutePath);
    if (!stats.isFile()) return { status: 'refused', message: `${target.relativePath} is not a regular file.` };
    const bytes = await readFile(target.absolutePath);
    const plan = planHunk(decodeFileText(bytes, target.relativePath), hunk, target.relativePath);
    if (plan.status !== 'planned') return plan;
    const after = encodeFileText(plan.next);
    if (Buffer.from(after).equals(bytes)) return { status: 'applied', entry: null, tolerances: plan.tolerances, merged: plan.merged };
    // Journal first: a crash between the two leaves an undo that safely reports a conflict.
    const entry = await this.journal.record({ path: target.relativePath, absolutePath: target.absolutePath, before: bytes, after, mode: stats.mode & 0o7777 });
    this.onWillWrite?.(target.relativePath);
    await writeFileAtomic(target.absolutePath, after, { mode: stats.mode & 0o7777 });
    return { status: 'applied', entry, tolerances: plan.tolerances, merged: plan.merged };
  }

  private async guard(operation: () => Promise<ApplyResult>): Promise<ApplyResult> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof FlintFailure && (error.code === 'outside-project' || error.code === 'not-a-file')) {
        return { status: 'refused', message: error.message };
      }
      throw error;
    }
  }

  private serialize<T>(path: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(path) ?? Promise.resolve();
    const run = previous.then(task, task);
    this.queues.set(path, run.catch(() => undefined));
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
