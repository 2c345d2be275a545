/**
 * Finds where a hunk applies in a file, or says why it cannot.
 *
 * Stricter than the reference implementations on purpose: text found twice is refused
 * (never "the first match"), and a fuzzy pass never skips or changes a line the model
 * did not quote, except blank lines and whitespace.
 *
 * Exact match first; then, one pass at a time, tolerance for what models get wrong:
 * trailing whitespace and stray `\r`, Unicode quotes and dashes, indentation drift, a
 * missing or extra blank line. A pass that finds the text twice stops the search as
 * ambiguous: a hunk is never applied at a guess. The replacement keeps the user's own
 * context lines byte for byte and re-indents added lines to the file's indentation.
 */
import { newLinesOf, oldLinesOf, type HunkLine } from './edit-types';
import { LineIndex } from './line-index';
import { placesOfAdded } from './line-pairs';
import { LiteralSearch, occurrences } from './linear-search';
import { countWork } from '../work-meter';

/** A tolerance a match needed (exact matches need none). */
export type Tolerance = 'whitespace' | 'unicode-punctuation' | 'indentation' | 'blank-lines';

export type AnchorResult =
  /** Lines [start, end) of the file become `replacement`. */
  | {
      status: 'anchored';
      start: number;
      end: number;
      replacement: string[];
      /**
       * For each replacement line, the file line whose line ending it keeps: its own for a
       * kept line, the removed line it takes the place of for an added one; null for an
       * added line beyond those removed (it takes the file's dominant ending).
       */
      sources: Array<number | null>;
      tolerances: Tolerance[];
      /** 'appended': the hunk named no place (no old lines, no `@@`), so it goes at the end of the file. */
      placement?: 'appended';
    }
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
  '\u2212': '-', '\u2026': '...', '\u00a0': ' ', '\u202f': ' ', '\u205f': ' ', '\u3000': ' ',
};
// The dash family (hyphen, non-breaking hyphen, figure dash, en and em dash, bar) and the
// typographic spaces (en quad … hair space): models reach for these where code has - and ' '.
for (let code = 0x2010; code <= 0x2015; code += 1) PUNCTUATION[String.fromCharCode(code)] = '-';
for (let code = 0x2000; code <= 0x200a; code += 1) PUNCTUATION[String.fromCharCode(code)] = ' ';
// Every pattern and trim here is linear: a character class without anchors, and the
// built-in trims. (A regex like /\s+$/ retries from each character of a whitespace
// run: a 200 KB run took minutes.)
const PUNCTUATION_PATTERN = new RegExp(`[${Object.keys(PUNCTUATION).join('')}]`, 'g');
/** Trailing whitespace, `\r` included (String.prototype.trimEnd strips exactly what `\s` matches). */
const trimEnd = (line: string): string => {
  countWork(line.length);
  return line.trimEnd();
};
/** The tolerant form of a line. */
const plainPunctuation = (line: string): string => {
  countWork(line.length);
  return trimEnd(line).replace(PUNCTUATION_PATTERN, (character) => PUNCTUATION[character]!);
};
/** Whether a line is empty or whitespace only. */
const isBlankText = (line: string): boolean => {
  countWork(line.length);
  return line.trim() === '';
};
/** Searches of one view done by a scan each before its line index is built (a scan costs a fraction of building it). */
const SCANS_BEFORE_INDEX = 4;
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

/** A file's lines as one pass sees them: normalized, and for the blank-lines pass only the non-blank ones. */
interface PassView {
  lines: readonly string[];
  /** The file line of each of `lines` (null: the same index). */
  positions: Int32Array | null;
  /** Built once scans would cost more: a few hunks are cheaper to find by a scan each than by building an index. */
  index: LineIndex | null;
  searches: number;
}

/**
 * A file's lines (no line terminators), with what anchoring needs computed once and
 * shared by every hunk anchored against it: each pass's normalized lines and line index,
 * and the lines each `@@` hint occurs on. Build one per file version, never per hunk.
 */
export class AnchorableFile {
  private readonly views = new Map<Pass, PassView>();
  private readonly hints = new Map<string, Int32Array>();
  private lastNonBlankLine: number | undefined;

  constructor(readonly lines: readonly string[]) {}

