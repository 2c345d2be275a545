/**
 * Where the user's selection is in the current file: the lines it covers, when it is a run
 * of the file's text (it may start and end mid-line; trailing spaces and line endings may
 * differ, as terminals and editors copy them). A selection found in several places, or
 * too short to tell, is not a focus: the question is then about the file as usual.
 *
 * Linear in the selection and the file, whatever they hold (a selection is up to 1 MB of
 * anything): native trims, and a linear literal search within a line.
 */
import { LiteralSearch, occurrences } from '../../shared/edits/linear-search';
import { countWork } from '../../shared/work-meter';

export type SelectionMatch =
  | { kind: 'lines'; startLine: number; endLine: number }
  | { kind: 'not-found' }
  | { kind: 'ambiguous'; places: number };

/** A single-line selection shorter than this (without spaces) matches too much to mean a place. */
const MIN_SINGLE_LINE_CHARS = 4;
/** Enough places to say "several": counting further is wasted work. */
const MAX_PLACES = 3;

/** The 1-based, inclusive lines of `lines` that `selection` covers. */
export function findSelection(selection: string, lines: readonly string[]): SelectionMatch {
  countWork(selection.length);
  const wanted = trimBlankEdges(selection.replace(/\r\n?/g, '\n').split('\n').map(trimEnd));
  if (wanted.length === 0) return { kind: 'not-found' };
  if (wanted.length === 1) return findWithinLine(wanted[0]!, lines);
  const last = wanted.length - 1;
  const trimmed = lines.map(trimEnd);
  // The whole lines between the first and the last are found by a linear search (a check
  // from every line is file × selection: a 1 MB selection of `}` lines in a file of them).
  const middle = wanted.slice(1, last);
  const candidates = middle.length === 0 ? lines.keys() : mapStarts(occurrences(trimmed, middle), (start) => start - 1);
  const starts: number[] = [];
  for (const index of candidates) {
    if (index < 0 || index + last >= lines.length) continue;
    // Each check costs at most the shorter of the two strings: over the file, its length.
    countWork(Math.min(trimmed[index]!.length, wanted[0]!.length) + Math.min(lines[index + last]!.length, wanted[last]!.length));
    if (trimmed[index]!.endsWith(wanted[0]!) && lines[index + last]!.startsWith(wanted[last]!)) starts.push(index);
    if (starts.length >= MAX_PLACES) break;
  }
  return placed(starts, wanted.length);
}

function* mapStarts(starts: Iterable<number>, map: (start: number) => number): Generator<number> {
  for (const start of starts) yield map(start);
}

function findWithinLine(text: string, lines: readonly string[]): SelectionMatch {
  const needle = text.trim();
  if (needle.replace(/\s/g, '').length < MIN_SINGLE_LINE_CHARS) return { kind: 'not-found' };
  const search = new LiteralSearch(needle);
  const starts: number[] = [];
  for (let index = 0; index < lines.length && starts.length < MAX_PLACES; index += 1) {
    if (search.foundIn(lines[index]!)) starts.push(index);
  }
  return placed(starts, 1);
}

function placed(starts: readonly number[], length: number): SelectionMatch {
  if (starts.length === 0) return { kind: 'not-found' };
  if (starts.length > 1) return { kind: 'ambiguous', places: starts.length };
  return { kind: 'lines', startLine: starts[0]! + 1, endLine: starts[0]! + length };
}

function trimBlankEdges(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && trimEnd(lines[start]!) === '') start += 1;
  while (end > start && trimEnd(lines[end - 1]!) === '') end -= 1;
  return lines.slice(start, end);
}

/** The native trim (linear): `/\s+$/` backtracks quadratically on a long run of spaces inside a line. */
function trimEnd(line: string): string {
  countWork(line.length);
  return line.trimEnd();
}
