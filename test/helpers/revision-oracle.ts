/**
 * For the exact-or-nothing property: a random choice of some of a hunk's changed lines,
 * and what accepting the hunk with only those lines means for the oracle (patch-oracle.ts),
 * worked out from the generator's plan with none of Flint's code.
 *
 * The meaning, as the contract states it: a chosen removed line is removed, an unchosen one
 * stays; a chosen added line is added, an unchosen one is left out. A chosen added line goes
 * where the removed line it takes the place of was: within each change (the removed and
 * added lines between two context lines), added lines pair with removed ones, equal text
 * first (a longest common subsequence), then in order between those pairs; one without a
 * pair follows the added line before it.
 */
import type { HunkLine } from '../../src/shared/edits/edit-types';
import type { Op, PlannedHunk, Random, Scenario } from './patch-generator';

/** A hunk accepted with some of its lines: its ops apply as they read, kept lines kept, even in a search/replace answer. */
export interface RevisedPlan extends PlannedHunk {
  asWritten: true;
}

export const isRevised = (hunk: PlannedHunk): hunk is RevisedPlan => 'asWritten' in hunk;

/** Indices of some of `lines`' changed lines, never none or all of them; null when it has fewer than two. */
export function someChangedLines(random: Random, lines: readonly Pick<HunkLine, 'kind'>[]): number[] | null {
  const changed = lines.flatMap((line, index) => (line.kind === 'context' ? [] : [index]));
  if (changed.length < 2) return null;
  for (;;) {
    const chosen = changed.filter(() => random() < 0.5);
    if (chosen.length > 0 && chosen.length < changed.length) return chosen.sort(() => random() - 0.5);
  }
}

/** One line of the hunk as written, with the file line it stands for (a context or removed line). */
interface Item {
  kind: HunkLine['kind'];
  text: string;
  fileIndex?: number;
}

/** `hunk` accepted with only the lines at `indices`: its ops as written (an update) or its lines (a created file). */
export function revisedPlan(hunk: PlannedHunk, format: Scenario['format'], indices: readonly number[]): RevisedPlan {
  const chosen = new Set(indices);
  if (hunk.effect === 'create') return { ...hunk, lines: hunk.lines.filter((_, index) => chosen.has(index)), asWritten: true };
  const items = itemsOf(hunk, format);
  const ops: Op[] = [];
  let change: number[] = [];
  const close = (): void => {
    const removed = change.filter((index) => items[index]!.kind === 'remove');
    const added = change.filter((index) => items[index]!.kind === 'add');
    const partner = pairs(removed.map((index) => items[index]!.text), added.map((index) => items[index]!.text));
    // Slot 0: before every removed line; slot r + 1: right after removed line r.
    const slots: Op[][] = Array.from({ length: removed.length + 1 }, () => []);
    let slot = 0;
    added.forEach((index, position) => {
      if (partner[position] !== null) slot = partner[position]! + 1;
      if (chosen.has(index)) slots[slot]!.push({ add: items[index]!.text });
    });
    ops.push(...slots[0]!);
    removed.forEach((index, position) => {
      const fileIndex = items[index]!.fileIndex!;
      ops.push(chosen.has(index) ? { remove: fileIndex } : { keep: fileIndex }, ...slots[position + 1]!);
    });
    change = [];
  };
  items.forEach((item, index) => {
    if (item.kind !== 'context') return void change.push(index);
    close();
    ops.push({ keep: item.fileIndex! });
  });
  close();
  return { ...hunk, ops, asWritten: true };
}

/**
 * The hunk's lines with the file lines they stand for. V4A writes one line per op, in
 * order; a search/replace block writes each line of its region as removed, then the new
 * lines (kept ones too) as added.
 */
function itemsOf(hunk: PlannedHunk, format: Scenario['format']): Item[] {
  if (format === 'patch') {
    return hunk.ops.map((op, index): Item => ('add' in op ? { kind: 'add', text: op.add } : { kind: 'remove' in op ? 'remove' : 'context', text: hunk.lines[index]!.text, fileIndex: 'remove' in op ? op.remove : op.keep }));
  }
  let region = hunk.start;
  return hunk.lines.map((line): Item => (line.kind === 'add' ? { kind: 'add', text: line.text } : { kind: 'remove', text: line.text, fileIndex: region++ }));
}

/** For each added line, the removed line it is paired with, or null (see the header); a plain LCS table. */
export function pairs(removed: readonly string[], added: readonly string[]): Array<number | null> {
  const table = lcsTable(removed, added);
  const common: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < removed.length && j < added.length; ) {
    if (removed[i] === added[j]) common.push([i++, j++]);
    else if (table[i + 1]![j]! >= table[i]![j + 1]!) i += 1;
    else j += 1;
  }
  const result: Array<number | null> = added.map(() => null);
  let [fromRemoved, fromAdded] = [0, 0];
  for (const [atRemoved, atAdded] of [...common, [removed.length, added.length] as [number, number]]) {
    for (let k = 0; fromRemoved + k < atRemoved && fromAdded + k < atAdded; k += 1) result[fromAdded + k] = fromRemoved + k;
    if (atAdded < added.length) result[atAdded] = atRemoved;
    [fromRemoved, fromAdded] = [atRemoved + 1, atAdded + 1];
  }
  return result;
}

/** lengths[i][j]: the longest common subsequence of a[i..] and b[j..]. */
export function lcsTable(a: readonly string[], b: readonly string[]): number[][] {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) for (let j = b.length - 1; j >= 0; j -= 1) table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  return table;
}
