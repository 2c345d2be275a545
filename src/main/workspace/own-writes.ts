/**
 * Flint's own writes, so that the watcher's echo of them is not taken for the user's save
 * (which would make the file "current" and its change "what the user just did").
 *
 * The watcher reports a path, not who wrote it. So Flint remembers what it wrote (a
 * digest of the bytes, for a while) and compares: the file holding exactly those bytes
 * is Flint's echo; anything else is a save by the user, even one made a moment after
 * Flint's write. (A fixed time window alone took such a save for Flint's.)
 */
import { createHash } from 'node:crypto';

/** How long an echo is expected: a guarded write settles, fsyncs and renames; the watcher lets a burst of events settle. */
export const OWN_WRITE_WINDOW_MS = 10_000;
/** Writes remembered per file: accepting several hunks quickly, the watcher may report any of them. */
const REMEMBERED_PER_FILE = 8;

type Expected = { digest: string | null; until: number };

export class OwnWrites {
  private readonly expected = new Map<string, Expected[]>();

  constructor(
    private readonly windowMs = OWN_WRITE_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Flint is about to write `bytes` to `path` (null: delete it). */
  expect(path: string, bytes: Uint8Array | null): void {
    this.forgetExpired();
    const list = this.expected.get(path) ?? [];
    list.push({ digest: digestOf(bytes), until: this.now() + this.windowMs });
    this.expected.set(path, list.slice(-REMEMBERED_PER_FILE));
  }

  /** Whether Flint wrote `path` recently: only then is the file worth reading to tell. */
  expects(path: string): boolean {
    this.forgetExpired();
    return this.expected.has(path);
  }

  /** Whether `path`, now holding `current` (null: gone), is the echo of one of Flint's writes. */
  isOwn(path: string, current: Uint8Array | null): boolean {
    const digest = digestOf(current);
    return this.expects(path) && this.expected.get(path)!.some((write) => write.digest === digest);
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [path, list] of this.expected) {
      const fresh = list.filter((write) => write.until > now);
      if (fresh.length === 0) this.expected.delete(path);
      else if (fresh.length !== list.length) this.expected.set(path, fresh);
    }
  }
}

function digestOf(bytes: Uint8Array | null): string | null {
  return bytes === null ? null : createHash('sha256').update(bytes).digest('hex');
}
