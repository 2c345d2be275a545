/**
 * Property: a revised hunk keeps its old text, and its new text is exactly what the user
 * chose or wrote.
 *
 * For random hunks and random choices of their changed lines, the revised hunk's old text
 * is the original's, and its new text is the original old text with exactly the chosen
 * removals and additions applied, each addition where the line it replaces was — worked
 * out here from slots in the old text with a pairing of its own, not by reordering the
 * hunk as reviseHunk does. For random edits of the new text, the revised
 * hunk's old text is the original's, its new text is the edit, and it changes no more
 * lines than a shortest edit (a plain LCS table) needs.
 *
 * FLINT_SEED=<seed> starts the run there.
 */
import { describe, expect, it } from 'vitest';
import { lcsTable, pairs } from '../../../test/helpers/revision-oracle';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { newLinesOf, oldLinesOf, type HunkLine } from './edit-types';
import { restOfChosen, reviseHunk } from './hunk-revision';

type Random = () => number;

const TEXTS = ['a', 'b', 'c', '', '}', 'return x;'];
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

function randomHunk(random: Random): HunkLine[] {
  return Array.from({ length: 1 + Math.floor(random() * 10) }, (): HunkLine => ({ kind: pick(random, ['context', 'remove', 'add'] as const), text: pick(random, TEXTS) }));
}

/**
 * The oracle for a choice. Each change (the removed and added lines between two context
 * lines) pairs its added lines with removed ones: equal lines by a longest common
 * subsequence, then the others in order between those pairs. A chosen added line goes
 * right after the removed line it is paired with (kept or not), or after the added line
 * before it; the new text is the old text without the chosen removals, with those
 * additions in their places.
 */
function expectedNewText(lines: readonly HunkLine[], chosen: ReadonlySet<number>): string[] {
  const result: string[] = [];
  let change: number[] = [];
  const close = (): void => {
    const removed = change.filter((index) => lines[index]!.kind === 'remove');
    const added = change.filter((index) => lines[index]!.kind === 'add');
    const partner = pairs(removed.map((index) => lines[index]!.text), added.map((index) => lines[index]!.text));
    // Slot 0: before every removed line; slot r + 1: right after removed line r.
    const slots: string[][] = Array.from({ length: removed.length + 1 }, () => []);
    let slot = 0;
    added.forEach((index, position) => {
      if (partner[position] !== null) slot = partner[position]! + 1;
      if (chosen.has(index)) slots[slot]!.push(lines[index]!.text);
    });
    result.push(...slots[0]!);
    removed.forEach((index, position) => {
      if (!chosen.has(index)) result.push(lines[index]!.text);
      result.push(...slots[position + 1]!);
    });
    change = [];
  };
  lines.forEach((line, index) => {
    if (line.kind !== 'context') return void change.push(index);
    close();
    result.push(line.text);
  });
  close();
  return result;
}

function shortestEditSize(a: readonly string[], b: readonly string[]): number {
  return a.length + b.length - 2 * lcsTable(a, b)[0]![0]!;
}

/** The new text edited at random: lines replaced, inserted, dropped. */
function editedText(random: Random, lines: readonly string[]): string[] {
  const edited = [...lines];
  for (let edit = 0; edit < 1 + Math.floor(random() * 3); edit += 1) {
    const at = Math.floor(random() * (edited.length + 1));
    const roll = random();
    if (roll < 0.4) edited.splice(at, 0, `${pick(random, TEXTS)} (mine)`);
    else if (roll < 0.7 && at < edited.length) edited.splice(at, 1);
    else if (at < edited.length) edited[at] = pick(random, TEXTS);
  }
  return edited;
}

describe('revising a hunk (property)', () => {
  const firstSeed = baseSeed(47_000);

  it('writes exactly the chosen removals and additions, and keeps the old text', () => {
    const trials = trialCount(3_000, 100_000);
    for (let trial = 0; trial < trials; trial += 1) {
      const seed = firstSeed + trial;
      const random = seededRandom(seed);
      const lines = randomHunk(random);
      const changedIndices = lines.flatMap((line, index) => (line.kind === 'context' ? [] : [index]));
      const chosen = new Set(changedIndices.filter(() => random() < 0.5));
      const indices = [...chosen].sort(() => random() - 0.5);
      const revised = reviseHunk(lines, { kind: 'lines', indices });
      const context = { seed, lines, indices };
      if (chosen.size === 0 || chosen.size === changedIndices.length) {
        expect(revised.ok, JSON.stringify(context)).toBe(false);
        continue;
      }
      if (!revised.ok) throw new Error(`refused ${JSON.stringify(context)}: ${revised.message}`);
      expect(oldLinesOf(revised.lines), JSON.stringify(context)).toEqual(oldLinesOf(lines));
      expect(newLinesOf(revised.lines), JSON.stringify(context)).toEqual(expectedNewText(lines, chosen));
      expect(revised.words).toBe(`${chosen.size} of ${changedIndices.length} changed lines`);
    }
  });

  it('leaves, after an accept in part, a rest that takes what was written to what the whole hunk writes', () => {
    const trials = trialCount(3_000, 100_000);
    for (let trial = 0; trial < trials; trial += 1) {
      const seed = firstSeed + trial;
      const random = seededRandom(seed);
      const lines = randomHunk(random);
      const changedIndices = lines.flatMap((line, index) => (line.kind === 'context' ? [] : [index]));
      const indices = changedIndices.filter(() => random() < 0.5);
      const revised = reviseHunk(lines, { kind: 'lines', indices });
      const rest = restOfChosen(lines, indices);
      const context = JSON.stringify({ seed, lines, indices });
      if (!revised.ok) {
        expect(rest, context).toBeNull();
        continue;
      }
      if (rest === null) throw new Error(`no rest ${context}`);
      expect(oldLinesOf(rest), context).toEqual(newLinesOf(revised.lines));
      expect(newLinesOf(rest), context).toEqual(newLinesOf(lines));
      // Exactly the changes not chosen, no more.
      expect(rest.filter((line) => line.kind !== 'context').length, context).toBe(changedIndices.length - indices.length);
    }
  });

  it('writes exactly the user’s edit of the new text, in the fewest changed lines, and keeps the old text', () => {
    const trials = trialCount(3_000, 100_000);
    for (let trial = 0; trial < trials; trial += 1) {
      const seed = firstSeed + trial;
      const random = seededRandom(seed);
      const lines = randomHunk(random);
      const newLines = editedText(random, newLinesOf(lines));
      const revised = reviseHunk(lines, { kind: 'edited', newLines });
      const context = JSON.stringify({ seed, lines, newLines });
      const same = (a: readonly string[], b: readonly string[]): boolean => JSON.stringify(a) === JSON.stringify(b);
      if (same(newLines, newLinesOf(lines)) || same(newLines, oldLinesOf(lines))) {
        expect(revised.ok, context).toBe(false);
        continue;
      }
      if (!revised.ok) throw new Error(`refused ${context}: ${revised.message}`);
      expect(oldLinesOf(revised.lines), context).toEqual(oldLinesOf(lines));
      expect(newLinesOf(revised.lines), context).toEqual(newLines);
      expect(revised.lines.filter((line) => line.kind !== 'context').length, context).toBe(shortestEditSize(oldLinesOf(lines), newLines));
    }
  });
});
