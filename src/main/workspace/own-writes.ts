/**
 * Flint's own writes, so that the watcher's echo of them is not taken for the user's save
 * (which would make the file "current" and its change "what the user just did").
 *
 * The watcher reports a path, not who wrote it: a write Flint announced shortly before
 * is Flint's. The window is generous (a guarded write settles, fsyncs and renames, and
 * chokidar waits for the size to hold still before it reports); a user's save of the
 * same file inside it is still remembered as a version, only not as "current".
 */
export const OWN_WRITE_WINDOW_MS = 2_000;

export class OwnWrites {
  /** Until when each announced write's echo is expected (clock time). */
  private readonly until = new Map<string, number>();

  constructor(
    private readonly windowMs = OWN_WRITE_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Flint is about to write `path`. */
  expect(path: string): void {
    const now = this.now();
    // Expired announcements of files nobody saved again are let go here, so the map stays small.
    for (const [known, until] of this.until) if (until <= now) this.until.delete(known);
    this.until.set(path, now + this.windowMs);
  }

  /** Whether a save of `path` reported now is the echo of Flint's own write. */
  isOwn(path: string): boolean {
    const until = this.until.get(path);
    if (until !== undefined && until > this.now()) return true;
    this.until.delete(path);
    return false;
  }
}
