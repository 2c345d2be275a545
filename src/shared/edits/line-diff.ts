/**
 * What changed between two versions of a file's lines, as regions of the older one.
 *
 * Myers' greedy diff: O((N + M) · D) for D changed lines, so a save that touches a few
 * lines of a large file costs a few passes over it (the LCS of node-diff3 is quadratic in
 * the file, 1–2 s at 40,000 lines). Past `maxChanges` changed lines it stops rather than
 * go quadratic, and calls everything between the common head and tail changed.
 */
import { countWork } from '../work-meter';

/** Lines [start, end) of the older version are now `length` other lines. */
export interface ChangedRegion {
  start: number;
  end: number;
  length: number;
}

/** How many lines two versions share at their start, then at their end (not overlapping the head). */
export function commonEnds(before: readonly string[], after: readonly string[]): { head: number; tail: number } {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head += 1;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail += 1;
  countWork(head + tail + 1);
  return { head, tail };
}

/** The regions of `before` that differ in `after`, in order (one region for all, past `maxChanges` changed lines). */
export function changedRegions(before: readonly string[], after: readonly string[], maxChanges: number): ChangedRegion[] {
  // Saves usually touch one small region: the common head and tail are skipped first.
  const { head, tail } = commonEnds(before, after);
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  countWork(a.length + b.length);
  if (a.length === 0 && b.length === 0) return [];
  if (a.length === 0 || b.length === 0) return [{ start: head, end: head + a.length, length: b.length }];
  const edits = shortestEdits(a, b, maxChanges);
  if (edits === null) return [{ start: head, end: head + a.length, length: b.length }];
  return regionsOf(edits).map((region) => ({ start: region.start + head, end: region.end + head, length: region.length }));
}

/** One step of an edit script: line `at` of `a` deleted, or a line inserted before it. */
type Edit = { at: number; insert: boolean };

/** The shortest edit script from `a` to `b`, in order; null if it needs more than `maxChanges` steps. */
function shortestEdits(a: readonly string[], b: readonly string[], maxChanges: number): Edit[] | null {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(n + m, maxChanges);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  // trace[d]: v as it was before step d (only the diagonals step d reads).
  const trace: Int32Array[] = [];
  let steps = 0;
  try {
    for (let d = 0; d <= limit; d += 1) {
      trace.push(v.slice(offset - d - 1, offset + d + 2));
      steps += 2 * d + 3;
      for (let k = -d; k <= d; k += 2) {
        const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
        let x = down ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
        let y = x - k;
        const snakeFrom = x;
        while (x < n && y < m && a[x] === b[y]) {
          x += 1;
          y += 1;
        }
        steps += x - snakeFrom;
        v[offset + k] = x;
        if (x >= n && y >= m) return backtrack(trace, d, n, m);
      }
    }
    return null;
  } finally {
    countWork(steps);
  }
}

/** Walks the trace back from (n, m) to (0, 0), collecting the edits. */
function backtrack(trace: readonly Int32Array[], steps: number, n: number, m: number): Edit[] {
  const edits: Edit[] = [];
  let x = n;
  let y = m;
  countWork(n + m + steps);
  for (let d = steps; d > 0; d -= 1) {
    const saved = trace[d]!;
    // saved[i] holds diagonal k = i - d - 1.
    const at = (k: number): number => saved[k + d + 1]!;
    const k = x - y;
    const previousK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x -= 1;
      y -= 1;
    }
    edits.push({ at: previousX, insert: x === previousX });
    x = previousX;
    y = previousY;
  }
  return edits.reverse();
}

/** Merges an edit script into regions: runs of deletions and insertions at one place. */
function regionsOf(edits: readonly Edit[]): ChangedRegion[] {
  const regions: ChangedRegion[] = [];
  let current: ChangedRegion | null = null;
  for (const edit of edits) {
    if (current !== null && edit.at === current.end) {
      if (edit.insert) current.length += 1;
      else current.end += 1;
      continue;
    }
    if (current !== null) regions.push(current);
    current = edit.insert ? { start: edit.at, end: edit.at, length: 1 } : { start: edit.at, end: edit.at + 1, length: 0 };
  }
  if (current !== null) regions.push(current);
  return regions;
}
