/**
 * Replaces a project file only if it still holds the bytes Flint planned on — without a
 * window in which another program's save is silently overwritten.
 *
 * POSIX has no conditional rename, so "compare, then rename" always leaves a gap: an
 * editor's atomic save landing in it is replaced, and an in-place writer that opened the
 * file earlier keeps writing into the replaced inode. Here the file is *captured* first:
 * renamed aside (atomic: exactly the inode that was there at that instant), compared,
 * and only then is Flint's version linked in with link(2), which fails if anything took
 * the name meanwhile. The captured inode is checked again after the swap; a writer that
 * wrote into it since gets its bytes put back (or kept beside) and the write reported as
 * changed. A captured file that is not Flint's own stays aside for a grace period,
 * watched, so even a writer that pauses mid-save does not lose its tail.
 *
 * The cost: for the instant between capture and link the name is absent (as in vim's
 * default save). Every step goes through a `ProjectFolder` handle, so no swapped symlink
 * sends a byte outside the project.
 */
import { link, lstat, unlink } from 'node:fs/promises';
import { FlintFailure } from '../../shared/result';
import { errorCode } from '../project/fs-errors';
import { captureFile, putBack, restoreOverOurs, stampOf, writeTemporary, type CapturedFile, type FileStamp } from './captured-file';
import { LateWriterWatch, type LateWriterReport } from './late-writer-watch';
import { ProjectFolder } from './project-folder';

export interface ProjectFileWriterOptions {
  /** A file changed less than this long ago is being saved: Flint waits (ms). */
  quietMs?: number;
  /** The longest wait for quiet before going ahead anyway; the capture still guards (ms). */
  maxQuietWaitMs?: number;
  /** How long a replaced file of the user's is kept aside and watched for a late writer (ms). */
  graceMs?: number;
  /** A late writer's bytes were found after Flint reported success: put back, or kept beside. */
  onLateWriter?: (report: LateWriterReport) => void;
  /** For tests: awaited at each point where another program's save can land, to place one exactly there. */
  atStep?: (step: WriteStep) => Promise<void>;
}

/** The points of a swap: before the capture, name aside (absent), Flint's file linked in, checked. */
export type WriteStep = 'before-capture' | 'captured' | 'linked' | 'verified';

export type ReplaceOutcome =
  /** The file holds Flint's bytes (or is gone, for a delete). */
  | { status: 'written' }
  /** The file did not hold the expected bytes, or was saved meanwhile: the user's version is on disk, or at `keptAs`. */
  | { status: 'changed'; keptAs?: string };