  view(pass: Pass): PassView {
    let view = this.views.get(pass);
    if (view) return view;
    // The exact pass reuses the lines; the others normalize each once (unchanged strings are shared, not copied).
    const normalized = pass.tolerances.length === 0 ? this.lines : this.lines.map(pass.normalize);
    if (pass.skipBlankLines) {
      const positions: number[] = [];
      for (let index = 0; index < normalized.length; index += 1) if (normalized[index] !== '') positions.push(index);
      countWork(normalized.length);
      const kept = positions.map((position) => normalized[position]!);
      view = { lines: kept, positions: Int32Array.from(positions), index: null, searches: 0 };
    } else {
      view = { lines: normalized, positions: null, index: null, searches: 0 };
    }
    this.views.set(pass, view);
    return view;
  }

  /** Every start ≥ `from` of `needle` among the view's lines, in order, lazily. */
  starts(view: PassView, needle: readonly string[], from: number): Iterable<number> {
    view.searches += 1;
    if (view.index === null && view.searches > SCANS_BEFORE_INDEX) view.index = new LineIndex(view.lines);
    return view.index ? view.index.matches(needle, from) : occurrences(view.lines, needle, from);
  }

  /** The lines (tolerantly normalized) that contain `hint`, in order; one scan per distinct hint. */
  linesWith(hint: string): Int32Array {
    let found = this.hints.get(hint);
    if (found) return found;
    const search = new LiteralSearch(hint);
    const lines = this.view(PUNCTUATION_PASS).lines;
    const hits: number[] = [];
    for (let index = 0; index < lines.length; index += 1) if (search.foundIn(lines[index]!)) hits.push(index);
    countWork(lines.length);
    this.hints.set(hint, (found = Int32Array.from(hits)));
    return found;
  }

  get lastNonBlank(): number {
    if (this.lastNonBlankLine === undefined) {
      let line = this.lines.length - 1;
      while (line >= 0 && isBlankText(this.lines[line]!)) line -= 1;
      this.lastNonBlankLine = line;
    }
    return this.lastNonBlankLine;
  }
}

/**
 * Where `hunk` applies in `file`, or why it does not. Linear in the hunk and, per file
 * version, in the file: the indexes are built once and shared by every hunk.
 */
export function anchorHunk(file: AnchorableFile, hunk: AnchorableHunk): AnchorResult {
  countWork(hunk.lines.length);
  const oldLines = oldLinesOf(hunk.lines);
  const hints = hunk.contextHints ?? [];
  const hint = hintPosition(file, hints);
  if (oldLines.length === 0 && hints.length === 0 && !hunk.atEndOfFile) {
    // No old lines and no `@@` context: the reference implementation appends such a chunk
    // at the end of the file; that rule is unambiguous, so Flint adopts it.
    return insertion(file.lines.length, hunk, 'appended');
  }
  if (oldLines.every(isBlankText)) {
    // Pure insertion: only an end-of-file marker or a hint (the line above the change) can say where.
    if (hunk.atEndOfFile) return insertion(file.lines.length, hunk);
    if (hint && !hint.unique) return { status: 'unmatched', reason: 'ambiguous', matches: 2 };
    if (hint) return insertion(hint.line + 1, hunk);
    return { status: 'unmatched', reason: hints.length > 0 ? 'not-found' : 'empty', matches: 0 };
  }
  for (const pass of PASSES) {
    const needle = pass.tolerances.length === 0 ? oldLines : oldLines.map(pass.normalize);
    const matches = findMatches(file, pass, needle, hint?.line ?? 0, hunk.atEndOfFile === true);
    if (matches.length > 1) return { status: 'unmatched', reason: 'ambiguous', matches: matches.length };
    if (matches.length === 1) {
      const [start, end] = matches[0]!;
      return { status: 'anchored', start, end, ...replace(file.lines, start, end, hunk.lines, pass), tolerances: pass.tolerances };
    }
  }
  return { status: 'unmatched', reason: 'not-found', matches: 0 };
}

/**
 * The line of the last context hint, each hint found after the one before; null without
 * hints or when one is missing (then the whole file is searched). `unique` says whether
 * the last hint occurs only once from where it was looked for.
 *
 * Hints beyond the innermost MAX_HINTS are dropped, so a stream of stacked `@@` lines
 * cannot make one hunk scan a long line thousands of times.
 */
function hintPosition(file: AnchorableFile, hints: readonly string[]): { line: number; unique: boolean } | null {
  if (hints.length === 0) return null;
  let position = 0;
  let unique = true;
  for (const hint of hints.slice(-MAX_HINTS)) {
    const lines = file.linesWith(plainPunctuation(hint).trim());
    const at = firstAtOrAfter(lines, position);
    // A hint that is not there is only a hint: search the whole file instead.
    if (at === lines.length) return null;
    position = lines[at]!;
    unique = at + 1 === lines.length;
  }
  return { line: position, unique };
}

