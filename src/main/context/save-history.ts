/**
 * Remembers the version of each file Flint last saw, so that when the user saves in
 * their editor Flint knows which lines they just changed.
 *
 * A version is remembered when Flint shows or selects a file, when Flint writes one,
 * after each save, and, at project open, for the files modified most recently (the
 * ones a user is likely to save next). Memory is bounded: least recently used
 * versions go first.
 *
 * Only a settled file is a version: one that held still for a quiet period (see
 * read-settled.ts). A file read while its writer pauses between pieces would become
 * "the saved version", and the next change would be the tail being added.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { TreeEntry } from '../../shared/project-types';
import { FlintFailure } from '../../shared/result';
import { TEXT_READ_LIMIT, type ProjectFiles } from '../fs/project-files';
import { fileStamp, readSettled, realClock, sameStamp, type FileStamp, type SettleClock } from '../fs/read-settled';
import type { Disposable } from '../lifecycle';
import { languageOf } from './languages';
import { describeChange, type RecentChange } from './recent-change';

export interface SaveHistoryOptions {
  /** The project's files: every version is read through them, as text for the model. */
  files: ProjectFiles;
  /** Total characters kept across all remembered versions. */
  maxChars?: number;
  /** Files larger than this are not remembered (their saves have no "recent change"). */
  maxFileBytes?: number;
  /** How long after a save's last event it is looked at (an editor writing in place sends several events). */
  settleMs?: number;
  /** How long a file must hold still before it is read: longer than an editor's pause between pieces. */
  quietMs?: number;
  /** How long a file still being written is waited for; then it is "still being written". */
  writeTimeoutMs?: number;
  /** Test seam: the time the quiet period is measured in. */
  clock?: SettleClock;
}

/**
 * The current text of a file for the model. `lines` null: the file does not exist.
 * `still-writing`: it kept changing until the wait ran out; nothing half-written is returned.
 */
export type SettledLines = { kind: 'settled'; lines: readonly string[] | null } | { kind: 'still-writing'; message: string };

interface Saved {
  change: RecentChange;
  after: readonly string[];
}

/** How many recently modified files are read at project open, and up to what size. */
const PRIMED_FILES = 24;
const PRIMED_FILE_BYTES = 1024 * 1024;
const DEFAULT_MAX_FILE_BYTES = 12 * 1024 * 1024;
const DEFAULT_MAX_CHARS = 48 * 1024 * 1024;
/** Reads at once: a checkout that touches 2,000 files must not open 2,000 at a time. */
const READ_CONCURRENCY = 2;
/** How many files are looked at (stat) to find them. */
const PRIME_STAT_LIMIT = 10_000;
const DEFAULT_QUIET_MS = 150;
const DEFAULT_WRITE_TIMEOUT_MS = 5_000;
/** Files whose last settled state and last save event are kept (to know when not to wait). */
const TRACKED_FILES = 512;

type TextRead = { ok: true; lines: readonly string[] | null } | { ok: false; error: unknown };

/** The versions of one project's files, and what the user's last save of each changed. */
export class SaveHistory implements Disposable {
  /** Insertion order is recency: re-set on use. */
  private readonly versions = new Map<string, { lines: readonly string[]; chars: number; stamp: FileStamp | null }>();
  /** The last settled state seen of each file, least recently seen first. */
  private readonly settledStamps = new Map<string, FileStamp>();
  /** When the watcher last reported each file saved (clock time), least recent first. */
  private readonly lastEvents = new Map<string, number>();
  private chars = 0;
  private readonly saves = new Map<string, Saved>();
  private readonly reading = new Map<string, Promise<void>>();
  /** Reads after a save that have not started yet, by path. */
  private readonly queuedSaves = new Map<string, Promise<void>>();
  /** Saves waiting to settle, by path. */
  private readonly settling = new Map<string, { timer: NodeJS.Timeout; done: Promise<void>; fire: () => void }>();
  /** The path saved last: read even without an earlier version (it is the current file). */
  private lastSaved: string | null = null;
  private activeReads = 0;
  private readonly readQueue: Array<() => void> = [];
  private disposed = false;

