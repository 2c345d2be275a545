/**
 * Keeps every file Flint replaced aside for a grace period and watches it: an editor
 * that opened the file before Flint replaced it and writes the rest of its save later
 * writes into that captured inode. Its bytes are then put back under the name when Flint's
 * own file is still there, else kept beside it, and reported — never deleted with the
 * scratch file, never put over a newer state, never bringing a deleted file back.
 */
import { unlink } from 'node:fs/promises';
import { keepBeside, returnLateBytes, type CapturedFile, type InodeStamp, type SwapPlace } from './captured-file';

/** What a late writer did, for a notice. */
export interface LateWriterReport {
  /** Project-relative path of the file. */
  path: string;
  /** Where the writer's bytes were kept, if they could not go back under the name. */
  keptAs?: string;
}

export interface WatchedCapture {
  place: SwapPlace;
  captured: CapturedFile;
  /** What Flint put under the name (null: it deleted the file). */
  ourStamp: InodeStamp | null;
}

/**
 * At most this many captures are watched at once (each holds three open handles: the file, its folder, its scratch folder); beyond
 * it the oldest is checked early, so an Accept all across many files gives its first
 * files less than the full grace period.
 */
const MAX_WATCHED = 32;

export class LateWriterWatch {
  private readonly watched = new Map<WatchedCapture, ReturnType<typeof setTimeout>>();

  constructor(
    private readonly graceMs: number,
    /** Runs `task` when no other write of the project runs (the writer's own queue). */
    private readonly exclusive: <T>(task: () => Promise<T>) => Promise<T>,
    private readonly report: (report: LateWriterReport) => void,
  ) {}

  /** Takes ownership of the capture (and its folder handles) until it is checked. */
  watch(capture: WatchedCapture): void {
    const timer = setTimeout(() => void this.exclusive(() => this.check(capture)), this.graceMs);
    timer.unref?.();
    this.watched.set(capture, timer);
    if (this.watched.size > MAX_WATCHED) {
      const oldest = this.watched.keys().next().value!;
      void this.exclusive(() => this.check(oldest));
    }
  }

  /** Checks everything watched now (before the project closes). */
  async flush(): Promise<void> {
    await this.exclusive(async () => {
      for (const capture of [...this.watched.keys()]) await this.check(capture);
    });
  }

  private async check(capture: WatchedCapture): Promise<void> {
    const timer = this.watched.get(capture);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.watched.delete(capture);
    const { place, captured, ourStamp } = capture;
    const path = place.folder.display(place.name);
    let changed = false;
    try {
      changed = await captured.changedSinceRead();
      if (changed) {
        const keptAs = await returnLateBytes(place, captured.aside, ourStamp);
        this.report({ path, ...(keptAs !== undefined ? { keptAs } : {}) });
      } else {
        await unlink(place.scratch.entry(captured.aside)).catch(() => undefined);
      }
    } catch {
      // Could not put them back: the bytes are kept beside under a visible name (or stay in the scratch file), and the user is told where.
      if (changed) {
        const keptAs = await keepBeside(place, captured.aside).catch(() => `Flint's scratch file ${captured.aside}`);
        this.report({ path, keptAs });
      }
    } finally {
      await captured.close().catch(() => undefined);
      await place.folder.close().catch(() => undefined);
      await place.scratch.close().catch(() => undefined);
    }
  }
}
