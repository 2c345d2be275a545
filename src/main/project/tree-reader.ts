/**
 * What the UI reads of a project's tree, a piece at a time: the top level, one folder's
 * children as it opens, the filter's matches and `@` completion's files. Before the first
 * index is whole, the top level the scan read first stands in for it and folders are read
 * from disk; after, everything comes from the index (hidden folders from disk: the index
 * does not go into them).
 */
import { realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileMatches, TreeEntry } from '../../shared/project-types';
import { FlintFailure } from '../../shared/result';
import { toFlintFailure } from '../fs/fs-errors';
import { relativePathOf } from '../fs/project-files';
import { filterFiles } from './file-filter';
import type { IgnoreRules } from './ignore-rules';
import { MAX_SUGGESTIONS, rankMentions } from './mention-match';
import type { ProjectIndex } from './project-index';
import { SearchablePaths } from './searchable-paths';
import { listFolder } from './tree-scanner';

/** Where the reader is: before the first scan read the root, while it runs on (with what it read first), or indexed. */
type ReaderState = { kind: 'waiting' } | { kind: 'early'; topLevel: TreeEntry[]; rules: IgnoreRules } | { kind: 'indexed' };

export class TreeReader {
  private state: ReaderState = { kind: 'waiting' };
  /** The index as searched, brought up to date from the index's journal when the index moved. */
  private searchable: SearchablePaths | null = null;
  private searchedVersion = -1;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly index: ProjectIndex,
    /** The rules the index was built with (they change when a .gitignore does). */
    private readonly rules: () => IgnoreRules,
  ) {}

  /** The first scan read the root: its entries and the rules met so far stand in until the index is whole. */
  showEarly(topLevel: TreeEntry[], rules: IgnoreRules): void {
    if (this.state.kind === 'waiting') this.state = { kind: 'early', topLevel, rules };
  }

  /** The index is whole (and stays so: later reloads replace it at once). */
  indexed(): void {
    this.state = { kind: 'indexed' };
    void this.prepareSearch();
  }

  /** The project closed: nothing more is prepared. */
  close(): void {
    this.closed = true;
  }

  /**
   * Makes the searched copy of the index while main is idle, a slice at a time, so the first
   * keystroke of `@` or the filter does not wait for it (most of a second at a million
   * paths). What changes meanwhile is in the index's journal, applied at the first search.
   */
  private async prepareSearch(): Promise<void> {
    if (this.searchable !== null) return;
    this.index.takeChanges();
    const made = await SearchablePaths.sliced([...this.index.all()], () => this.closed || this.searchable !== null);
    if (made === null || this.searchable !== null) return;
    this.searchable = made;
    this.searchedVersion = -1;
  }

  get isIndexed(): boolean {
    return this.state.kind === 'indexed';
  }

  /** How many entries the index holds, or null before it is whole. */
  get entryCount(): number | null {
    return this.isIndexed ? this.index.size : null;
  }

  /** The top level, or null before the first scan read the root. */
  get topLevel(): TreeEntry[] | null {
    if (this.state.kind === 'indexed') return this.index.childrenOf('');
    return this.state.kind === 'early' ? this.state.topLevel : null;
  }

  /** One folder's children, as it opens in the tree (`path` as the UI sent it). */
  async list(path: string): Promise<TreeEntry[]> {
    const folder = relativePathOf(path, 'user');
    if (this.state.kind === 'waiting') throw new FlintFailure('invalid-state', 'The project is still being read.');
    // A folder's own .gitignore is read with it, so the rules met so far are enough: its parents were opened first.
    if (this.state.kind === 'early') return this.fromDisk(folder, this.state.rules);
    const entry = this.index.get(folder);
    // A folder inside a hidden one (shown on demand): the index does not go there.
    if (!entry && this.rules().isInsideIgnoredDirectory(folder)) return this.fromDisk(folder, this.rules());
    if (!entry || entry.kind !== 'directory') throw new FlintFailure('not-found', `${folder} is not a folder in this project.`);
    if (entry.unlisted === undefined) return this.index.childrenOf(folder);
    if (entry.unlisted === 'permission-denied') throw new FlintFailure('permission-denied', `${folder} cannot be listed: permission denied.`);
    if (entry.unlisted === 'error') throw new FlintFailure('io-error', `${folder} could not be listed.`);
    // Children of a hidden folder are hidden too: rules of the folder's ancestors apply.
    return this.fromDisk(folder, this.rules());
  }

  /** The tree's filter: the first `limit` files whose path contains `query`. */
  findFiles(query: string, showIgnored: boolean, limit: number): FileMatches {
    if (!this.isIndexed) return { entries: [], more: false, indexing: true };
    const { entries, lower } = this.searched();
    return filterFiles(entries, query, showIgnored, limit, lower);
  }

  /** The files `@` completion offers for `query`, best first (none before the index is whole). */
  suggestFiles(query: string): string[] {
    if (!this.isIndexed) return [];
    return rankMentions(this.searched(), query, MAX_SUGGESTIONS);
  }

  private searched(): SearchablePaths {
    if (this.searchable === null || this.searchedVersion !== this.index.version) {
      const changes = this.index.takeChanges();
      if (this.searchable !== null && changes !== null) this.searchable.update(changes, (path) => this.index.get(path));
      else this.searchable = new SearchablePaths(this.index.all());
      this.searchedVersion = this.index.version;
    }
    return this.searchable;
  }

  /** Reads a folder as the tree shows it: a real folder of the project, never through a link (its target may be anywhere). */
  private async fromDisk(folder: string, rules: IgnoreRules): Promise<TreeEntry[]> {
    const absolute = join(this.root, ...folder.split('/'));
    try {
      if ((await realpath(absolute)) !== absolute) throw new FlintFailure('not-a-directory', `${folder} leads through a link: Flint lists links, it does not open them as folders.`);
      return await listFolder(this.root, folder, rules);
    } catch (error) {
      throw toFlintFailure(error, folder);
    }
  }
}