  constructor(private readonly options: SaveHistoryOptions) {}

  /** The file was shown or selected in Flint: the version on disk is what the next save is compared with. */
  noteShown(path: string): Promise<void> {
    return this.read(path, 'baseline', (lines, stamp) => this.remember(path, lines, stamp));
  }

  /**
   * The user saved `path` in another program: once the file is quiet, read it and
   * record what changed. (Reading at the first event could catch an editor's write
   * half done, and make the whole file look changed.)
   */
  noteSaved(path: string): Promise<void> {
    this.lastSaved = path;
    this.lastEvents.delete(path);
    this.lastEvents.set(path, this.clock.now());
    if (this.lastEvents.size > TRACKED_FILES) this.lastEvents.delete(this.lastEvents.keys().next().value!);
    const pending = this.settling.get(path);
    if (pending) {
      pending.timer.refresh();
      return pending.done;
    }
    let fire!: () => void;
    const done = new Promise<void>((resolve) => {
      fire = () => {
        this.settling.delete(path);
        // A burst of saves (a checkout, a formatter) reads only files with an earlier
        // version to compare with, and the one saved last.
        resolve(this.versions.has(path) || path === this.lastSaved ? this.readSaved(path) : undefined);
      };
    });
    this.settling.set(path, { timer: setTimeout(() => fire(), this.options.settleMs ?? 40), done, fire });
    return done;
  }

  /** Flint wrote `path`: the new text is the baseline, and the change was not the user's. */
  noteOwnWrite(path: string): Promise<void> {
    return this.read(path, 'baseline', (lines, stamp) => {
      this.saves.delete(path);
      this.remember(path, lines, stamp);
    });
  }

  /**
   * What the user's last save of `path` changed, if `lines` (the file now) is still
   * what that save wrote. Waits for that save to settle and be read.
   */
  async recentChange(path: string, lines: readonly string[]): Promise<RecentChange | null> {
    if (!(await within(this.pendingRead(path), this.writeTimeoutMs))) return null;
    const saved = this.saves.get(path);
    if (!saved || !sameLines(saved.after, lines)) return null;
    return saved.change;
  }

  /**
   * The lines of `path` as its writer left them, for the model: a save still being
   * written is waited for (bounded by the write timeout), never returned half done.
   *
   * The hotkey path: a file already seen settled in the same state costs one stat (and
   * no read when its version is remembered); only a fresh save waits the quiet period.
   * Refusals (binary, too large, outside the project) are FlintFailures.
   */
  async settledLines(path: string): Promise<SettledLines> {
    const timeoutMs = this.writeTimeoutMs;
    const started = this.clock.now();
    // An editor that keeps writing keeps the save from settling: bounded here.
    if (!(await within(this.pendingRead(path), timeoutMs))) return this.stillWriting(path);
    const stamp = await fileStamp(this.absolute(path));
    const version = this.versions.get(path);
    if (version && stamp && sameStamp(version.stamp, stamp)) return { kind: 'settled', lines: version.lines };
    const read = await readSettled(this.absolute(path), () => readText(this.options.files, path, TEXT_READ_LIMIT), {
      ...this.settleOptions(path, 'fresh'),
      timeoutMs: Math.max(0, timeoutMs - (this.clock.now() - started)),
    });
    if (read.kind === 'still-writing') return this.stillWriting(path);
    this.noteSettled(path, read.stamp);
    if (!read.value.ok) throw read.value.error;
    return { kind: 'settled', lines: read.value.lines };
  }

  /**
   * Checks that `lines`, read by someone else to send to the model, are what `path`
   * holds once settled: throws a FlintFailure when they were read mid-write.
   */
  async checkSettled(path: string, lines: readonly string[]): Promise<void> {
    const settled = await this.settledLines(path);
    if (settled.kind === 'still-writing') throw new FlintFailure('io-error', settled.message);
    if (settled.lines === null || !sameLines(settled.lines, lines)) {
      throw new FlintFailure('io-error', `${path} changed while Flint was reading it (another program was still writing it). Ask again.`);
    }
  }

