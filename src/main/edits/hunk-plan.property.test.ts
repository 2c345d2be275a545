/**
 * Property: carrying a hunk over the user's edits by moving it (the cheap path) writes
 * exactly what the 3-way merge of the whole file writes — the slow path it replaces —
 * and planning a file's hunks together writes what splicing them one by one writes.
 */
import { diff3Merge } from 'node-diff3';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { versionOfText } from '../../../test/helpers/file-versions';
import { anchorHunk } from '../../shared/edits/anchor-hunk';
import type { HunkLine } from '../../shared/edits/edit-types';
import { spliceMany } from '../fs/file-text';
import { FileVersion } from './file-version';
import { planHunk } from './hunk-plan';
import { planHunks } from './plan-hunks';

type Random = () => number;
const ALPHABET = ['a', 'b', 'c', '}', '', 'return x;'];
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const someLines = (random: Random, most: number) => Array.from({ length: Math.floor(random() * most) }, () => pick(random, ALPHABET));

/** The user's edit: a few random replacements of stretches of the file. */
function userEdit(random: Random, lines: readonly string[]): string[] {
  let edited = [...lines];
  for (let edit = 0; edit < 1 + Math.floor(random() * 3); edit += 1) {
    const start = Math.floor(random() * (edited.length + 1));
    const end = Math.min(edited.length, start + Math.floor(random() * 3));
    edited = [...edited.slice(0, start), ...someLines(random, 3).map((line) => `${line} (mine)`), ...edited.slice(end)];
  }
  return edited;
}

/** A hunk quoting a stretch of `lines` (so it anchors, unless the stretch repeats). */
function hunkOn(random: Random, lines: readonly string[]): HunkLine[] {
  const start = Math.floor(random() * lines.length);
  const quoted = lines.slice(start, start + 1 + Math.floor(random() * 3));
  return [...quoted.map((text): HunkLine => ({ kind: random() < 0.5 ? 'context' : 'remove', text })), ...someLines(random, 3).map((text): HunkLine => ({ kind: 'add', text: `${text} (model)` }))];
}

const sameLines = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((line, index) => line === b[index]);

/** The reference: the whole file merged 3-way, as Flint did before versions. */
function mergedWholeFile(current: readonly string[], base: FileVersion, lines: HunkLine[]): string[] | 'conflict' | 'unmatched' {
  const anchored = anchorHunk(base.anchorable, { lines });
  if (anchored.status !== 'anchored') return 'unmatched';
  const theirs = [...base.lines.slice(0, anchored.start), ...anchored.replacement, ...base.lines.slice(anchored.end)];
  const regions = diff3Merge<string>([...current], [...base.lines], theirs, { excludeFalseConflicts: true });
  return regions.some((region) => region.conflict) ? 'conflict' : regions.flatMap((region) => region.ok ?? []);
}

