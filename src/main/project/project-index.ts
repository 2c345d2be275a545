/**
 * A project's entries by path, with each folder's children and (built on first use) the
 * files of each name: what the tree, bare-name resolution and the current-file lookup read.
 */
import { baseName, parentPath } from '../../shared/paths';
import type { TreeEntry } from '../../shared/project-types';

/** Past this many changes, working out again from the whole index is as cheap as following them. */
const JOURNAL_LIMIT = 50_000;

export class ProjectIndex {
  private readonly entries = new Map<string, TreeEntry>();
  /** Folder path ('' for the root) → paths of its children. */
  private readonly children = new Map<string, Set<string>>();
  /** File name → the indexed files of that name; built on first use after a reset. */
  private byName: Map<string, string[]> | null = null;
  /** Ticks on every change: what is worked out from the whole index is kept until it moves. */
  version = 0;
  /** Paths set or deleted since the journal was last taken; 'rebuild' after a reset, or too many to be worth it. */
  private journal: Set<string> | 'rebuild' = 'rebuild';

  get size(): number {
    return this.entries.size;
  }

  get(path: string): TreeEntry | undefined {
    return this.entries.get(path);
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  paths(): string[] {
    return [...this.entries.keys()];
  }

  values(): TreeEntry[] {
    return [...this.entries.values()];
  }

  /** Every entry, in no order, without a copy (a search reads a million of them once). */
  all(): IterableIterator<TreeEntry> {
    return this.entries.values();
  }

  /** The entries directly inside `folder` ('' for the root), in no order. */
  childrenOf(folder: string): TreeEntry[] {
    return [...(this.children.get(folder) ?? [])].map((path) => this.entries.get(path)!);
  }

  /** Whether `path` is a folder whose entries the index holds (not hidden, not unreadable). */
  isListedFolder(path: string): boolean {
    const entry = this.entries.get(path);
    return entry?.kind === 'directory' && entry.unlisted === undefined;
  }

  /** Every path below `folder` (not itself), in no order. */
  pathsBelow(folder: string): string[] {
    const paths: string[] = [];
    const walk = (parent: string): void => {
      for (const child of this.children.get(parent) ?? []) {
        paths.push(child);
        walk(child);
      }
    };
    walk(folder);
    return paths;
  }

  /** The indexed files (and links) called `name`, wherever they are. */
  filesNamed(name: string): readonly string[] {
    if (this.byName === null) {
      this.byName = new Map();
      for (const entry of this.entries.values()) this.name(entry);
    }
    return this.byName.get(name) ?? [];
  }

  /**
   * The paths set or deleted since the last call, or null when what was worked out from the
   * index must be made again (the first call, after a reset, or past JOURNAL_LIMIT changes).
   */
  takeChanges(): ReadonlySet<string> | null {
    const taken = this.journal;
    this.journal = new Set();
    return taken === 'rebuild' ? null : taken;
  }

  /** Replaces everything with `entries`. */
  reset(entries: TreeEntry[]): void {
    this.journal = 'rebuild';
    this.entries.clear();
    this.children.clear();
    this.byName = null;
    for (const entry of entries) this.set(entry);
    this.version += 1;
  }

  /** Adds or replaces one entry. */
  set(entry: TreeEntry): void {
    this.version += 1;
    this.note(entry.path);
    this.unname(this.entries.get(entry.path));
    this.entries.set(entry.path, entry);
    // Kept up to date rather than rebuilt: the parser asks about prose lines while files churn.
    if (this.byName !== null) this.name(entry);
    const parent = parentPath(entry.path);
    let siblings = this.children.get(parent);
    if (!siblings) this.children.set(parent, (siblings = new Set()));
    siblings.add(entry.path);
  }

  /** Removes an entry and everything below it. */
  delete(path: string): void {
    this.version += 1;
    const drop = (target: string): void => {
      this.note(target);
      this.unname(this.entries.get(target));
      this.entries.delete(target);
      for (const child of this.children.get(target) ?? []) drop(child);
      this.children.delete(target);
    };
    drop(path);
    this.children.get(parentPath(path))?.delete(path);
  }

  /**
   * What a fresh scan says changed since: paths no longer there, entries new or different.
   * Paths in `newer` (and below them) are left alone: the watcher reported them after the scan began.
   */
  differencesFrom(entries: readonly TreeEntry[], newer: ReadonlySet<string>): { removed: string[]; changed: TreeEntry[] } {
    const isNewer = (path: string): boolean => newer.size > 0 && isSameOrBelowAny(path, newer);
    const fresh = new Set(entries.map((entry) => entry.path));
    const removed = [...this.entries.keys()].filter((path) => !fresh.has(path) && !isNewer(path));
    const changed = entries.filter((entry) => {
      const known = this.entries.get(entry.path);
      return (!known || !sameEntry(known, entry)) && !isNewer(entry.path);
    });
    return { removed, changed };
  }

  private note(path: string): void {
    if (this.journal === 'rebuild') return;
    this.journal.add(path);
    if (this.journal.size > JOURNAL_LIMIT) this.journal = 'rebuild';
  }

  private name(entry: TreeEntry): void {
    if (this.byName === null || entry.kind === 'directory') return;
    const named = this.byName.get(baseName(entry.path));
    if (named) named.push(entry.path);
    else this.byName.set(baseName(entry.path), [entry.path]);
  }

  /** Takes an entry out of the by-name map (if it is built). */
  private unname(entry: TreeEntry | undefined): void {
    if (!entry || this.byName === null || entry.kind === 'directory') return;
    const name = baseName(entry.path);
    const named = this.byName.get(name)?.filter((path) => path !== entry.path) ?? [];
    if (named.length > 0) this.byName.set(name, named);
    else this.byName.delete(name);
  }
}

/** Whether `path` is one of `paths` or lies below one of them. */
function isSameOrBelowAny(path: string, paths: ReadonlySet<string>): boolean {
  for (let at = path.length; at > 0; at = path.lastIndexOf('/', at - 1)) {
    if (paths.has(path.slice(0, at))) return true;
  }
  return false;
}

/** Whether two entries of a path would be shown alike. */
export function sameEntry(a: TreeEntry, b: TreeEntry): boolean {
  return (
    a.kind === b.kind &&
    a.ignored === b.ignored &&
    a.unlisted === b.unlisted &&
    a.symlink?.target === b.symlink?.target &&
    a.symlink?.targetKind === b.symlink?.targetKind
  );
}
