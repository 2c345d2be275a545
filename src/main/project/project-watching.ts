/**
 * Hears what changes in a project: the folders' watches (folder-watches.ts), the poller that
 * reads the folders the OS would not watch (unwatched-folders.ts), and what they heard passed
 * on in settled batches, each path once.
 *
 * One write is several events (truncate, write, close), and a checkout is a storm of them: a
 * batch goes once the disk has been quiet for SETTLE_MS, or at the latest MAX_SETTLE_MS after
 * its first event; two different words for one path become `touch` (look at the disk).
 */
import type { IgnoreRules } from './ignore-rules';
import { Emitter, type Disposable, type Event } from '../lifecycle';
import { FolderWatches, type RawChange } from './folder-watches';
import { UnwatchedFolders, type UnwatchedFoldersOptions, type UnwatchedSummary } from './unwatched-folders';

/** How long the disk must be quiet before what was heard is passed on (a write is several events). */
const SETTLE_MS = 25;
/** How long what was heard waits at most during a storm of events. */
const MAX_SETTLE_MS = 100;

export type PollingOptions = Pick<UnwatchedFoldersOptions, 'fastIntervalMs' | 'slowTickMs' | 'slowRoundMinMs' | 'statBudget'>;

export class ProjectWatching implements Disposable {
  private readonly watches: FolderWatches;
  private readonly unwatched: UnwatchedFolders;
  /** What was last said of unwatched folders (null: nothing, or that every folder is watched). */
  private lastUnwatched: UnwatchedSummary | null = null;
  /** Paths heard of and not yet passed on, with what was heard, in the order first heard. */
  private readonly heard = new Map<string, RawChange['type']>();
  private lastHeardAt = 0;
  private heardSince: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly _onDidHear = new Emitter<RawChange[]>();
  private readonly _onDidChangeUnwatched = new Emitter<UnwatchedSummary | null>();

  /** A settled batch: each path once, in the order first heard. */
  readonly onDidHear: Event<RawChange[]> = this._onDidHear.event;
  /** The OS refused to watch some folders (they are polled), or every folder is watched again (null). */
  readonly onDidChangeUnwatched: Event<UnwatchedSummary | null> = this._onDidChangeUnwatched.event;

  constructor(root: string, rules: () => IgnoreRules, polling: PollingOptions = {}) {
    this.watches = new FolderWatches(root);
    this.unwatched = new UnwatchedFolders({ ...polling, root, isIgnoredDirectory: (folder) => rules().isIgnoredDirectory(folder) });
    this.watches.onDidRefuse(({ folder, code }) => void this.unwatched.refuse(folder, code));
    this.watches.onDidChange((change) => this.hear(change));
    this.unwatched.onDidChange((change) => this.hear(change));
    this.unwatched.onDidChangeSummary((summary) => this.reportUnwatched(summary));
  }

  /** What the OS refuses to watch now (polled instead), or null. */
  get unwatchedFolders(): UnwatchedSummary | null {
    return this.unwatched.summary();
  }

  /** Watches `folder` (before it is read: what changes after the read is heard). */
  watch(folder: string): void {
    this.watches.watch(folder);
  }

  /** `path` is gone: neither it nor anything below it is watched or polled. */
  forget(path: string): void {
    this.watches.unwatch(path);
    this.unwatched.forget(path);
  }

  /** Keeps watching (and polling) only the folders `keep` says yes to: a reload's rules hide the rest. */
  retain(keep: (folder: string) => boolean): void {
    this.watches.retain(keep);
    this.unwatched.retain(keep);
    if (this.unwatched.size === 0) this.reportUnwatched(null);
  }

  /** The folders the user works in (the current file's): read often while the OS will not watch them. */
  setFocus(folders: string[]): void {
    this.unwatched.setFocus(folders);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.watches.dispose();
    this.unwatched.dispose();
    this._onDidHear.dispose();
    this._onDidChangeUnwatched.dispose();
  }

  /**
   * A removal the poller read stops the polling below it at once, before its batch goes, so
   * a folder removed and refused again (re-adopted meanwhile) is not dropped late.
   */
  private hear({ type, path }: RawChange): void {
    if (type === 'unlink' || type === 'unlinkDir') this.unwatched.forget(path);
    const earlier = this.heard.get(path);
    this.heard.set(path, earlier === undefined || earlier === type ? type : 'touch');
    this.lastHeardAt = Date.now();
    this.heardSince ??= this.lastHeardAt;
    this.timer ??= setTimeout(() => this.settle(), SETTLE_MS);
  }

  private settle(): void {
    const now = Date.now();
    const quietFor = now - this.lastHeardAt;
    if (quietFor < SETTLE_MS && now - this.heardSince! < MAX_SETTLE_MS) {
      this.timer = setTimeout(() => this.settle(), SETTLE_MS - quietFor);
      return;
    }
    this.timer = null;
    this.heardSince = null;
    const batch = [...this.heard].map(([path, type]) => ({ type, path }));
    this.heard.clear();
    this._onDidHear.fire(batch);
  }

  /** Says what is unwatched when it differs from what was said last. */
  private reportUnwatched(summary: UnwatchedSummary | null): void {
    if (summary === null && this.lastUnwatched === null) return;
    this.lastUnwatched = summary;
    this._onDidChangeUnwatched.fire(summary);
  }
}
