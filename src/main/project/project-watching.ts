/**
 * Hears what changes in a project: the folders' watches (folder-watches.ts) and the poller
 * that reads the folders the OS would not watch (unwatched-folders.ts), what they heard
 * passed on in settled batches, each path once (settling-changes.ts).
 */
import type { IgnoreRules } from './ignore-rules';
import { Emitter, type Disposable, type Event } from '../lifecycle';
import { FolderWatches, type RawChange } from './folder-watches';
import { SettlingChanges } from './settling-changes';
import { UnwatchedFolders, type UnwatchedFoldersOptions, type UnwatchedSummary } from './unwatched-folders';

export type PollingOptions = Pick<UnwatchedFoldersOptions, 'fastIntervalMs' | 'slowTickMs' | 'slowRoundMinMs' | 'statBudget'>;

export class ProjectWatching implements Disposable {
  private readonly watches: FolderWatches;
  private readonly unwatched: UnwatchedFolders;
  /** What was last said of unwatched folders (null: nothing, or that every folder is watched). */
  private lastUnwatched: UnwatchedSummary | null = null;
  private readonly settling: SettlingChanges;
  private readonly _onDidHear = new Emitter<RawChange[]>();
  private readonly _onDidChangeUnwatched = new Emitter<UnwatchedSummary | null>();

  /** A settled batch: each path once, in the order first heard. */
  readonly onDidHear: Event<RawChange[]> = this._onDidHear.event;
  /** The OS refused to watch some folders (they are polled), or every folder is watched again (null). */
  readonly onDidChangeUnwatched: Event<UnwatchedSummary | null> = this._onDidChangeUnwatched.event;

  constructor(root: string, rules: () => IgnoreRules, polling: PollingOptions = {}) {
    this.settling = new SettlingChanges((batch) => this._onDidHear.fire(batch));
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
    this.settling.dispose();
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
    this.settling.hear({ type, path });
  }

  /** Says what is unwatched when it differs from what was said last. */
  private reportUnwatched(summary: UnwatchedSummary | null): void {
    if (summary === null && this.lastUnwatched === null) return;
    this.lastUnwatched = summary;
    this._onDidChangeUnwatched.fire(summary);
  }
}
