/**
 * The index as the tree's filter and `@` completion search it, a million paths per
 * keystroke: each path lower-cased once, with a mask of the characters it holds (a path
 * lacking one of the query's characters is passed over unread) and whether `@` may name it.
 *
 * Kept up to date from the index's journal of changed paths: a change costs one pass over
 * these arrays, not a million lower-cased strings made again (a second and more on a busy
 * main, for every keystroke after any save).
 */
import type { TreeEntry } from '../../shared/project-types';

export class SearchablePaths {
  entries: TreeEntry[] = [];
  lower: string[] = [];
  /** Per entry (the arrays may be longer than `entries`: room to grow). */
  masks = new Uint32Array(0);
  /** 1 where `@` may name the entry. */
  mentionable = new Uint8Array(0);

  constructor(entries: Iterable<TreeEntry>) {
    this.replace([...entries]);
  }

  /**
   * Made a slice at a time, main's other work going on between slices (a million paths take
   * most of a second); null as soon as `isUnwanted` says so.
   */
  static async sliced(entries: TreeEntry[], isUnwanted: () => boolean, slice = 25_000): Promise<SearchablePaths | null> {
    const made = new SearchablePaths([]);
    made.entries = entries;
    made.lower = [];
    made.masks = new Uint32Array(entries.length);
    made.mentionable = new Uint8Array(entries.length);
    for (let start = 0; start < entries.length; start += slice) {
      await new Promise((resolve) => setImmediate(resolve));
      if (isUnwanted()) return null;
      made.fill(start, Math.min(entries.length, start + slice));
    }
    return made;
  }

  get size(): number {
    return this.entries.length;
  }

  /** `changed` paths are dropped, and what the index holds for each now (`current`) is added: one pass, in place. */
  update(changed: ReadonlySet<string>, current: (path: string) => TreeEntry | undefined): void {
    const { entries, lower, masks, mentionable } = this;
    let size = 0;
    for (let index = 0; index < entries.length; index += 1) {
      if (changed.has(entries[index]!.path)) continue;
      entries[size] = entries[index]!;
      lower[size] = lower[index]!;
      masks[size] = masks[index]!;
      mentionable[size] = mentionable[index]!;
      size += 1;
    }
    entries.length = size;
    lower.length = size;
    for (const path of changed) {
      const entry = current(path);
      if (entry) this.append(entry);
    }
  }

  private append(entry: TreeEntry): void {
    const at = this.entries.length;
    if (at >= this.masks.length) {
      // Room for a few thousand more at once: a stream of saves does not copy the arrays each time.
      const grown = at + 4096;
      this.masks = copyInto(new Uint32Array(grown), this.masks);
      this.mentionable = copyInto(new Uint8Array(grown), this.mentionable);
    }
    const lower = entry.path.toLowerCase();
    this.entries.push(entry);
    this.lower.push(lower);
    this.masks[at] = maskOf(lower);
    this.mentionable[at] = isMentionable(entry) ? 1 : 0;
  }

  private replace(entries: TreeEntry[]): void {
    this.entries = entries;
    this.lower = [];
    this.masks = new Uint32Array(entries.length);
    this.mentionable = new Uint8Array(entries.length);
    this.fill(0, entries.length);
  }

  /** Works out entries `from` to `to`, in order after those before (`lower` is pushed to: a packed array is faster to search). */
  private fill(from: number, to: number): void {
    for (let index = from; index < to; index += 1) {
      const entry = this.entries[index]!;
      const lower = entry.path.toLowerCase();
      this.lower.push(lower);
      this.masks[index] = maskOf(lower);
      this.mentionable[index] = isMentionable(entry) ? 1 : 0;
    }
  }
}

function copyInto<T extends Uint32Array | Uint8Array>(target: T, source: T): T {
  target.set(source);
  return target;
}

/** The files a mention can name: files and links to files inside the project, not hidden ones. */
export function isMentionable(entry: TreeEntry): boolean {
  if (entry.ignored) return false;
  return entry.kind === 'file' || (entry.kind === 'symlink' && entry.symlink?.targetKind === 'file' && !entry.symlink.escapes);
}

/** One bit per ASCII letter, one for any digit, one each for `/`, `.` and `-`/`_`, one for anything else. */
export function maskOf(text: string): number {
  let mask = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 97 && code <= 122) mask |= 1 << (code - 97);
    else if (code >= 48 && code <= 57) mask |= 1 << 26;
    else if (code === 47) mask |= 1 << 27;
    else if (code === 46) mask |= 1 << 28;
    else if (code === 45 || code === 95) mask |= 1 << 29;
    else mask |= 1 << 30;
  }
  return mask >>> 0;
}
