/**
 * Reads a file once its writer has finished: the file must hold still (same size,
 * times and inode) for a quiet period, like chokidar's `awaitWriteFinish`, and again
 * across the read itself.
 *
 * One read bracketed by two stats is not enough: an editor writing a large file in
 * place pauses between pieces, and a read that fits in a pause looks stable. Only a
 * pause longer than the quiet period can still pass for the end of a write; that is
 * the limit of any watcher-side check (the writer never says it is done).
 *
 * The quiet period counts only time in which this process ran: after a late wake-up
 * (a loaded machine, a long task) it starts again, because a writer in this process
 * (tests, tools) was stalled too and cannot have written meanwhile.
 */
import { stat } from 'node:fs/promises';

/** What identifies one state of a file: any write changes the size or the times. */
export interface FileStamp {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

/** Time as the settling loop sees it; tests pass their own to drive a writer deterministically. */
export interface SettleClock {
  /** Milliseconds, monotonic. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** How long to wait for quiet, and what the caller already knows about the file. */
export interface ReadSettledOptions {
  /** How long the file must hold still before it is read. */
  quietMs: number;
  /** Give up after this long: the file is "still being written". */
  timeoutMs: number;
  /** Between two looks at the file while it must hold still. */
  pollMs?: number;
  /**
   * How long the caller already knows the file in this state to have been quiet
   * (Infinity: seen settled before, so it is read at once). Default 0.
   */
  knownQuietMs?: (stamp: FileStamp | null) => number;
  clock?: SettleClock;
  /** Stops waiting (the owner was disposed); the answer is then `still-writing`. */
  isCancelled?: () => boolean;
}

/**
 * `settled`: `value` was read from the file in state `stamp` (null: there was no file),
 * which had held still for the quiet period. `still-writing`: it never held still
 * before the timeout, and nothing it held was returned.
 */
export type SettledRead<T> = { kind: 'settled'; value: T; stamp: FileStamp | null } | { kind: 'still-writing' };

/** The real clock: `performance.now()` and timers. */
export const realClock: SettleClock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The file's stamp, or null when it does not exist (or cannot be looked at). */
export async function fileStamp(absolutePath: string): Promise<FileStamp | null> {
  const stats = await stat(absolutePath, { bigint: true }).catch(() => null);
  return stats && { dev: stats.dev, ino: stats.ino, size: stats.size, mtimeNs: stats.mtimeNs, ctimeNs: stats.ctimeNs };
}

/** Whether two stamps are the same state of a file (two missing files are). */
export function sameStamp(a: FileStamp | null | undefined, b: FileStamp | null | undefined): boolean {
  if (!a || !b) return (a ?? null) === (b ?? null);
  return a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/**
 * Reads `absolutePath` with `read` once the file has held still for `quietMs`, and
 * returns what was read only if the file did not change during the read either.
 * `read` should not throw for the file's content (return the failure as a value):
 * a half-written file may well be unreadable.
 */
export async function readSettled<T>(absolutePath: string, read: () => Promise<T>, options: ReadSettledOptions): Promise<SettledRead<T>> {
  const clock = options.clock ?? realClock;
  const deadline = clock.now() + options.timeoutMs;
  let stamp = await fileStamp(absolutePath);
  // Once the file has been seen changing, a writer is at work: what the caller knew no longer counts.
  let sawChange = false;
  for (;;) {
    const known = sawChange ? 0 : (options.knownQuietMs?.(stamp) ?? 0);
    const quiet = await holdStill(absolutePath, stamp, known, deadline, clock, options);
    if (quiet.kind === 'gave-up') return { kind: 'still-writing' };
    if (quiet.kind === 'still') {
      const value = await read();
      const after = await fileStamp(absolutePath);
      if (sameStamp(stamp, after)) return { kind: 'settled', value, stamp };
      // Written during the read: what was read may be half of it.
      if (clock.now() >= deadline || options.isCancelled?.()) return { kind: 'still-writing' };
      stamp = after;
    } else {
      stamp = quiet.stamp;
    }
    sawChange = true;
  }
}

type Quiet = { kind: 'still' } | { kind: 'changed'; stamp: FileStamp | null } | { kind: 'gave-up' };

/** Waits until the file in state `stamp` has been quiet for the quiet period, or changes. */
async function holdStill(absolutePath: string, stamp: FileStamp | null, knownQuietMs: number, deadline: number, clock: SettleClock, options: ReadSettledOptions): Promise<Quiet> {
  const { quietMs } = options;
  const pollMs = options.pollMs ?? Math.max(5, Math.round(quietMs / 6));
  let last = clock.now();
  let quietSince = last - Math.min(quietMs, Math.max(0, knownQuietMs));
  while (last - quietSince < quietMs) {
    if (last >= deadline || options.isCancelled?.()) return { kind: 'gave-up' };
    await clock.sleep(pollMs);
    const woke = clock.now();
    // Woken late: this process was not running, so neither was a writer in it.
    if (woke - last > pollMs * 2) quietSince = woke;
    const current = await fileStamp(absolutePath);
    if (!sameStamp(current, stamp)) return { kind: 'changed', stamp: current };
    last = clock.now();
  }
  return { kind: 'still' };
}