  /** Reads the most recently modified files of a freshly indexed project, in the background. */
  async prime(entries: readonly TreeEntry[]): Promise<void> {
    const candidates = entries.filter((entry) => entry.kind === 'file' && !entry.ignored && languageOf(entry.path) !== null).slice(0, PRIME_STAT_LIMIT);
    const dated: Array<{ path: string; mtime: number }> = [];
    for (let index = 0; index < candidates.length && !this.disposed; index += 32) {
      const batch = candidates.slice(index, index + 32);
      const stats = await Promise.all(batch.map((entry) => stat(join(this.options.files.root, entry.path)).catch(() => null)));
      stats.forEach((stats, offset) => {
        if (stats && stats.size <= PRIMED_FILE_BYTES) dated.push({ path: batch[offset]!.path, mtime: stats.mtimeMs });
      });
    }
    dated.sort((a, b) => b.mtime - a.mtime);
    // All at once, most recent first: the read slots keep it to a few files at a time, and
    // a file waiting to settle does not hold up the next (a save right after open needs its baseline).
    await Promise.all(
      dated.slice(0, PRIMED_FILES).map(({ path }) =>
        // A save may have landed meanwhile; its version is newer than ours.
        this.versions.has(path) ? undefined : this.read(path, 'baseline', (lines, stamp) => !this.versions.has(path) && this.remember(path, lines, stamp)),
      ),
    );
  }

  dispose(): void {
    this.disposed = true;
    for (const { timer, fire } of this.settling.values()) {
      clearTimeout(timer);
      fire();
    }
    this.versions.clear();
    this.saves.clear();
    for (const start of this.readQueue.splice(0)) start();
  }

  /** At most one read per path waits behind the one in flight: a file written for long sends event after event. */
  private readSaved(path: string): Promise<void> {
    const queued = this.queuedSaves.get(path);
    if (queued) return queued;
    const next = this.read(path, 'fresh', (lines, stamp) => {
      const before = this.versions.get(path)?.lines;
      const change = before ? describeChange(before, lines) : null;
      this.remember(path, lines, stamp);
      if (change) this.saves.set(path, { change: detached(change), after: lines });
      // A save that changed nothing (touch, format-on-save no-op) keeps the last change.
      else if (before === undefined) this.saves.delete(path);
    }, () => this.queuedSaves.delete(path));
    this.queuedSaves.set(path, next);
    return next;
  }

  /** Makes `lines` the version of `path`, evicting the least recently used beyond the limit. */
  private remember(path: string, lines: readonly string[], stamp: FileStamp | null): void {
    if (this.disposed) return;
    const chars = lines.reduce((sum, line) => sum + line.length + 1, 0);
    const previous = this.versions.get(path);
    if (previous) {
      this.versions.delete(path);
      this.chars -= previous.chars;
    }
    if (chars > this.maxFileBytes) {
      this.saves.delete(path);
      return;
    }
    this.versions.set(path, { lines, chars, stamp });
    this.chars += chars;
    const max = this.options.maxChars ?? DEFAULT_MAX_CHARS;
    for (const [oldest, version] of this.versions) {
      if (this.chars <= max || oldest === path) break;
      this.versions.delete(oldest);
      this.saves.delete(oldest);
      this.chars -= version.chars;
    }
  }

  private get maxFileBytes(): number {
    return this.options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  }

  private get writeTimeoutMs(): number {
    return this.options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS;
  }

  private get clock(): SettleClock {
    return this.options.clock ?? realClock;
  }

  private absolute(path: string): string {
    return join(this.options.files.root, path);
  }

  /** A save of `path` waiting to settle or being read. */
  private async pendingRead(path: string): Promise<void> {
    await this.settling.get(path)?.done;
    await this.reading.get(path);
  }

