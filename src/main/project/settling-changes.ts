/**
 * What the watcher and the poller heard, passed on in settled batches, each path once.
 *
 * One write is several events (truncate, write, close), and a checkout is a storm of them: a
 * batch goes once nothing was heard for `quietMs`, or at the latest `maxWaitMs` after its
 * first event. Two different words for one path become `touch` (look at the disk); the
 * batch keeps the order in which paths were first heard.
 */
import type { RawChange } from './folder-watches';

/** The clock the batches wait on (tests give their own). */
export interface SettleClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const systemClock: SettleClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

export class SettlingChanges {
  private readonly heard = new Map<string, RawChange['type']>();
  private lastHeardAt = 0;
  private firstHeardAt = 0;
  private timer: unknown = null;

  constructor(
    private readonly onSettled: (batch: RawChange[]) => void,
    private readonly quietMs = 25,
    private readonly maxWaitMs = 100,
    private readonly clock: SettleClock = systemClock,
  ) {}

  hear({ type, path }: RawChange): void {
    const earlier = this.heard.get(path);
    this.heard.set(path, earlier === undefined || earlier === type ? type : 'touch');
    this.lastHeardAt = this.clock.now();
    if (this.timer !== null) return;
    this.firstHeardAt = this.lastHeardAt;
    this.timer = this.clock.setTimeout(() => this.settle(), this.quietMs);
  }

  /** Drops what was heard and not passed on. */
  dispose(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.heard.clear();
  }

  private settle(): void {
    const now = this.clock.now();
    const quietFor = now - this.lastHeardAt;
    if (quietFor < this.quietMs && now - this.firstHeardAt < this.maxWaitMs) {
      this.timer = this.clock.setTimeout(() => this.settle(), Math.min(this.quietMs - quietFor, this.maxWaitMs - (now - this.firstHeardAt)));
      return;
    }
    this.timer = null;
    const batch = [...this.heard].map(([path, type]) => ({ type, path }));
    this.heard.clear();
    this.onSettled(batch);
  }
}
