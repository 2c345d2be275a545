/**
 * Where a hunk lands in a file's current text, without writing: a splice of the current
 * lines, or why there is none.
 *
 * A hunk stands on the version of the file it was proposed on. If the file still holds
 * those lines, the hunk is anchored there. If the user changed the file since, the hunk
 * is anchored on its own version and carried over: moved past the user's changes when
 * none touches its lines (the common case, costing a lookup), else merged 3-way, and a
 * hunk that does not merge cleanly is a conflict — the user's text always wins.
 */
import { diff3Merge } from 'node-diff3';
import { anchorHunk, type AnchorResult, type Tolerance } from '../../shared/edits/anchor-hunk';
import type { HunkLine } from '../../shared/edits/edit-types';
import { commonEnds } from '../../shared/edits/line-diff';
import { placesOfAdded } from '../../shared/edits/line-pairs';
import type { Splice } from '../fs/file-text';
import type { ChangedRegion, FileVersion } from './file-version';

export interface HunkToApply {
  path: string;
  lines: readonly HunkLine[];
  contextHints?: readonly string[];
  atEndOfFile?: boolean;
  /** The file as the hunk was proposed on; null if unknown (then it is anchored on whatever the file holds). */
  base: FileVersion | null;
  /**
   * A search/replace block with an empty SEARCH: it creates the file when there is none
   * (else it is appended, like any hunk that names no place).
   */
  createIfMissing?: boolean;
}

export type HunkPlan =
  | {
      status: 'planned';
      splice: Splice;
      tolerances: Tolerance[];
      /** Carried over changes made since the hunk was proposed (moved past them, or merged 3-way). */
      merged: boolean;
      /** How: anchored on this text, moved past the changes, or merged 3-way with them. */
      via: 'direct' | 'moved' | 'merged';
      /** 1-based line of the current text where the hunk lands. */
      anchorLine: number;
      /** The hunk named no place and goes at the end of the file. */
      appended: boolean;
    }
  | { status: 'unmatched'; message: string }
  | { status: 'conflict'; message: string };

type Anchored = Extract<AnchorResult, { status: 'anchored' }>;

/** Plans `hunk` on the file's current version (see the header). */
export function planHunk(current: FileVersion, hunk: HunkToApply, path: string): HunkPlan {
  const base = hunk.base;
  const direct = base === null || base.sameLinesAs(current);
  const anchored = anchorHunk(direct ? current.anchorable : base.anchorable, hunk);
  if (anchored.status !== 'anchored') return unmatched(path, anchored.reason);
  if (direct) return planned(anchored, anchored, 'direct');
  if (anchored.placement === 'appended') {
    // "At the end" is wherever the end is now.
    const end = current.lines.length;
    return planned({ start: end, end, replacement: anchored.replacement }, anchored, 'moved');
  }
  const moved = current.mapRange(base, anchored.start, anchored.end);
  if (moved) {
    // The lines it keeps moved with it: their endings are read where they are now.
    const shift = moved.start - anchored.start;
    const sources = anchored.sources.map((source) => (source === null ? null : source + shift));
    return planned({ ...moved, replacement: anchored.replacement, sources }, anchored, 'moved');
  }
  return mergeThreeWay(current, base, anchored, path);
}

/**
 * The hunk's lines touch lines the user changed: a 3-way merge decides (base → the
 * user's text, base → the hunk applied), over the stretch of the file the hunk and those
 * changes cover, never the whole file (node-diff3 is quadratic in what it is given).
 */
function mergeThreeWay(current: FileVersion, base: FileVersion, anchored: Anchored, path: string): HunkPlan {
  const window = mergeWindow(current.changesSince(base), anchored.start, anchored.end);
  if (window.baseEnd - window.baseStart > MAX_MERGED_LINES) {
    return { status: 'conflict', message: `${path} changed too much around this hunk to merge it safely; ${KEPT_THEIR_TEXT}.` };
  }
  const baseLines = base.lines.slice(window.baseStart, window.baseEnd);
  const theirs = [...base.lines.slice(window.baseStart, anchored.start), ...anchored.replacement, ...base.lines.slice(anchored.end, window.baseEnd)];
  const mine = current.lines.slice(window.currentStart, window.currentEnd);
  const regions = diff3Merge<string>(mine, baseLines, theirs, { excludeFalseConflicts: true });
  if (regions.some((region) => region.conflict)) {
    return { status: 'conflict', message: `${path} changed where this hunk applies; ${KEPT_THEIR_TEXT}.` };
  }
  const stretch = differingStretch(mine, regions.flatMap((region) => region.ok ?? []));
  const start = stretch.start + window.currentStart;
  // Line endings by the same rule as anchoring: a line the merge kept is the same line.
  const places = placesOfAdded(current.lines.slice(start, stretch.end + window.currentStart), stretch.replacement);
  const sources = places.map((place) => (place === null ? null : start + place));
  return planned({ ...stretch, start, end: stretch.end + window.currentStart, sources }, anchored, 'merged');
}

