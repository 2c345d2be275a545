/**
 * Finds where a hunk applies in a file, or says why it cannot.
 *
 * Exact match first; then, one pass at a time, tolerance for what models get wrong:
 * trailing whitespace and stray `\r`, Unicode quotes and dashes, indentation drift, a
 * missing or extra blank line. A pass that finds the text twice stops the search as
 * ambiguous: a hunk is never applied at a guess. The replacement keeps the user's own
 * context lines byte for byte and re-indents added lines to the file's indentation.
 */
import { newLinesOf, oldLinesOf, type HunkLine } from './edit-types';
import { LiteralSearch, occurrences } from './linear-search';

/** A tolerance a match needed (exact matches need none). */
export type Tolerance = 'whitespace' | 'unicode-punctuation' | 'indentation' | 'blank-lines';

export type AnchorResult =
  /** Lines [start, end) of the file become `replacement`. */
  | { status: 'anchored'; start: number; end: number; replacement: string[]; tolerances: Tolerance[] }
  /** Not applied: `not-found`, `ambiguous` (found more than once), or `empty` (nothing to locate). */
  | { status: 'unmatched'; reason: 'not-found' | 'ambiguous' | 'empty'; matches: number };

export interface AnchorableHunk {
  lines: readonly HunkLine[];
  contextHints?: readonly string[];
  atEndOfFile?: boolean;
}

interface Pass {
  tolerances: Tolerance[];
  normalize: (line: string) => string;
  skipBlankLines: boolean;
}

const PUNCTUATION: Record<string, string> = {
  '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201b': "'",
  '\u201c': '"', '\u201d': '"', '\u201e': '"', '\u201f': '"',
  '\u2013': '-', '\u2014': '-', '\u2212': '-', '\u2026': '...', '\u00a0': ' ', '\u2009': ' ', '\u202f': ' ',
};
// Every pattern and trim here is linear: a character class without anchors, and the
// built-in trims. (A regex like /\s+$/ retries from each character of a whitespace
// run: a 200 KB run took minutes.)
const PUNCTUATION_PATTERN = new RegExp(`[${Object.keys(PUNCTUATION).join('')}]`, 'g');
/** Trailing whitespace, `\r` included (String.prototype.trimEnd strips exactly what `\s` matches). */
const trimEnd = (line: string): string => line.trimEnd();
const plainPunctuation = (line: string): string => trimEnd(line).replace(PUNCTUATION_PATTERN, (character) => PUNCTUATION[character]!);
/** Beyond this many `@@` hints, only the innermost count: real answers nest a few (class, method). */
const MAX_HINTS = 16;

const PUNCTUATION_PASS: Pass = { tolerances: ['whitespace', 'unicode-punctuation'], normalize: plainPunctuation, skipBlankLines: false };
const PASSES: readonly Pass[] = [
  { tolerances: [], normalize: (line) => line, skipBlankLines: false },
  { tolerances: ['whitespace'], normalize: trimEnd, skipBlankLines: false },
  PUNCTUATION_PASS,
  { tolerances: ['whitespace', 'unicode-punctuation', 'indentation'], normalize: (line) => plainPunctuation(line).trimStart(), skipBlankLines: false },
  { tolerances: ['whitespace', 'unicode-punctuation', 'indentation', 'blank-lines'], normalize: (line) => plainPunctuation(line).trimStart(), skipBlankLines: true },
];

/** A file's lines (no line terminators), with per-pass normalizations computed once. */
export class AnchorableFile {
  private readonly normalized = new Map<Pass, string[]>();

  constructor(readonly lines: readonly string[]) {}

  normalizedFor(pass: Pass): string[] {
    let lines = this.normalized.get(pass);
    if (!lines) this.normalized.set(pass, (lines = this.lines.map(pass.normalize)));
    return lines;
  }
}

/** Where `hunk` applies in `file`, or why it does not; linear in the file and the hunk, however long their lines. */
export function anchorHunk(file: AnchorableFile, hunk: AnchorableHunk): AnchorResult {
  const oldLines = oldLinesOf(hunk.lines);
  const hint = hintPosition(file, hunk.contextHints ?? []);
  const searchFrom = hint?.line ?? null;
  if (oldLines.every((line) => line.trim() === '')) {
    // Pure insertion: only an end-of-file marker or a hint (the line above the change) can say where.
    if (hunk.atEndOfFile) return insertion(file.lines.length, hunk);
    if (hint && !hint.unique) return { status: 'unmatched', reason: 'ambiguous', matches: 2 };
    if (hint) return insertion(hint.line + 1, hunk);
    return { status: 'unmatched', reason: 'empty', matches: 0 };
  }
  for (const pass of PASSES) {
    const matches = findMatches(file.normalizedFor(pass), oldLines.map(pass.normalize), pass.skipBlankLines, searchFrom ?? 0, hunk.atEndOfFile === true);
    if (matches.length > 1) return { status: 'unmatched', reason: 'ambiguous', matches: matches.length };
    if (matches.length === 1) {
      const [start, end] = matches[0]!;
      return { status: 'anchored', start, end, replacement: replace(file.lines, start, end, hunk.lines, pass), tolerances: pass.tolerances };
    }
  }
  return { status: 'unmatched', reason: 'not-found', matches: 0 };
}

