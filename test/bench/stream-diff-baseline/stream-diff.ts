/**
 * The baseline Flint's edit pipeline is compared with: Continue's streaming line diff.
 *
 * Derived from Continue (https://github.com/continuedev/continue), core/diff/streamDiff.ts
 * (`streamDiff`) and core/diff/util.ts (`matchLine`, `linesMatch`, `linesMatchPerfectly`),
 * Copyright (c) 2023-2025 Continue Dev, Inc., licensed under the Apache License, Version
 * 2.0 (http://www.apache.org/licenses/LICENSE-2.0). Changes: restated in this project's
 * style with the same behaviour; the edit distance is ./levenshtein.ts instead of the
 * `fastest-levenshtein` package. See README.md beside this file.
 *
 * The model rewrites a whole region; each new line, as it arrives, is matched greedily
 * against the old lines not yet consumed (first perfect or fuzzy match from the front),
 * the old lines skipped before the match are removed, and a fuzzy match is a replaced
 * line. Invariants (Continue's): new + same = the new lines; old + same = the old lines.
 */
import { distance } from './levenshtein';

/** One line of the diff: kept, removed, or added. */
export interface DiffLine {
  type: 'same' | 'old' | 'new';
  line: string;
}

interface LineMatch {
  /** Index in the remaining old lines, or -1: a new line. */
  matchIndex: number;
  isPerfectMatch: boolean;
  /** The line to emit (the old line's indentation, when only that differed). */
  newLine: string;
}

const END_BRACKETS = ['}', '});', '})'];
const EXACT_ONLY = ['}', '*', '});', '})'];

function linesMatchPerfectly(a: string, b: string): boolean {
  return a === b && a !== '';
}

/** A fuzzy match: close in edit distance (less so the further away), or equal but for padding. */
function linesMatch(a: string, b: string, linesBetween: number): boolean {
  // Short bracket lines are one edit from each other and from blank lines: exact (trimmed) only.
  if (EXACT_ONLY.includes(a.trim())) return a.trim() === b.trim();
  const ratio = distance(a, b) / Math.max(a.length, b.length);
  return (ratio < 0.5 - linesBetween * 0.05 || a.trim() === b.trim()) && a.trim() !== '';
}

/** The first old line `newLine` matches, scanning from the front of what is left. */
export function matchLine(newLine: string, oldLines: readonly string[], permissiveAboutIndentation: boolean): LineMatch {
  // A blank line matches only a blank next line.
  if (newLine.trim() === '' && oldLines[0]?.trim() === '') return { matchIndex: 0, isPerfectMatch: true, newLine: newLine.trim() };
  const isEndBracket = END_BRACKETS.includes(newLine.trim());
  for (let index = 0; index < oldLines.length; index += 1) {
    // A closing bracket far ahead is not the same bracket.
    if (index > 4 && isEndBracket) return { matchIndex: -1, isPerfectMatch: false, newLine };
    const oldLine = oldLines[index]!;
    if (linesMatchPerfectly(newLine, oldLine)) return { matchIndex: index, isPerfectMatch: true, newLine };
    if (linesMatch(newLine, oldLine, index)) {
      // Same text, other indentation: keep the old line's (only for lines long enough not to match by chance).
      if (newLine.trimStart() === oldLine.trimStart() && (permissiveAboutIndentation || newLine.trim().length > 8)) {
        return { matchIndex: index, isPerfectMatch: true, newLine: oldLine };
      }
      return { matchIndex: index, isPerfectMatch: false, newLine };
    }
  }
  return { matchIndex: -1, isPerfectMatch: false, newLine };
}

/** Diffs the streamed `newLines` against `oldLines`, line by line as they arrive. */
export async function* streamDiff(oldLines: readonly string[], newLines: AsyncGenerator<string>): AsyncGenerator<DiffLine> {
  const remaining = [...oldLines];
  // One indentation mistake makes others likely: from then on, match indentation permissively.
  let seenIndentationMistake = false;
  let next = await newLines.next();
  while (remaining.length > 0 && !next.done) {
    const { matchIndex, isPerfectMatch, newLine } = matchLine(next.value, remaining, seenIndentationMistake);
    if (!seenIndentationMistake && next.value !== newLine) seenIndentationMistake = true;
    if (matchIndex === -1) {
      yield { type: 'new', line: newLine };
    } else {
      for (let skipped = 0; skipped < matchIndex; skipped += 1) yield { type: 'old', line: remaining.shift()! };
      if (isPerfectMatch) {
        yield { type: 'same', line: remaining.shift()! };
      } else {
        yield { type: 'old', line: remaining.shift()! };
        yield { type: 'new', line: newLine };
      }
    }
    next = await newLines.next();
  }
  // At an edge only one choice is left.
  if (next.done) {
    for (const line of remaining) yield { type: 'old', line };
  } else {
    yield { type: 'new', line: next.value };
    for await (const line of newLines) yield { type: 'new', line };
  }
}