export class ProjectFileWriter {
  /** Real relative path → the stamp of the file Flint last put there. */
  private readonly ownStamps = new Map<string, FileStamp>();
  private readonly quietMs: number;
  private readonly maxQuietWaitMs: number;
  private readonly lateWriters: LateWriterWatch;
  private readonly atStep: (step: WriteStep) => Promise<void>;
  /** One write at a time, late-writer checks included: they rename the same names. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    /** The project's real root. */
    private readonly root: string,
    options: ProjectFileWriterOptions = {},
  ) {
    this.quietMs = options.quietMs ?? 150;
    this.maxQuietWaitMs = options.maxQuietWaitMs ?? 3000;
    this.atStep = options.atStep ?? (async () => undefined);
    this.lateWriters = new LateWriterWatch(options.graceMs ?? 2000, (task) => this.run(task), options.onLateWriter ?? (() => undefined));
  }

  /**
   * Waits until `relativePath` has been still for the quiet period (or is Flint's own
   * last write): read a file's bytes only after this, or a save in progress is read half.
   */
  async settle(relativePath: string): Promise<void> {
    const deadline = Date.now() + this.maxQuietWaitMs;
    const path = `${this.root}/${relativePath}`;
    for (;;) {
      const stats = await lstat(path, { bigint: true }).catch(() => null);
      if (stats === null || this.ownStamps.get(relativePath) === stampOf(stats)) return;
      const age = Date.now() - Number(stats.mtimeMs);
      if (age >= this.quietMs || Date.now() >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.quietMs - age, deadline - Date.now()) + 1));
    }
  }

  /**
   * Makes `relativePath` (real: no symlinks) hold `next` (null: deleted) with `mode`,
   * only if it holds `expected` now (null: absent). Throws `outside-project` if a folder
   * on the way is no longer a folder inside the project.
   */
  replace(relativePath: string, expected: Uint8Array | null, next: Uint8Array | null, mode: number): Promise<ReplaceOutcome> {
    return this.run(() => this.replaceNow(relativePath, expected, next, mode));
  }

  /**
   * `replace` for a caller already inside `run` — one that read the file and planned on
   * its bytes there, so no other write of this writer (a late-writer check) ran between.
   */
  async replaceNow(relativePath: string, expected: Uint8Array | null, next: Uint8Array | null, mode: number): Promise<ReplaceOutcome> {
    const slash = relativePath.lastIndexOf('/');
    const name = relativePath.slice(slash + 1);
    const folder = await ProjectFolder.open(this.root, slash === -1 ? '' : relativePath.slice(0, slash), { create: expected === null && next !== null });
    let handedOver = false;
    try {
      if (expected === null) return next === null ? { status: 'written' } : await this.create(folder, name, next, mode);
      await this.settle(relativePath);
      const swapped = await this.swap(folder, name, expected, next, mode);
      handedOver = swapped.handedOver;
      return swapped.outcome;
    } finally {
      if (!handedOver) await folder.close();
    }
  }

  /** Runs `task` when no other write of this writer runs: one queue for the project's writes and checks. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Checks every file still kept aside now (closing a project, tests). */
  async dispose(): Promise<void> {
    await this.lateWriters.flush();
  }

  /** Creates `name` only if nothing has that name: link(2) of a finished temp file is the conditional create. */
  private async create(folder: ProjectFolder, name: string, next: Uint8Array, mode: number): Promise<ReplaceOutcome> {
    const temporary = await writeTemporary(folder, name, next, mode);
    try {
      await link(folder.entry(temporary.name), folder.entry(name));
    } catch (error) {
      if (errorCode(error) === 'EEXIST') return { status: 'changed' };
      throw error;
    } finally {
      await unlink(folder.entry(temporary.name)).catch(() => undefined);
    }
    await this.confirmInside(folder, name, temporary.stamp, null);
    this.ownStamps.set(folder.display(name), temporary.stamp);
    await folder.sync();
    return { status: 'written' };
  }

  private async swap(folder: ProjectFolder, name: string, expected: Uint8Array, next: Uint8Array | null, mode: number): Promise<{ outcome: ReplaceOutcome; handedOver: boolean }> {
    const path = folder.display(name);
    const ownBefore = this.ownStamps.get(path);
    const temporary = next === null ? null : await writeTemporary(folder, name, next, mode);
    const ourStamp = temporary?.stamp ?? null;
    let captured: CapturedFile | null = null;
    try {
      await this.atStep('before-capture');
      // Only a regular file is ever taken aside (a folder or a link swapped in stays as it is).
      const present = await lstat(folder.entry(name)).catch(() => null);
      if (present !== null && !present.isFile()) return { outcome: { status: 'changed' }, handedOver: false };
      captured = await captureFile(folder, name);
      if (captured === null) return { outcome: { status: 'changed' }, handedOver: false };
      if (!captured.isFile || !Buffer.from(captured.bytes).equals(Buffer.from(expected))) {
        return { outcome: changed(await putBack(folder, name, captured)), handedOver: false };
      }
      await this.atStep('captured');
      // link(2) is the conditional step; a delete only checks that the name stayed free.
      const taken = temporary !== null ? !(await linkUnlessTaken(folder, temporary.name, name)) : await exists(folder.entry(name));
      if (taken) {
        // Someone saved under the name while it was aside: theirs stays; the capture was only the base.
        await unlink(folder.entry(captured.aside));
        return { outcome: { status: 'changed' }, handedOver: false };
      }
      await this.atStep('linked');
      if (await captured.changedSinceRead()) {
        // A writer that had the file open wrote into it after all: its save wins.
        return { outcome: changed(await restoreOverOurs(folder, name, captured, ourStamp)), handedOver: false };
      }
      await this.confirmInside(folder, name, ourStamp, captured);
      await this.atStep('verified');
      if (ourStamp !== null) this.ownStamps.set(path, ourStamp);
      else this.ownStamps.delete(path);
      await folder.sync();
      if (captured.stamp === ownBefore) {
        // Flint's own last write, untouched: nobody can hold it open with bytes still to come.
        await unlink(folder.entry(captured.aside));
        return { outcome: { status: 'written' }, handedOver: false };
      }
      this.lateWriters.watch({ folder, name, captured, ourStamp });
      captured = null;
      return { outcome: { status: 'written' }, handedOver: true };
    } finally {
      if (temporary !== null) await unlink(folder.entry(temporary.name)).catch(() => undefined);
      await captured?.close();
    }
  }

  /**
   * The folder written into may have been moved out of the project meanwhile: then
   * Flint's file is taken back out (and the captured one returned) and the write refused.
   */
  private async confirmInside(folder: ProjectFolder, name: string, ourStamp: FileStamp | null, captured: CapturedFile | null): Promise<void> {
    if (await folder.isStillInside()) return;
    if (captured !== null) await restoreOverOurs(folder, name, captured, ourStamp).catch(() => undefined);
    else if (ourStamp !== null) {
      const stats = await lstat(folder.entry(name), { bigint: true }).catch(() => null);
      if (stats !== null && stampOf(stats) === ourStamp) await unlink(folder.entry(name)).catch(() => undefined);
    }
    throw new FlintFailure('outside-project', `Refused: ${folder.display(name)} was moved out of the project while Flint wrote it; Flint's change was taken back.`);
  }

}

function changed(keptAs: string | undefined): ReplaceOutcome {
  return keptAs === undefined ? { status: 'changed' } : { status: 'changed', keptAs };
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

/** link(2): false if the name is taken (by a save that landed while it was free). */
async function linkUnlessTaken(folder: ProjectFolder, from: string, to: string): Promise<boolean> {
  try {
    await link(folder.entry(from), folder.entry(to));
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
}