  /**
   * How long `path` in a given state is known to have been quiet. A state already seen
   * settled: for ever. Otherwise after a save event, or for what is sent to the model
   * (`fresh`): not at all, so the whole quiet period is waited. For a baseline (shown,
   * primed, Flint's own write): since the watcher last reported a save of it.
   */
  private settleOptions(path: string, freshness: 'fresh' | 'baseline') {
    const knownQuietMs = (stamp: FileStamp | null): number => {
      if (stamp && sameStamp(this.settledStamps.get(path), stamp)) return Number.POSITIVE_INFINITY;
      return freshness === 'fresh' ? 0 : this.clock.now() - (this.lastEvents.get(path) ?? Number.NEGATIVE_INFINITY);
    };
    return {
      quietMs: this.options.quietMs ?? DEFAULT_QUIET_MS,
      timeoutMs: this.writeTimeoutMs,
      knownQuietMs,
      clock: this.clock,
      isCancelled: () => this.disposed,
    };
  }

  private noteSettled(path: string, stamp: FileStamp | null): void {
    if (this.disposed || !stamp) return;
    this.settledStamps.delete(path);
    this.settledStamps.set(path, stamp);
    if (this.settledStamps.size > TRACKED_FILES) this.settledStamps.delete(this.settledStamps.keys().next().value!);
  }

  private stillWriting(path: string): SettledLines {
    const seconds = Math.round(this.writeTimeoutMs / 1000);
    return { kind: 'still-writing', message: `${path} is still being written (it kept changing for ${seconds} s). Ask again once it is saved.` };
  }

  /** Reads `path` after any read of it in flight (versions are recorded in save order). */
  private read(path: string, freshness: 'fresh' | 'baseline', use: (lines: readonly string[], stamp: FileStamp | null) => void, onStart?: () => void): Promise<void> {
    const previous = this.reading.get(path) ?? Promise.resolve();
    const next = previous.then(() => {
      onStart?.();
      return this.readVersion(path, freshness, use);
    });
    this.reading.set(path, next);
    void next.finally(() => this.reading.get(path) === next && this.reading.delete(path));
    return next;
  }

  /** Reads the settled file; a file still being written when the wait runs out is not a version. */
  private async readVersion(path: string, freshness: 'fresh' | 'baseline', use: (lines: readonly string[], stamp: FileStamp | null) => void): Promise<void> {
    if (this.disposed) return;
    // Waiting for the file to hold still takes no read slot: a file written for seconds must not hold up the others.
    const read = await readSettled(this.absolute(path), () => this.withReadSlot(() => readText(this.options.files, path, this.maxFileBytes)), this.settleOptions(path, freshness));
    if (read.kind === 'still-writing' || this.disposed) return;
    this.noteSettled(path, read.stamp);
    // Binary, too large, outside the project, gone: no version to remember.
    if (read.value.ok && read.value.lines) use(read.value.lines, read.stamp);
  }

  /** Runs a read when fewer than READ_CONCURRENCY are running. */
  private async withReadSlot(task: () => Promise<TextRead>): Promise<TextRead> {
    if (this.activeReads >= READ_CONCURRENCY && !this.disposed) await new Promise<void>((resolve) => this.readQueue.push(resolve));
    if (this.disposed) {
      this.readQueue.shift()?.();
      return { ok: false, error: new Error('The project was closed.') };
    }
    this.activeReads += 1;
    try {
      return await task();
    } finally {
      this.activeReads -= 1;
      this.readQueue.shift()?.();
    }
  }
}

/** The file's lines, with any failure as a value: a half-written file may well be unreadable. */
async function readText(files: ProjectFiles, path: string, limit: number): Promise<TextRead> {
  try {
    return { ok: true, lines: (await files.readText(path, limit))?.lines ?? null };
  } catch (error) {
    return { ok: false, error };
  }
}

/** Whether `promise` settles within `ms` (real time). */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * The change with its removed lines copied: a line cut from the old text keeps all of
 * that text alive in V8, and the old version is otherwise free to go.
 */
function detached(change: RecentChange): RecentChange {
  return {
    ...change,
    places: change.places.map((place) => ({ ...place, removed: JSON.parse(JSON.stringify(place.removed)) as string[] })),
  };
}
