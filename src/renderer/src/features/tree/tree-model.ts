/**
 * The renderer's copy of the project tree, and the flattened rows a virtual list draws.
 *
 * Mutable on purpose: a 50,000-entry tree is updated in place by each batch of
 * changes, and only the folders touched re-sort. `version` ticks on every change so
 * React knows when to recompute rows.
 */
import { baseName, isSameOrBelow, parentPath } from '../../../../shared/paths';
import type { TreeChange, TreeEntry } from '../../../../shared/project-types';

/** One visible line of the tree. */
export interface TreeRow {
  entry: TreeEntry;
  name: string;
  /** 1 for top-level entries (aria-level). */
  depth: number;
  /** Folders only: whether its children are shown. */
  isExpanded: boolean;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export class TreeModel {
  private readonly entries = new Map<string, TreeEntry>();
  /** Folder ('' is the root) → child paths. */
  private readonly children = new Map<string, Set<string>>();
  /** Folder → children sorted for display; dropped when the folder changes. */
  private readonly sorted = new Map<string, TreeEntry[]>();
  /** Hidden folders whose children were fetched on demand. */
  private readonly listedOnDemand = new Set<string>();
  version = 0;

  get size(): number {
    return this.entries.size;
  }

  get(path: string): TreeEntry | undefined {
    return this.entries.get(path);
  }

  /** Replaces everything with a full tree. */
  load(entries: readonly TreeEntry[]): void {
    this.entries.clear();
    this.children.clear();
    this.sorted.clear();
    this.listedOnDemand.clear();
    for (const entry of entries) this.put(entry);
    this.version += 1;
  }

  /** Applies a batch of live changes in order. */
  apply(changes: readonly TreeChange[]): void {
    for (const change of changes) {
      switch (change.type) {
        case 'added':
          this.remove(change.entry.path);
          this.put(change.entry);
          break;
        case 'removed':
          this.remove(change.path);
          break;
        case 'modified':
          break;
        default: {
          const exhaustive: never = change;
          throw new Error(`unknown change ${JSON.stringify(exhaustive)}`);
        }
      }
    }
    this.version += 1;
  }

  /** Adds the children of a hidden folder fetched with `listDirectory`. */
  addListed(folder: string, entries: readonly TreeEntry[]): void {
    for (const entry of entries) if (!this.entries.has(entry.path)) this.put(entry);
    this.listedOnDemand.add(folder);
    this.version += 1;
  }

  /** Whether a folder's children must be fetched before it can be shown expanded. */
  /** Whether the tree has an entry at `path`. */
  /** Every entry, in no particular order (the ask bar's `@` completion filters and ranks them). */
  allEntries(): IterableIterator<TreeEntry> {
    return this.entries.values();
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  needsListing(entry: TreeEntry): boolean {
    return entry.unlisted === 'ignored' && !this.listedOnDemand.has(entry.path);
  }

  /** The rows to draw: expanded folders' children, depth first, folders before files. */
  visibleRows(expanded: ReadonlySet<string>, showIgnored: boolean): TreeRow[] {
    const rows: TreeRow[] = [];
    const visit = (folder: string, depth: number): void => {
      for (const entry of this.sortedChildren(folder)) {
        if (entry.ignored && !showIgnored) continue;
        const isExpanded = entry.kind === 'directory' && expanded.has(entry.path);
        rows.push({ entry, name: baseName(entry.path), depth, isExpanded });
        if (isExpanded) visit(entry.path, depth + 1);
      }
    };
    visit('', 1);
    return rows;
  }

  /** Files whose path contains `query` (case-insensitive), as flat rows in path order, the first `limit`. */
  filterRows(query: string, showIgnored: boolean, limit: number): TreeRow[] {
    const needle = query.toLowerCase();
    const matches: TreeEntry[] = [];
    for (const entry of this.entries.values()) {
      if (entry.kind === 'directory' || (entry.ignored && !showIgnored)) continue;
      if (entry.path.toLowerCase().includes(needle)) matches.push(entry);
    }
    matches.sort((a, b) => collator.compare(a.path, b.path));
    return matches.slice(0, limit).map((entry) => ({ entry, name: entry.path, depth: 1, isExpanded: false }));
  }

  private sortedChildren(folder: string): TreeEntry[] {
    let list = this.sorted.get(folder);
    if (!list) {
      list = [...(this.children.get(folder) ?? [])].map((path) => this.entries.get(path)!);
      list.sort(compareEntries);
      this.sorted.set(folder, list);
    }
    return list;
  }

  private put(entry: TreeEntry): void {
    this.entries.set(entry.path, entry);
    const parent = parentPath(entry.path);
    let siblings = this.children.get(parent);
    if (!siblings) this.children.set(parent, (siblings = new Set()));
    siblings.add(entry.path);
    this.sorted.delete(parent);
  }

  private remove(path: string): void {
    if (!this.entries.has(path)) return;
    const drop = (target: string): void => {
      this.entries.delete(target);
      for (const child of this.children.get(target) ?? []) drop(child);
      this.children.delete(target);
      this.sorted.delete(target);
    };
    drop(path);
    for (const listed of [...this.listedOnDemand]) if (isSameOrBelow(listed, path)) this.listedOnDemand.delete(listed);
    const parent = parentPath(path);
    this.children.get(parent)?.delete(path);
    this.sorted.delete(parent);
  }
}

function compareEntries(a: TreeEntry, b: TreeEntry): number {
  const aFolder = a.kind === 'directory' ? 0 : 1;
  const bFolder = b.kind === 'directory' ? 0 : 1;
  return aFolder - bFolder || collator.compare(baseName(a.path), baseName(b.path));
}
