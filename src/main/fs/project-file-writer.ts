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
import { lstat, rename, unlink } from 'node:fs/promises';
import { FlintFailure } from '../../shared/result';
import { captureFile, exists, keepBeside, placeUnlessTaken, putBack, renamedKind, rollBack, stampOf, writeTemporary, type CapturedFile, type InodeStamp, type SwapPlace } from './captured-file';
import { LateWriterWatch, type LateWriterReport } from './late-writer-watch';
import { errorCode } from './fs-errors';
import { ProjectFolder } from './project-folder';
import { ScratchArea } from './scratch-area';
import { readSettled, type SettleClock } from './read-settled';

export interface ProjectFileWriterOptions {
  /** A file changed less than this long ago is being saved: Flint waits (ms). */
  quietMs?: number;
  /** The longest wait for quiet before going ahead anyway; the capture still guards (ms). */
  maxQuietWaitMs?: number;
  /** How long a replaced file of the user's is kept aside and watched for a late writer (ms). */
  graceMs?: number;
  /** A late writer's bytes were found after Flint reported success: put back, or kept beside. */
  onLateWriter?: (report: LateWriterReport) => void;
  /** The waits for quiet (tests count them). */
  clock?: SettleClock;
  /** Flint's scratch folder in the OS cache directory (see scratch-area.ts; tests pass their own). */
  cacheFolder?: string;
  /** The temp folder kept across restarts, for scratch files (default /var/tmp; tests pass their own). */
  tempFolder?: string;
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
  private readonly ownStamps = new Map<string, InodeStamp>();
  private readonly quietMs: number;
  private readonly maxQuietWaitMs: number;
  private readonly lateWriters: LateWriterWatch;
  private readonly atStep: (step: WriteStep) => Promise<void>;
  private readonly clock: SettleClock | undefined;
  /** Where the scratch files of every write go: out of the project, on the same file system. */
  readonly scratchArea: ScratchArea;
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
    this.clock = options.clock;
    const { cacheFolder, tempFolder } = options;
    this.scratchArea = ScratchArea.for(root, { ...(cacheFolder !== undefined ? { cacheFolder } : {}), ...(tempFolder !== undefined ? { tempFolder } : {}) });
    this.lateWriters = new LateWriterWatch(options.graceMs ?? 2000, (task) => this.run(task), options.onLateWriter ?? (() => undefined));
  }

  /**
   * Waits until `relativePath` has been still for the quiet period (or is Flint's own
   * last write): read a file's bytes only after this, or a save in progress is read half.
   */
  async settle(relativePath: string): Promise<void> {
    await readSettled(`${this.root}/${relativePath}`, async () => undefined, {
      quietMs: this.quietMs,
      timeoutMs: this.maxQuietWaitMs,
      ...(this.clock ? { clock: this.clock } : {}),
      // Quiet since its last modification, as far as anyone can tell; Flint's own last write is quiet by definition.
      knownQuietMs: (stamp) => (stamp === null || this.ownStamps.get(relativePath) === stampOf(stamp) ? Infinity : Date.now() - Number(stamp.mtimeNs / 1_000_000n)),
    });
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
    if (expected === null && next === null) return { status: 'written' };
    const slash = relativePath.lastIndexOf('/');
    const folderPath = slash === -1 ? '' : relativePath.slice(0, slash);
    for (;;) {
      const folder = await ProjectFolder.open(this.root, folderPath, { create: expected === null && next !== null });
      let place: SwapPlace | null = null;
      let handedOver = false;
      try {
        place = { folder, name: relativePath.slice(slash + 1), scratch: await this.scratchArea.mirror(folderPath, folder) };
        if (expected === null) return await this.create(place, next!, mode);
        await this.settle(relativePath);
        const swapped = await this.swap(place, expected, next, mode);
        handedOver = swapped.handedOver;
        return swapped.outcome;
      } catch (error) {
        // Another mount of the same device (a bind mount, a container's): the first rename or
        // link between the folder and the area failed, before anything moved. The next area is tried.
        if (errorCode(error) !== 'EXDEV') throw error;
        await this.scratchArea.refuse(folderPath, folder);
      } finally {
        if (!handedOver) {
          await folder.close();
          await place?.scratch.close();
        }
      }
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
    await this.run(() => this.scratchArea.prune());
  }

  /** Creates `name` only if nothing has that name: placing a finished temp file with link(2) is the conditional create. */
  private async create(place: SwapPlace, next: Uint8Array, mode: number): Promise<ReplaceOutcome> {
    const { folder, name } = place;
    const temporary = await writeTemporary(place, next, mode);
    try {
      await this.refuseIfOutside(folder, name);
      await this.atStep('captured');
      if (!(await placeUnlessTaken({ folder: place.scratch, name: temporary.name }, place))) return { status: 'changed' };
      if (!(await folder.isStillInside())) {
        await this.takeOursBack(folder, name, temporary.stamp);
        throw this.movedOut(folder, name);
      }
    } finally {
      await unlink(place.scratch.entry(temporary.name)).catch(() => undefined);
    }
    this.ownStamps.set(folder.display(name), temporary.stamp);
    await folder.sync();
    return { status: 'written' };
  }

  private async swap(place: SwapPlace, expected: Uint8Array, next: Uint8Array | null, mode: number): Promise<{ outcome: ReplaceOutcome; handedOver: boolean }> {
    const { folder, name, scratch } = place;
    const path = folder.display(name);
    const temporary = next === null ? null : await writeTemporary(place, next, mode);
    const ourStamp = temporary?.stamp ?? null;
    let captured: CapturedFile | null = null;
    /** Flint's file is under the name: undoing means putting the captured one back over it. */
    let placed = false;
    try {
      await this.atStep('before-capture');
      await this.refuseIfOutside(folder, name);
      // Only a regular file is ever taken aside (a folder or a link swapped in stays as it is).
      const present = await lstat(folder.entry(name)).catch(() => null);
      if (present !== null && !present.isFile()) return { outcome: { status: 'changed' }, handedOver: false };
      captured = await captureFile(place, expected);
      if (captured === null) return { outcome: { status: 'changed' }, handedOver: false };
      if (!captured.plausible) return { outcome: changed(await putBack(place, captured.aside)), handedOver: false };
      await this.atStep('captured');
      // Placing with link(2) is the conditional step; a delete only checks that the name stayed free.
      // The name is free only from the capture to here: the bytes are compared after.
      placed = temporary !== null && (await placeUnlessTaken({ folder: scratch, name: temporary.name }, place));
      if (temporary !== null ? !placed : await exists(folder.entry(name))) {
        // Someone saved under the name while it was free: theirs stays. The capture was the
        // base (dropped), or, if it was not, an earlier save of theirs (kept beside).
        if (await captured.matches()) {
          await unlink(scratch.entry(captured.aside));
          return { outcome: { status: 'changed' }, handedOver: false };
        }
        return { outcome: changed(await keepBeside(place, captured.aside)), handedOver: false };
      }
      await this.atStep('linked');
      // Not the bytes the plan was based on (a save of the same size), or written into since: that version wins.
      if (!(await captured.matches()) || (await captured.changedSinceRead())) {
        return { outcome: changed(await rollBack(place, captured.aside, ourStamp)), handedOver: false };
      }
      if (!(await folder.isStillInside())) throw this.movedOut(folder, name);
      await this.atStep('verified');
      if (ourStamp !== null) this.ownStamps.set(path, ourStamp);
      else this.ownStamps.delete(path);
      await folder.sync();
      // Done: from here a crash must not bring it back under the name (a delete stays done).
      const grace = renamedKind(captured.aside, 'grace');
      await rename(scratch.entry(captured.aside), scratch.entry(grace));
      captured.aside = grace;
      this.lateWriters.watch({ place, captured, ourStamp });
      captured = null;
      return { outcome: { status: 'written' }, handedOver: true };
    } catch (error) {
      // Whatever failed, the captured file goes back under its name (over Flint's, if placed).
      if (captured !== null) await (placed ? rollBack(place, captured.aside, ourStamp) : putBack(place, captured.aside)).catch(() => undefined);
      throw error;
    } finally {
      if (temporary !== null) await unlink(scratch.entry(temporary.name)).catch(() => undefined);
      await captured?.close();
    }
  }

  /** Refuses before touching anything when the folder is no longer inside the project (no /proc: a link swapped in). */
  private async refuseIfOutside(folder: ProjectFolder, name: string): Promise<void> {
    if (!(await folder.isStillInside())) throw this.movedOut(folder, name);
  }

  /** Removes Flint's file from under `name` if it is still Flint's. */
  private async takeOursBack(folder: ProjectFolder, name: string, ourStamp: InodeStamp): Promise<void> {
    const stats = await lstat(folder.entry(name), { bigint: true }).catch(() => null);
    if (stats !== null && stampOf(stats) === ourStamp) await unlink(folder.entry(name)).catch(() => undefined);
  }

  private movedOut(folder: ProjectFolder, name: string): FlintFailure {
    return new FlintFailure('outside-project', `Refused: the folder of ${folder.display(name)} is no longer inside the project (moved, or replaced by a link); nothing of Flint's was left there.`);
  }
}

function changed(keptAs: string | undefined): ReplaceOutcome {
  return keptAs === undefined ? { status: 'changed' } : { status: 'changed', keptAs };
}
