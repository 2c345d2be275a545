/**
 * The renderer's part of the project tree, and the flattened rows a virtual list draws.
 *
 * Lazy: it holds the top level and the folders the user opened, each listed by main as it
 * opens (a million-file project never crosses the socket whole). Changes in a folder not
 * listed are dropped: its listing, when it comes, is newer than they are. Mutable on
 * purpose: each batch of changes updates it in place, and only the folders touched re-sort.
 * `version` ticks on every change so React knows when to recompute rows.
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
  /** Folders whose children are here ('' once the top level is). */
  private readonly listed = new Set<string>();
  version = 0;
  /** Ticks on every load: a listing asked for before it belongs to an older tree. */
  generation = 0;

  get size(): number {
    return this.entries.size;
  }

  get(path: string): TreeEntry | undefined {
    return this.entries.get(path);
  }

  /** Replaces everything with a new top level (open folders are listed again). */
  load(topLevel: readonly TreeEntry[]): void {
    this.entries.clear();
    this.children.clear();
    this.sorted.clear();
    this.listed.clear();
    for (const entry of topLevel) this.put(entry);
    this.listed.add('');
    this.version += 1;
    this.generation += 1;
  }

  /** Applies a batch of live changes in order. */
  apply(changes: readonly TreeChange[]): void {
    for (const change of changes) {
      switch (change.type) {
        case 'added':
          this.remove(change.entry.path);
          if (this.listed.has(parentPath(change.entry.path))) this.put(change.entry);
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

  /**
   * A folder's children as main listed them (for the tree of `generation`): they replace what
   * was known. A folder gone since, or a listing for an older tree, changes nothing.
   */
  addListed(folder: string, children: readonly TreeEntry[], generation = this.generation): void {
    if (generation !== this.generation || (folder !== '' && this.entries.get(folder)?.kind !== 'directory')) return;
    const fresh = new Set(children.map((entry) => entry.path));
    for (const known of [...(this.children.get(folder) ?? [])]) if (!fresh.has(known)) this.remove(known);
    for (const entry of children) {
      const known = this.entries.get(entry.path);
      // Replaced only if it changed: a listed subfolder keeps its children.
      if (known && known.kind === entry.kind && known.unlisted === entry.unlisted) this.entries.set(entry.path, entry);
      else {
        this.remove(entry.path);
        this.put(entry);
      }
    }
    this.sorted.delete(folder);
    this.listed.add(folder);
    this.version += 1;
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** Whether a folder's children must be fetched before it can be shown expanded. */
  needsListing(entry: TreeEntry): boolean {
    return entry.kind === 'directory' && entry.unlisted !== 'permission-denied' && entry.unlisted !== 'error' && !this.listed.has(entry.path);
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
    for (const listed of [...this.listed]) if (listed !== '' && isSameOrBelow(listed, path)) this.listed.delete(listed);
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