function firstAtOrAfter(sorted: Int32Array, value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Every [start, end) where the (normalized) old lines match, start ≥ `from`; at most two
 * are needed to decide. In the blank-lines pass, blank lines of the file may sit anywhere
 * between the needle's lines: the needle is searched among the file's non-blank lines.
 */
function findMatches(file: AnchorableFile, pass: Pass, needle: readonly string[], from: number, atEnd: boolean): Array<[number, number]> {
  const matches: Array<[number, number]> = [];
  const wanted = pass.skipBlankLines ? needle.filter((line) => line !== '') : needle;
  countWork(needle.length);
  if (wanted.length === 0) return matches;
  const view = file.view(pass);
  const fileLine = (index: number): number => (view.positions ? view.positions[index]! : index);
  const first = view.positions ? firstAtOrAfter(view.positions, from) : from;
  for (const start of file.starts(view, wanted, first)) {
    const end = fileLine(start + wanted.length - 1) + 1;
    // At the end of the file: only blank lines may follow.
    if (atEnd && file.lastNonBlank >= end) continue;
    matches.push([fileLine(start), end]);
    if (matches.length > 1) break;
  }
  return matches;
}

/** Builds the new lines for [start, end): the file's own context lines, the hunk's additions re-indented. */
function replace(lines: readonly string[], start: number, end: number, hunk: readonly HunkLine[], pass: Pass): { replacement: string[]; sources: Array<number | null> } {
  const reindent = pass.tolerances.includes('indentation') ? indentationFix(lines, start, hunk) : (line: string) => line;
  const blank: Array<boolean | undefined> = [];
  const isBlank = (index: number): boolean => (blank[index - start] ??= isBlankText(lines[index]!));
  const replacement: string[] = [];
  const sources: Array<number | null> = [];
  // Between kept lines, added lines take the places (and line endings) of removed ones:
  // a line removed and added unchanged is the same line (see placesOfAdded).
  let added: string[] = [];
  let removed: number[] = [];
  const flush = (): void => {
    const places = placesOfAdded(removed.map((at) => lines[at]!), added);
    added.forEach((text, position) => {
      replacement.push(text);
      const place = places[position];
      sources.push(place === null || place === undefined ? null : removed[place]!);
    });
    added = [];
    removed = [];
  };
  const keep = (index: number): void => {
    flush();
    replacement.push(lines[index]!);
    sources.push(index);
  };
  let index = start;
  countWork(hunk.length);
  for (const line of hunk) {
    if (line.kind === 'add') {
      added.push(reindent(line.text));
      continue;
    }
    if (pass.skipBlankLines) {
      // Keep blank lines the user has and the hunk lacks; skip blank lines the hunk has and the file lacks.
      // Blankness is worked out once per line: a long line is never trimmed once per hunk line.
      const isBlankLine = isBlankText(line.text);
      while (index < end && !isBlankLine && isBlank(index)) keep(index++);
      if (isBlankLine && (index >= end || !isBlank(index))) continue;
    }
    if (line.kind === 'context') keep(index);
    else removed.push(index);
    index += 1;
  }
  flush();
  while (index < end) keep(index++);
  return { replacement, sources };
}

/** Maps the hunk's indentation to the file's, from the first non-blank old line and its match. */
function indentationFix(lines: readonly string[], start: number, hunk: readonly HunkLine[]): (line: string) => string {
  const firstOld = hunk.find((line) => line.kind !== 'add' && !isBlankText(line.text));
  let firstFileLine = start;
  while (firstFileLine < lines.length && isBlankText(lines[firstFileLine]!)) firstFileLine += 1;
  const firstFile = lines[firstFileLine];
  if (!firstOld || firstFile === undefined) return (line) => line;
  const hunkIndent = leading(firstOld.text);
  const fileIndent = leading(firstFile);
  if (hunkIndent === fileIndent) return (line) => line;
  return (line) => {
    if (isBlankText(line)) return line;
    if (line.startsWith(hunkIndent)) return fileIndent + line.slice(hunkIndent.length);
    return line;
  };
}

function leading(line: string): string {
  const indent = /^[ \t]*/.exec(line)![0];
  countWork(indent.length + 1);
  return indent;
}

function insertion(at: number, hunk: AnchorableHunk, placement?: 'appended'): AnchorResult {
  const replacement = newLinesOf(hunk.lines);
  return { status: 'anchored', start: at, end: at, replacement, sources: replacement.map(() => null), tolerances: [], ...(placement ? { placement } : {}) };
}
