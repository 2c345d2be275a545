/**
 * "The lines I just changed": what one save changed, as line ranges in the new text
 * and as a unified diff for the prompt.
 */
import type { ChangedLines } from '../../shared/ask-types';
import { changedRegions } from '../../shared/edits/line-diff';

/** One changed place: `removed` lines of the old text became `added` lines at `start` (0-based, new text). */
export interface ChangedPlace {
  oldStart: number;
  removed: string[];
  start: number;
  added: string[];
}

export interface RecentChange {
  places: ChangedPlace[];
  /** The span from the first to the last change, 1-based inclusive, in the new text. */
  lines: ChangedLines;
}

/** Beyond this many changed lines a save is one big change: a finer diff would cost more than it tells. */
const MAX_DIFFED_LINES = 4000;
const CONTEXT_LINES = 3;

/** What changed from `before` to `after`; null when nothing did. */
export function describeChange(before: readonly string[], after: readonly string[]): RecentChange | null {
  const regions = changedRegions(before, after, MAX_DIFFED_LINES);
  if (regions.length === 0) return null;
  let shift = 0;
  const places: ChangedPlace[] = regions.map((region) => {
    const start = region.start + shift;
    shift += region.length - (region.end - region.start);
    return { oldStart: region.start, removed: before.slice(region.start, region.end), start, added: after.slice(start, start + region.length) };
  });
  const first = places[0]!;
  const last = places.at(-1)!;
  // A pure deletion has no new lines: point at the line after it (or the last line).
  const startLine = Math.min(first.start + 1, Math.max(after.length, 1));
  const endLine = Math.max(startLine, Math.min(last.start + last.added.length, Math.max(after.length, 1)));
  return {
    places,
    lines: {
      startLine,
      endLine,
      added: places.reduce((sum, place) => sum + place.added.length, 0),
      removed: places.reduce((sum, place) => sum + place.removed.length, 0),
      places: places.length,
    },
  };
}

/** The change as a unified diff with a little context, nearby places merged into one hunk. */
export function unifiedDiff(path: string, change: RecentChange, after: readonly string[]): string {
  const out = [`--- a/${path}`, `+++ b/${path}`];
  let index = 0;
  while (index < change.places.length) {
    // Group places whose context would overlap.
    let end = index;
    while (end + 1 < change.places.length && change.places[end + 1]!.start - (change.places[end]!.start + change.places[end]!.added.length) <= CONTEXT_LINES * 2) end += 1;
    const group = change.places.slice(index, end + 1);
    const from = Math.max(0, group[0]!.start - CONTEXT_LINES);
    const lastPlace = group.at(-1)!;
    const to = Math.min(after.length, lastPlace.start + lastPlace.added.length + CONTEXT_LINES);
    const body: string[] = [];
    let cursor = from;
    let oldCount = 0;
    for (const place of group) {
      for (; cursor < place.start; cursor += 1, oldCount += 1) body.push(` ${after[cursor]}`);
      for (const line of place.removed) body.push(`-${line}`);
      for (const line of place.added) body.push(`+${line}`);
      oldCount += place.removed.length;
      cursor = place.start + place.added.length;
    }
    for (; cursor < to; cursor += 1, oldCount += 1) body.push(` ${after[cursor]}`);
    const oldFrom = group[0]!.oldStart - (group[0]!.start - from);
    // An empty range starts at the line before it (0 at the top), as diff(1) writes it.
    const newCount = to - from;
    out.push(`@@ -${oldCount === 0 ? oldFrom : oldFrom + 1},${oldCount} +${newCount === 0 ? from : from + 1},${newCount} @@`);
    // A loop, not a spread: a save can change a hundred thousand lines.
    for (const line of body) out.push(line);
    index = end + 1;
  }
  return out.join('\n');
}
