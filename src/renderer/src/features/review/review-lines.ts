/**
 * A hunk's lines as the reviewer reads them: reduced to what really changes, with word
 * marks between a removed line and the added line that replaces it.
 *
 * Search/replace blocks remove every line they quote and add back every line they keep;
 * shown as they arrive, an unchanged line would read as removed and re-added. Each run of
 * removed and added lines is diffed (Myers, src/shared/edits/line-diff.ts): a line in both
 * is shown once, as context. Every line keeps the index of the hunk line it came from, so a
 * selection of shown lines names the hunk's own lines when some of them are accepted.
 */
import type { HunkLine } from '../../../../shared/edits/edit-types';
import { changedRegions } from '../../../../shared/edits/line-diff';

export interface ReviewLine {
  kind: HunkLine['kind'];
  text: string;
  /** The hunk line it shows (for a line both removed and added unchanged: the removed one). */
  index: number;
}

/** Past this many changed lines in one run, the diff calls the rest changed rather than go slow. */
const MAX_CHANGES = 2_000;

export function reviewLinesOf(lines: readonly HunkLine[]): ReviewLine[] {
  const shown: ReviewLine[] = [];
  let at = 0;
  while (at < lines.length) {
    if (lines[at]!.kind === 'context') {
      shown.push({ kind: 'context', text: lines[at]!.text, index: at });
      at += 1;
      continue;
    }
    let end = at;
    while (end < lines.length && lines[end]!.kind !== 'context') end += 1;
    shown.push(...reducedRun(lines, at, end));
    at = end;
  }
  return shown;
}

/** One run of removed and added lines (lines[from, to)), with the lines both sides share shown once. */
function reducedRun(lines: readonly HunkLine[], from: number, to: number): ReviewLine[] {
  const removed: number[] = [];
  const added: number[] = [];
  for (let index = from; index < to; index += 1) (lines[index]!.kind === 'remove' ? removed : added).push(index);
  const before = removed.map((index) => lines[index]!.text);
  const after = added.map((index) => lines[index]!.text);
  const shown: ReviewLine[] = [];
  let old = 0;
  let next = 0;
  const keep = (until: number): void => {
    for (; old < until; old += 1, next += 1) shown.push({ kind: 'context', text: before[old]!, index: removed[old]! });
  };
  for (const region of changedRegions(before, after, MAX_CHANGES)) {
    keep(region.start);
    for (; old < region.end; old += 1) shown.push({ kind: 'remove', text: before[old]!, index: removed[old]! });
    for (const stop = next + region.length; next < stop; next += 1) shown.push({ kind: 'add', text: after[next]!, index: added[next]! });
  }
  keep(before.length);
  return shown;
}

/** How many lines a hunk adds and removes, as shown (+/−). */
export function changeCounts(lines: readonly ReviewLine[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.kind === 'add') added += 1;
    else if (line.kind === 'remove') removed += 1;
  }
  return { added, removed };
}

/**
 * The span of `after` that differs from `before` (common prefix and suffix skipped), for
 * word marks: [start, end) in each.
 */
export function changedSpan(before: string, after: string): { before: [number, number]; after: [number, number] } | null {
  if (before === after) return null;
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head += 1;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail += 1;
  return { before: [head, before.length - tail], after: [head, after.length - tail] };
}
