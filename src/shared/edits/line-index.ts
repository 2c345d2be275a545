/**
 * Where a hunk's lines sit in a file, found without scanning the file per hunk.
 *
 * An answer may hold a thousand hunks for one file: matching each by a pass over the
 * whole file is hunks × lines. A LineIndex is built once per file version (and
 * normalization), in one pass plus a radix sort (linear), and then a hunk costs its own
 * lines plus the places its rarest line occurs. When even its rarest line is so common
 * that checking every place would cost more than a scan (a hunk of `}` and blank lines),
 * the search falls back to the linear scan (Knuth–Morris–Pratt): never worse than before.
 */
import { countWork } from '../work-meter';
import { occurrences } from './linear-search';

/** Characters of a line hashed from its start, and from its end: past both, only its length counts (see hashLine). */
const HASHED_HEAD = 16;
const HASHED_TAIL = 16;

/**
 * FNV-1a over a line's first HASHED_HEAD and last HASHED_TAIL UTF-16 code units and its
 * length: cheap, bounded per line (a minified line of a megabyte costs what a short one
 * does), and only ever a filter — candidates are compared whole.
 */
function hashLine(line: string): number {
  const length = line.length;
  const head = Math.min(length, HASHED_HEAD);
  const tail = Math.max(head, length - HASHED_TAIL);
  countWork(head + (length - tail) + 1);
  let hash = 0x811c9dc5 ^ length;
  for (let index = 0; index < head; index += 1) hash = Math.imul(hash ^ line.charCodeAt(index), 0x01000193);
  for (let index = tail; index < length; index += 1) hash = Math.imul(hash ^ line.charCodeAt(index), 0x01000193);
  // As an int32, like the Int32Array it is compared with.
  return hash | 0;
}

/**
 * Line numbers sorted by (hash, line number): a least-significant-digit radix sort, a byte
 * per pass, stable, so equal hashes keep file order. Signed order, as the Int32Array compares.
 */
function sortedByHash(hashes: Int32Array): Int32Array {
  let order = new Int32Array(hashes.length);
  for (let index = 0; index < order.length; index += 1) order[index] = index;
  let next = new Int32Array(hashes.length);
  const starts = new Int32Array(256);
  for (let shift = 0; shift < 32; shift += 8) {
    starts.fill(0);
    // The sign bit flipped: negative hashes sort first.
    for (let line = 0; line < hashes.length; line += 1) {
      const digit = ((hashes[line]! ^ 0x80000000) >>> shift) & 255;
      starts[digit] = starts[digit]! + 1;
    }
    let start = 0;
    for (let digit = 0; digit < 256; digit += 1) {
      const count = starts[digit]!;
      starts[digit] = start;
      start += count;
    }
    for (let index = 0; index < order.length; index += 1) {
      const line = order[index]!;
      const digit = ((hashes[line]! ^ 0x80000000) >>> shift) & 255;
      next[starts[digit]!] = line;
      starts[digit] = starts[digit]! + 1;
    }
    [order, next] = [next, order];
  }
  countWork(4 * (2 * order.length + 256));
  return order;
}

export class LineIndex {
  /** Line numbers sorted by (hash, line number): equal lines sit together, in file order. */
  private readonly order: Int32Array;
  private readonly sortedHashes: Int32Array;

  constructor(readonly lines: readonly string[]) {
    const hashes = new Int32Array(lines.length);
    for (let index = 0; index < lines.length; index += 1) hashes[index] = hashLine(lines[index]!);
    const order = sortedByHash(hashes);
    this.order = order;
    this.sortedHashes = new Int32Array(order.length);
    for (let index = 0; index < order.length; index += 1) this.sortedHashes[index] = hashes[order[index]!]!;
  }

  /**
   * Every start ≥ `from` where `needle` occurs as consecutive lines, in increasing order,
   * overlapping ones included; lazily (a caller that needs two stops after two).
   */
  *matches(needle: readonly string[], from: number): Generator<number> {
    const span = this.lines.length - from;
    if (needle.length === 0 || needle.length > span) return;
    // Checking more places than this costs more than one linear scan.
    const worthChecking = Math.floor(span / needle.length);
    const rarest = this.rarest(needle, worthChecking);
    if (rarest === null) {
      for (const start of occurrences(this.lines, needle, from)) yield start;
      return;
    }
    for (let slot = rarest.first; slot < rarest.end; slot += 1) {
      const start = this.order[slot]! - rarest.offset;
      countWork(1);
      if (start >= from && this.holdsAt(needle, start)) yield start;
    }
  }

  /**
   * The needle's line with the fewest candidate places (at most `limit`), and where those
   * places sit in `order`; null when every line has more. Counting stops at the best so
   * far or the limit, so the whole choice costs at most needle × limit ≤ one scan.
   */
  private rarest(needle: readonly string[], limit: number): { offset: number; first: number; end: number } | null {
    let best: { offset: number; first: number; end: number } | null = null;
    for (let offset = 0; offset < needle.length; offset += 1) {
      const cap = best ? best.end - best.first - 1 : limit;
      const hash = hashLine(needle[offset]!);
      const first = this.lowerBound(hash);
      let end = first;
      while (end < this.sortedHashes.length && this.sortedHashes[end] === hash && end - first <= cap) end += 1;
      countWork(end - first + Math.ceil(Math.log2(this.sortedHashes.length + 1)));
      if (end - first <= cap) best = { offset, first, end };
      if (best && best.first === best.end) break;
    }
    return best;
  }

  private lowerBound(hash: number): number {
    let low = 0;
    let high = this.sortedHashes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.sortedHashes[middle]! < hash) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private holdsAt(needle: readonly string[], start: number): boolean {
    if (start + needle.length > this.lines.length) return false;
    for (let index = 0; index < needle.length; index += 1) {
      if (this.lines[start + index] !== needle[index]) {
        countWork(index + 1);
        return false;
      }
    }
    countWork(needle.length);
    return true;
  }
}