/**
 * The line of the last context hint, each hint found after the one before; null without
 * hints or when one is missing (then the whole file is searched). `unique` says whether
 * the last hint occurs only once from where it was looked for.
 *
 * Each hint costs at most one scan of the file from the previous hint's line; hints
 * beyond the innermost MAX_HINTS are dropped, so a stream of stacked `@@` lines cannot
 * make one hunk scan a long line thousands of times.
 */
function hintPosition(file: AnchorableFile, hints: readonly string[]): { line: number; unique: boolean } | null {
  if (hints.length === 0) return null;
  const lines = file.normalizedFor(PUNCTUATION_PASS);
  const used = hints.slice(-MAX_HINTS);
  let position = 0;
  let search = new LiteralSearch('');
  for (const hint of used) {
    search = new LiteralSearch(plainPunctuation(hint).trim());
    const first = nextLineWith(lines, search, position);
    // A hint that is not there is only a hint: search the whole file instead.
    if (first === -1) return null;
    position = first;
  }
  return { line: position, unique: nextLineWith(lines, search, position + 1) === -1 };
}

function nextLineWith(lines: readonly string[], search: LiteralSearch, from: number): number {
  for (let index = from; index < lines.length; index += 1) if (search.foundIn(lines[index]!)) return index;
  return -1;
}

/**
 * Every [start, end) where `needle` matches, start ≥ `from`; at most two are needed to
 * decide. With `skipBlank`, blank lines of the file may sit anywhere between the
 * needle's lines: the needle is then searched among the file's non-blank lines.
 */
function findMatches(haystack: readonly string[], needle: readonly string[], skipBlank: boolean, from: number, atEnd: boolean): Array<[number, number]> {
  const matches: Array<[number, number]> = [];
  const wanted = skipBlank ? needle.filter((line) => line !== '') : needle;
  if (wanted.length === 0) return matches;
  const positions: number[] = [];
  const searched: string[] = [];
  for (let index = from; index < haystack.length; index += 1) {
    if (skipBlank && haystack[index] === '') continue;
    positions.push(index);
    searched.push(haystack[index]!);
  }
  const lastNonBlank = atEnd ? lastNonBlankLine(haystack) : -1;
  for (const start of occurrences(searched, wanted)) {
    const end = positions[start + wanted.length - 1]! + 1;
    // At the end of the file: only blank lines may follow.
    if (atEnd && lastNonBlank >= end) continue;
    matches.push([positions[start]!, end]);
    if (matches.length > 1) break;
  }
  return matches;
}

function lastNonBlankLine(lines: readonly string[]): number {
  let line = lines.length - 1;
  while (line >= 0 && lines[line]!.trim() === '') line -= 1;
  return line;
}

/** Builds the new lines for [start, end): the file's own context lines, the hunk's additions re-indented. */
function replace(lines: readonly string[], start: number, end: number, hunk: readonly HunkLine[], pass: Pass): string[] {
  const reindent = pass.tolerances.includes('indentation') ? indentationFix(lines, start, hunk) : (line: string) => line;
  const blank: Array<boolean | undefined> = [];
  const isBlank = (index: number): boolean => (blank[index - start] ??= lines[index]!.trim() === '');
  const output: string[] = [];
  let index = start;
  for (const line of hunk) {
    if (line.kind === 'add') {
      output.push(reindent(line.text));
      continue;
    }
    if (pass.skipBlankLines) {
      // Keep blank lines the user has and the hunk lacks; skip blank lines the hunk has and the file lacks.
      // Blankness is worked out once per line: a long line is never trimmed once per hunk line.
      const isBlankLine = line.text.trim() === '';
      while (index < end && !isBlankLine && isBlank(index)) output.push(lines[index++]!);
      if (isBlankLine && (index >= end || !isBlank(index))) continue;
    }
    if (line.kind === 'context') output.push(lines[index]!);
    index += 1;
  }
  while (index < end) output.push(lines[index++]!);
  return output;
}

/** Maps the hunk's indentation to the file's, from the first non-blank old line and its match. */
function indentationFix(lines: readonly string[], start: number, hunk: readonly HunkLine[]): (line: string) => string {
  const firstOld = hunk.find((line) => line.kind !== 'add' && line.text.trim() !== '');
  const firstFile = lines.slice(start).find((line) => line.trim() !== '');
  if (!firstOld || firstFile === undefined) return (line) => line;
  const hunkIndent = leading(firstOld.text);
  const fileIndent = leading(firstFile);
  if (hunkIndent === fileIndent) return (line) => line;
  return (line) => {
    if (line.trim() === '') return line;
    if (line.startsWith(hunkIndent)) return fileIndent + line.slice(hunkIndent.length);
    return line;
  };
}

function leading(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function insertion(at: number, hunk: AnchorableHunk): AnchorResult {
  return { status: 'anchored', start: at, end: at, replacement: newLinesOf(hunk.lines), tolerances: [] };
}
