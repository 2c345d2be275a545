/**
 * The markers of both edit formats, as the streaming parser reads them: one line at a time,
 * leniently spelled (models pad them, vary the bracket count, add a stray `>`).
 *
 * Regexes here are anchored at the start, with bounded or single quantifiers: linear on
 * any line. Markers that end in a free-form argument (file headers, Move to) are read by
 * hand: `(.*?)\s*$` retries from every character of a whitespace run (quadratic).
 */
import { countWork } from '../work-meter';
import type { FileOperation } from './edit-types';

export const BEGIN_PATCH = '*** Begin Patch';
export const END_PATCH = '*** End Patch';
export const END_OF_FILE = '*** End of File';
export const MOVE_MARKER = '*** Move to:';

const UNIFIED_HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$/;
// A stray `>` after the word (`<<<<<<< SEARCH>`) is a slip of the pen, never content: read past it.
const SEARCH_MARKER = /^<{5,9} ?SEARCH>?\s*$/;
const DIVIDER_MARKER = /^={5,9}\s*$/;
const REPLACE_MARKER = /^>{5,9} ?REPLACE>?\s*$/;
const FILE_MARKERS: ReadonlyArray<[string, FileOperation]> = [
  ['*** Update File:', 'update'],
  ['*** Add File:', 'add'],
  ['*** Delete File:', 'delete'],
];
const LINE_SEPARATOR = /[\r\u2028\u2029]/;

/** A line without its leading and trailing whitespace (its characters counted as work). */
export function trimmedLine(text: string): string {
  countWork(text.length);
  return text.trim();
}

/** A regex of this file on a line: anchored and linear, so its subject's length is its work. */
function tests(pattern: RegExp, text: string): boolean {
  countWork(text.length);
  return pattern.test(text);
}

/** `<<<<<<< SEARCH` on a trimmed line. */
export const isSearchMarker = (trimmed: string): boolean => tests(SEARCH_MARKER, trimmed);
/** `=======` on a trimmed line. */
export const isDividerMarker = (trimmed: string): boolean => tests(DIVIDER_MARKER, trimmed);
/** `>>>>>>> REPLACE` on a trimmed line. */
export const isReplaceMarker = (trimmed: string): boolean => tests(REPLACE_MARKER, trimmed);

/** A file header (`*** Update File: path`, Add, Delete) on a trimmed line, or null. */
export function fileHeader(trimmed: string): { operation: FileOperation; path: string } | null {
  for (const [marker, operation] of FILE_MARKERS) {
    const path = markerArgument(trimmed, marker);
    if (path !== null) return { operation, path };
  }
  return null;
}

/**
 * Whether a trimmed line is one of the envelope's own markers: a file header, Begin or
 * End Patch, End of File, Move to. Inside a section such a line is that marker however it
 * is padded; any other `*** …` line is a marker only at the start of the line.
 */
export function isEnvelopeMarker(trimmed: string): boolean {
  if (!trimmed.startsWith('*** ')) return false;
  if (trimmed === BEGIN_PATCH || trimmed === END_PATCH || trimmed === END_OF_FILE) return true;
  return fileHeader(trimmed) !== null || markerArgument(trimmed, MOVE_MARKER) !== null;
}

/**
 * What follows `marker` at the start of a trimmed line, trimmed; null if the line is not
 * that marker. A line separator inside (`\r`, U+2028, U+2029) makes it no marker: an
 * argument is one line.
 */
export function markerArgument(trimmed: string, marker: string): string | null {
  if (!trimmed.startsWith(marker)) return null;
  const argument = trimmedLine(trimmed.slice(marker.length));
  return tests(LINE_SEPARATOR, argument) ? null : argument;
}

/**
 * An `@@` line's hint (the text after it, trimmed; '' if none), and whether it carried
 * unified-diff line numbers (`@@ -a,b +c,d @@ hint`), which are ignored.
 */
export function hunkHeaderHint(text: string): { hint: string; hadLineNumbers: boolean } {
  countWork(text.length);
  const unified = UNIFIED_HUNK_HEADER.exec(text);
  if (unified) return { hint: trimmedLine(unified[1]!), hadLineNumbers: true };
  return { hint: trimmedLine(text.slice(2)), hadLineNumbers: false };
}
