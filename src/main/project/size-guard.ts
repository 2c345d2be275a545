/**
 * Asks before a folder the size of a home folder is shown and watched.
 *
 * A home folder (or `/`) holds every app's files and caches: hundreds of thousands of
 * entries to index, a watch on every folder, and other programs' writes all the time. Such a
 * folder is warned about at once; any other folder when its first scan passes
 * `largeEntries` (a repository never: workspace.ts). The scan goes on meanwhile, so the warning shows a real count and main
 * never waits on the user; the tree and the watcher wait for "Open anyway" (`proceed`), and
 * Cancel closes the project (which disposes this, and stops the scan).
 */
import { dirname } from 'node:path';
import type { SizeWarning, SizeWarningReason } from '../../shared/project-types';
import { Emitter, type Disposable, type Event } from '../lifecycle';

export interface SizeGuardOptions {
  /** 'home' or 'root' when the folder is warned about before its scan starts; null otherwise. */
  reasonAtOnce: Extract<SizeWarningReason, 'home' | 'root'> | null;
  /** A first scan that finds more entries than this is warned about. */
  largeEntries: number;
}

/**
 * Entries past which any folder is warned about. Above the largest projects Flint is built
 * for (the bench opens 50,000 files in 1,000 folders without asking), below a home folder
 * (a developer's: 100,000 to several million).
 */
export const LARGE_FOLDER_ENTRIES = 100_000;

/** Why `root` (a real path) is warned about before its scan: the user's home (`home`, a real path), the file system's root, or neither. */
export function reasonAtOnceFor(root: string, home: string): SizeGuardOptions['reasonAtOnce'] {
  if (root === home) return 'home';
  return dirname(root) === root ? 'root' : null;
}

export class SizeGuard implements Disposable {
  private warning: SizeWarning | null = null;
  /** The user said "Open anyway", or the first scan ended with nothing to ask. */
  private settled = false;
  private release: () => void = () => undefined;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  private readonly _onDidChange = new Emitter<SizeWarning | null>();

  /** The warning was raised, or updated when the scan ended, or answered (null). */
  readonly onDidChange: Event<SizeWarning | null> = this._onDidChange.event;

  constructor(private readonly options: SizeGuardOptions) {}

  /** The warning waiting for an answer, with the latest count; null when there is none. */
  get current(): SizeWarning | null {
    return this.warning;
  }

  /** The first scan starts: a home folder or `/` is warned about now, before anything is indexed. */
  begin(): void {
    if (this.options.reasonAtOnce !== null && !this.settled && this.warning === null) this.raise(this.options.reasonAtOnce, 0);
  }

  /** The scan has found `entriesFound` entries so far. */
  observe(entriesFound: number): void {
    if (this.settled) return;
    if (this.warning) this.warning = { ...this.warning, entriesFound };
    else if (entriesFound > this.options.largeEntries) this.raise('large', entriesFound);
  }

  /**
   * A scan is over: resolves once the project may go live — at once when there was nothing
   * to ask (or it was answered), else when the user says "Open anyway" or the project closes.
   */
  scanned(entriesFound: number): Promise<void> {
    if (this.settled || this.warning === null) {
      this.settled = true;
      return Promise.resolve();
    }
    this.warning = { ...this.warning, entriesFound, scanDone: true };
    this._onDidChange.fire(this.warning);
    return this.released;
  }

  /** "Open anyway": the warning goes, and the project shows its tree and watches. */
  proceed(): void {
    if (this.settled) return;
    this.settled = true;
    const hadWarning = this.warning !== null;
    this.warning = null;
    if (hadWarning) this._onDidChange.fire(null);
    this.release();
  }

  dispose(): void {
    // Whatever waited for the answer goes on (and finds the project closed).
    this.release();
    this._onDidChange.dispose();
  }

  private raise(reason: SizeWarningReason, entriesFound: number): void {
    this.warning = { reason, entriesFound, scanDone: false };
    this._onDidChange.fire(this.warning);
  }
}