/** How a merge conflict ends its words: said of the user's text (see declineWords for Flint's own). */
export const KEPT_THEIR_TEXT = 'your text was kept and the hunk was not applied';

/** Past this many lines, the stretch to merge is no longer "around the hunk". */
const MAX_MERGED_LINES = 5_000;

/**
 * The stretch of the base the hunk [start, end) and the changes touching it (and those
 * touching them) cover, and where that stretch is in the current text.
 */
function mergeWindow(changes: readonly ChangedRegion[], start: number, end: number): { baseStart: number; baseEnd: number; currentStart: number; currentEnd: number } {
  let [baseStart, baseEnd] = [start, end];
  const included = new Set<ChangedRegion>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const region of changes) {
      if (included.has(region) || region.end < baseStart || region.start > baseEnd) continue;
      included.add(region);
      [baseStart, baseEnd] = [Math.min(baseStart, region.start), Math.max(baseEnd, region.end)];
      grew = true;
    }
  }
  const delta = (region: ChangedRegion): number => region.length - (region.end - region.start);
  const before = changes.filter((region) => !included.has(region) && region.start < baseStart).reduce((total, region) => total + delta(region), 0);
  const inside = [...included].reduce((total, region) => total + delta(region), 0);
  return { baseStart, baseEnd, currentStart: baseStart + before, currentEnd: baseEnd + before + inside };
}

/** The one stretch where `after` differs from `before`, as a splice of `before` (untouched lines keep their line endings). */
function differingStretch(before: readonly string[], after: readonly string[]): Splice {
  const { head, tail } = commonEnds(before, after);
  return { start: head, end: before.length - tail, replacement: after.slice(head, after.length - tail) };
}

function planned(splice: Splice, anchored: Anchored, via: 'direct' | 'moved' | 'merged'): HunkPlan {
  return { status: 'planned', splice, tolerances: anchored.tolerances, merged: via !== 'direct', via, anchorLine: splice.start + 1, appended: anchored.placement === 'appended' };
}

/** Why a hunk has no place, in words that say Flint chose not to guess. */
export function unmatched(path: string, reason: 'not-found' | 'ambiguous' | 'empty'): Extract<HunkPlan, { status: 'unmatched' }> {
  switch (reason) {
    case 'ambiguous':
      return { status: 'unmatched', message: `The hunk's text appears more than once in ${path}; Flint applies a hunk only where it matches exactly one place (never the first match), so it was not applied.` };
    case 'empty':
      return { status: 'unmatched', message: `The hunk has no lines to locate it by in ${path}; it was not applied.` };
    case 'not-found':
      return { status: 'unmatched', message: `The hunk's text is not in ${path} (Flint tolerates whitespace, quotes, dashes, indentation and blank lines, never a changed or skipped line); it was not applied.` };
    default: {
      const exhaustive: never = reason;
      return exhaustive;
    }
  }
}

/**
 * Which of several plans on one text can land together: each hunk, in the answer's order,
 * claims its lines unless an earlier hunk claimed some of them (an insertion claims only
 * its point, so it may sit at either edge of another hunk's lines). Those that land
 * together come back in text order, ready to splice (insertions before a replacement
 * starting at their point); the others must be planned again on the text the first leave.
 */
export function nonOverlapping<T extends { splice: Splice; order: number }>(plans: readonly T[]): { together: T[]; overlapping: T[] } {
  const claimed: T[] = [];
  const overlapping: T[] = [];
  for (const plan of [...plans].sort((a, b) => a.order - b.order)) {
    // Claimed stays sorted by start: only the neighbours of the insertion point can overlap.
    const at = insertionPoint(claimed, plan);
    if (overlaps(claimed[at - 1], plan) || overlaps(claimed[at], plan)) overlapping.push(plan);
    else claimed.splice(at, 0, plan);
  }
  return { together: claimed, overlapping };
}

/** Where `plan` goes in `sorted` (by start; at one point, insertions first, then by order). */
function insertionPoint<T extends { splice: Splice; order: number }>(sorted: readonly T[], plan: T): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (textOrder(sorted[middle]!, plan) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function textOrder(a: { splice: Splice; order: number }, b: { splice: Splice; order: number }): number {
  return a.splice.start - b.splice.start || spliceWidth(a) - spliceWidth(b) || a.order - b.order;
}

/** Whether two splices share a line (or an insertion falls strictly inside the other's lines). */
function overlaps(a: { splice: Splice } | undefined, b: { splice: Splice }): boolean {
  if (!a) return false;
  const [x, y] = [a.splice, b.splice];
  if (x.start === x.end || y.start === y.end) {
    const [point, range] = x.start === x.end ? [x.start, y] : [y.start, x];
    return range.start < point && point < range.end;
  }
  return x.start < y.end && y.start < x.end;
}

const spliceWidth = (plan: { splice: Splice }): number => (plan.splice.end > plan.splice.start ? 1 : 0);
