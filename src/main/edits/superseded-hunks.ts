/**
 * Hunks a redirect (or a retry) replaced. When a turn is redirected, its hunks not yet decided
 * (complete, settling or cut off) are superseded: left out of Accept all and the A key,
 * still acceptable one by one, with a warning when a newer hunk changes the same lines.
 * Accepted ones stay accepted.
 */
import { isUndecided } from '../../shared/edits/hunk-state';
import type { HunkState } from '../../shared/edits/hunk-types';
import type { HunkRecord } from './edit-records';

/** States in which a hunk's lines are (or are about to be) what the file holds. */
const LIVE: ReadonlySet<HunkState> = new Set(['pending', 'applying', 'accepted']);

/** Marks the undecided hunks of `turns` (those a redirect or a retry replaced) superseded; returns those it marked. */
export function supersede(order: readonly HunkRecord[], turns: ReadonlySet<number>): HunkRecord[] {
  const marked: HunkRecord[] = [];
  for (const hunk of order) {
    if (!turns.has(hunk.turn) || hunk.superseded || !(isUndecided(hunk.state) || hunk.state === 'streaming')) continue;
    hunk.superseded = true;
    marked.push(hunk);
  }
  return marked;
}

/** How many hunks Accept all would take, and how many superseded ones await a decision. */
export function countHunks(order: readonly HunkRecord[]): { pending: number; superseded: number } {
  let pending = 0;
  let superseded = 0;
  for (const hunk of order) {
    if (hunk.superseded && isUndecided(hunk.state)) superseded += 1;
    else if (hunk.state === 'pending') pending += 1;
  }
  return { pending, superseded };
}

/** The lines of the file a hunk covers: its old lines from where it anchors (an insertion covers its anchor line). */
function coveredLines(hunk: HunkRecord): { first: number; last: number } | null {
  if (hunk.anchorLine === null) return null;
  const old = hunk.lines.reduce((count, line) => count + (line.kind === 'add' ? 0 : 1), 0);
  return { first: hunk.anchorLine, last: hunk.anchorLine + Math.max(old, 1) - 1 };
}

/** Why accepting `superseded` may undo a newer change, or undefined when no newer hunk touches its lines. */
export function newerOverlap(superseded: HunkRecord, order: readonly HunkRecord[], pathOf: (hunk: HunkRecord) => string): string | undefined {
  const mine = coveredLines(superseded);
  if (mine === null) return undefined;
  const path = pathOf(superseded);
  for (const other of order) {
    if (other.superseded || other.turn <= superseded.turn || !LIVE.has(other.state) || pathOf(other) !== path) continue;
    const theirs = coveredLines(other);
    if (theirs === null || theirs.last < mine.first || theirs.first > mine.last) continue;
    const verb = other.state === 'accepted' ? 'was accepted and changed' : 'changes';
    return `Hunk ${other.number} (from the redirect) ${verb} the same lines of ${path}: accepting this one too may undo or garble it.`;
  }
  return undefined;
}
