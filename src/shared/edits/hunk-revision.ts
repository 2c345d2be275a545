/**
 * A hunk as the user revised it before accepting it: some of its changed lines only, or
 * its new text edited in place.
 *
 * Pure. Both kinds keep the hunk's old text (context and removed lines, in order) exactly
 * as it was, so the revised hunk anchors where the original did:
 * - `lines`: a chosen removed line is still removed, an unchosen one becomes context (the
 *   file keeps it); a chosen added line is still added, beside the removed line it takes
 *   the place of (see inPlaceOrder), and an unchosen one is left out.
 * - `edited`: the hunk becomes old text → the user's lines, as the fewest removed and
 *   added lines (a shortest line diff), the lines both share as context.
 */
import { newLinesOf, oldLinesOf, type HunkLine } from './edit-types';
import type { HunkRevision } from './hunk-types';
import { changedRegions } from './line-diff';
import { placesOfAdded } from './line-pairs';

/** The revised hunk's lines and a few words for its card ("2 of 5 changed lines"), or why the revision is refused. */
export type RevisedHunk = { ok: true; lines: HunkLine[]; words: string } | { ok: false; message: string };

/** `lines` revised as `revision` says (see the header); a revision that is out of range or changes nothing is refused in words. */
export function reviseHunk(lines: readonly HunkLine[], revision: HunkRevision): RevisedHunk {
  switch (revision.kind) {
    case 'lines':
      return chooseLines(lines, revision.indices);
    case 'edited':
      return editNewText(lines, revision.newLines);
    default: {
      const exhaustive: never = revision;
      return exhaustive;
    }
  }
}

/** The words a hunk's card shows for an edited hunk. */
const EDITED_WORDS = 'edited by you';

function chooseLines(lines: readonly HunkLine[], indices: readonly number[]): RevisedHunk {
  const changed = lines.filter((line) => line.kind !== 'context').length;
  const chosen = new Set<number>();
  for (const index of indices) {
    if (!Number.isInteger(index) || index < 0 || index >= lines.length) return refuse(`Line index ${index} is not in the hunk (it has ${lines.length} lines, numbered from 0); nothing was written.`);
    if (lines[index]!.kind === 'context') return refuse(`Line index ${index} is a context line of the hunk; only removed and added lines can be chosen. Nothing was written.`);
    if (chosen.has(index)) return refuse(`Line index ${index} is chosen twice; nothing was written.`);
    chosen.add(index);
  }
  if (chosen.size === 0) return refuse('No changed line was chosen, so nothing would be written; reject the hunk instead.');
  if (chosen.size === changed) return refuse('Every changed line of the hunk was chosen: that is the hunk as it is; accept it without choosing lines.');
  const revised = inPlaceOrder(lines).flatMap((index): HunkLine[] => {
    const line = lines[index]!;
    if (line.kind === 'context' || chosen.has(index)) return [line];
    return line.kind === 'remove' ? [{ kind: 'context', text: line.text }] : [];
  });
  return { ok: true, lines: revised, words: `${chosen.size} of ${changed} changed lines` };
}

/**
 * What is left of a hunk accepted in part (`indices`: the changed lines chosen, as for
 * a `lines` revision that was written): a hunk from what the file holds now to the hunk
 * accepted whole. The chosen lines are on disk (added ones are its context, removed ones
 * gone); the others are its changes, in the same in-place order the written lines took.
 * Null when nothing is left, or the choice is not one `reviseHunk` takes.
 */
export function restOfChosen(lines: readonly HunkLine[], indices: readonly number[]): HunkLine[] | null {
  if (!chooseLines(lines, indices).ok) return null;
  const chosen = new Set(indices);
  return inPlaceOrder(lines).flatMap((index): HunkLine[] => {
    const line = lines[index]!;
    if (line.kind === 'context' || !chosen.has(index)) return [line];
    return line.kind === 'add' ? [{ kind: 'context', text: line.text }] : [];
  });
}

/**
 * The hunk's line indices with each change (the removed and added lines between two
 * context lines) reordered so every added line follows the removed line it takes the
 * place of — paired as line endings are (equal text first, then in order: line-pairs.ts);
 * an added line with no pair follows the added line before it. A chosen added line then
 * lands where the line it replaces was, even when that line is kept. The old text (removed
 * lines, in order) and the new text (added lines, in order) are unchanged by it.
 */
function inPlaceOrder(lines: readonly HunkLine[]): number[] {
  const order: number[] = [];
  let removed: number[] = [];
  let added: number[] = [];
  const flush = (): void => {
    const places = placesOfAdded(removed.map((index) => lines[index]!.text), added.map((index) => lines[index]!.text));
    let next = 0;
    added.forEach((index, position) => {
      const place = places[position];
      // Places only grow (a common subsequence, then in order between): the removed lines stay in order.
      for (; place !== null && place !== undefined && next <= place; next += 1) order.push(removed[next]!);
      order.push(index);
    });
    order.push(...removed.slice(next));
    removed = [];
    added = [];
  };
  lines.forEach((line, index) => {
    if (line.kind === 'remove') removed.push(index);
    else if (line.kind === 'add') added.push(index);
    else {
      flush();
      order.push(index);
    }
  });
  flush();
  return order;
}

function editNewText(lines: readonly HunkLine[], newLines: readonly string[]): RevisedHunk {
  const broken = newLines.findIndex((line) => line.includes('\n') || line.endsWith('\r'));
  if (broken !== -1) return refuse(`Line ${broken + 1} of the edited text holds a line break; send one string per line. Nothing was written.`);
  if (newLines.some((line) => line.includes('\0'))) return refuse('The edited text holds a NUL character; Flint writes text files only. Nothing was written.');
  const oldLines = oldLinesOf(lines);
  if (sameLines(newLines, newLinesOf(lines))) return refuse('The edited text is the hunk’s own: accept it as it is.');
  if (sameLines(newLines, oldLines)) return refuse('The edited text is what the file already has, so nothing would be written; reject the hunk instead.');
  return { ok: true, lines: linesBetween(oldLines, newLines), words: EDITED_WORDS };
}

/** Past this many changed lines a shortest edit costs too much memory (the diff keeps a trace per step). */
const MAX_EDIT = 2_000;

/** `before` → `after` as hunk lines: the shortest edit (removed, then added lines, per place), shared lines as context. */
export function linesBetween(before: readonly string[], after: readonly string[]): HunkLine[] {
  const lines: HunkLine[] = [];
  let at = 0;
  let atAfter = 0;
  const context = (until: number): void => {
    for (; at < until; at += 1, atAfter += 1) lines.push({ kind: 'context', text: before[at]! });
  };
  // A shortest edit up to MAX_EDIT changed lines; past that, one change between the common head and tail (still exact).
  for (const region of changedRegions(before, after, Math.min(before.length + after.length, MAX_EDIT))) {
    context(region.start);
    for (; at < region.end; at += 1) lines.push({ kind: 'remove', text: before[at]! });
    for (let added = 0; added < region.length; added += 1) lines.push({ kind: 'add', text: after[atAfter + added]! });
    atAfter += region.length;
  }
  context(before.length);
  return lines;
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, index) => line === b[index]);
}

function refuse(message: string): RevisedHunk {
  return { ok: false, message };
}