describe('planning over the user’s edits (property)', () => {
  const firstSeed = baseSeed(31_000);

  it('carries a hunk over the user’s edits to where the 3-way merge puts it, or safely where that merge gives up', () => {
    let differing = 0;
    let conservative = 0;
    const trials = trialCount(2_000, 50_000);
    for (let trial = 0; trial < trials; trial += 1) {
      const seed = firstSeed + trial;
      const random = seededRandom(seed);
      const baseLines = someLines(random, 14);
      if (baseLines.length === 0) continue;
      const base = versionOfText(baseLines.join('\n'));
      const current = versionOfText(userEdit(random, baseLines).join('\n'));
      const lines = hunkOn(random, baseLines);
      const plan = planHunk(current, { path: 'f', lines, base }, 'f');
      const reference = mergedWholeFile(current.lines, base, lines);
      if (plan.status !== 'planned') {
        // Where the 3-way merge itself finds no clean result; or, conservatively, where the
        // user deleted one of several equal lines and the merge over the touched stretch
        // aligns that deletion with the hunk's line (the user's text stays: no byte lost).
        if (plan.status === 'conflict' && Array.isArray(reference)) conservative += 1;
        else expect(reference, `FLINT_SEED=${seed}`).toBe(plan.status);
        continue;
      }
      const merged = spliceMany(current.text, [plan.splice]).lines;
      if (reference !== 'conflict' && reference !== 'unmatched' && sameLines(merged, reference)) continue;
      // Where the user deleted one of several equal lines, the whole-file merge may align
      // them otherwise (and call it a conflict, or take the model's deletion for the
      // user's); lines the user inserted right at the hunk's edge it calls a conflict.
      // Moving is still safe: the hunk lands on lines the user left as the model
      // saw them, and every line of the user's stays, in order.
      const anchored = anchorHunk(base.anchorable, { lines });
      if (anchored.status !== 'anchored') throw new Error(`FLINT_SEED=${seed}: planned but not anchored on its base`);
      // Moved: onto the very lines the model quoted. Merged over the touched stretch: the
      // model's lines are all in.
      if (current.mapRange(base, anchored.start, anchored.end)) {
        expect(current.lines.slice(plan.splice.start, plan.splice.end), `FLINT_SEED=${seed}`).toEqual(base.lines.slice(anchored.start, anchored.end));
      }
      const ofModel = (all: readonly string[]) => all.filter((line) => line.endsWith('(model)'));
      expect(ofModel(merged), `FLINT_SEED=${seed}`).toEqual(ofModel(anchored.replacement));
      const mine = (all: readonly string[]) => all.filter((line) => line.endsWith('(mine)'));
      expect(mine(merged), `FLINT_SEED=${seed}`).toEqual(mine(current.lines));
      differing += 1;
    }
    // Those (and lines inserted right at a hunk's edge, which the merge calls a conflict and
    // Flint moves the hunk past) are the odd case, not the rule.
    expect(differing).toBeLessThan(trials / 8);
    expect(conservative).toBeLessThan(trials / 100);
  });

  it('plans a file’s hunks together into what accepting them one by one, in order, gives', () => {
    let compared = 0;
    for (let trial = 0; trial < trialCount(1_000, 20_000); trial += 1) {
      const seed = firstSeed + trial;
      const random = seededRandom(seed);
      // Distinct lines: each hunk anchors once, wherever it quotes.
      const lines = Array.from({ length: 5 + Math.floor(random() * 60) }, (_, index) => `line ${index}`);
      const version = versionOfText(lines.join('\n'));
      const hunks = Array.from({ length: 1 + Math.floor(random() * 6) }, () => ({ path: 'f', lines: hunkOn(random, lines), base: null }));
      // Hunks whose lines overlap land by the answer's order, as below; here only separate ones.
      const places = hunks.map((hunk) => planHunk(version, hunk, 'f')).flatMap((plan) => (plan.status === 'planned' ? [plan.splice] : []));
      if (places.some((a, i) => places.some((b, j) => i < j && a.start < b.end && b.start < a.end))) continue;
      compared += 1;
      const { next, outcomes } = planHunks(version, hunks, 'f');
      let expected = version;
      hunks.forEach((hunk, index) => {
        const plan = planHunk(expected, hunk, 'f');
        expect(plan.status, `FLINT_SEED=${seed} hunk ${index}`).toBe(outcomes[index]!.status);
        if (plan.status === 'planned') expected = FileVersion.of(spliceMany(expected.text, [plan.splice]));
      });
      expect(next.lines, `FLINT_SEED=${seed}`).toEqual(expected.lines);
    }
    expect(compared).toBeGreaterThan(trialCount(1_000, 20_000) / 4);
  });
});

describe('planning a file’s hunks together', () => {
  it('gives overlapping lines to the hunk that comes first in the answer, as accepting in order would', () => {
    const version = versionOfText(['line 4', 'line 5', 'line 6'].join('\n'));
    const first = { path: 'f', base: null, lines: [{ kind: 'remove', text: 'line 6' }, { kind: 'add', text: 'six' }] satisfies HunkLine[] };
    const second = { path: 'f', base: null, lines: [{ kind: 'remove', text: 'line 4' }, { kind: 'remove', text: 'line 5' }, { kind: 'context', text: 'line 6' }] satisfies HunkLine[] };
    const { next, outcomes } = planHunks(version, [first, second], 'f');
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['planned', 'unmatched']);
    expect(next.lines).toEqual(['line 4', 'line 5', 'six']);
  });

  it('puts insertions at a point before a replacement starting there, in the answer’s order', () => {
    const version = versionOfText(['a', 'b'].join('\n'));
    const replace = { path: 'f', base: null, lines: [{ kind: 'remove', text: 'b' }, { kind: 'add', text: 'B' }] satisfies HunkLine[] };
    const insert = (text: string) => ({ path: 'f', base: null, contextHints: ['a'], lines: [{ kind: 'add', text }] satisfies HunkLine[] });
    const { next } = planHunks(version, [replace, insert('x'), insert('y')], 'f');
    expect(next.lines).toEqual(['a', 'x', 'y', 'B']);
  });
});
