/**
 * The prose lines that head a search/replace block: the line naming its file, and the
 * code fences models wrap blocks in. Every check is a scan by hand or an anchored regex
 * without overlapping quantifiers: linear on any line.
 */
import { countWork } from '../work-meter';

/** Quotes and emphasis models wrap a path in (`path`, **path**, "path"); a colon may end it too. */
const WRAPPING = '`*"\'';
const TRAILING = '`*"\':';
/** Longer lines are prose: no real path is this long, and the project is never asked about them. */
const MAX_PATH_LENGTH = 300;
/** Characters of file names besides letters and digits: `@scope/pkg`, `[id].tsx`, `$slug.tsx`, `(group)/`, `c++`, `~`, `\`. */
const PATH_PUNCTUATION = '._-/\\@+~$[]()';
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const WHITESPACE = /\s/;
/** Files commonly named without an extension (besides the `…file` family: Makefile, Dockerfile, Procfile…). */
const BARE_FILE_NAMES = new Set(['makefile', 'GNUmakefile', 'justfile', 'LICENSE', 'LICENCE', 'COPYING', 'NOTICE', 'README', 'CHANGELOG', 'AUTHORS', 'CONTRIBUTORS', 'CODEOWNERS', 'VERSION', 'BUILD', 'WORKSPACE', 'OWNERS', 'Containerfile']);
const isWhitespace = (character: string | undefined): boolean => character !== undefined && WHITESPACE.test(character);

/**
 * The file a prose line names, or null: heading and list markers, then wrapping quotes,
 * backticks, emphasis and a trailing colon are dropped. The project decides first (an
 * existing file wins, even with spaces in its name), then the shape of the rest.
 */
export function pathOfLine(trimmed: string, isProjectPath?: (candidate: string) => boolean): string | null {
  const candidate = stripDecoration(trimmed);
  if (candidate === null) return null;
  if (isProjectPath?.(candidate.text)) return candidate.text;
  return hasPathShape(candidate.text, candidate.isCode) ? candidate.text : null;
}

/**
 * The line without its decoration, and whether it was written as a label (a heading, or a
 * trailing colon, and not in backticks): `Fix:` and `## Summary` are a word, not a file,
 * while `` `Makefile`: `` is code. Scanned by hand: a trailing-class regex is quadratic on a
 * long run of `*`.
 */
function stripDecoration(line: string): { text: string; isCode: boolean } | null {
  let start = listMarkerLength(line);
  let isCode = false;
  while (start < line.length && WRAPPING.includes(line[start]!)) {
    if (line[start] === '`') isCode = true;
    start += 1;
  }
  let end = line.length;
  while (end > start && TRAILING.includes(line[end - 1]!)) {
    end -= 1;
  }
  countWork(start + line.length - end + 1);
  if (end === start || end - start > MAX_PATH_LENGTH) return null;
  return { text: line.slice(start, end), isCode };
}

/**
 * One token of path characters with a letter or digit in it; not a sentence's last word
 * (`Done.`). A bare word (no `.` or `/`) is a file only in backticks or when it is one of
 * the names files without an extension have (`Makefile`, `LICENSE`…): `Also`, **Fix**
 * and `## Summary` are words. A URL has a `:`, which no path here has.
 */
function hasPathShape(text: string, isCode: boolean): boolean {
  let hasLetterOrDigit = false;
  let hasSeparator = false;
  countWork(text.length);
  for (const character of text) {
    if (LETTER_OR_DIGIT.test(character)) hasLetterOrDigit = true;
    else if (!PATH_PUNCTUATION.includes(character)) return false;
    else if (character === '.' || character === '/') hasSeparator = true;
  }
  if (!hasLetterOrDigit || text.endsWith('.')) return false;
  return hasSeparator || isCode || BARE_FILE_NAMES.has(text) || /^[A-Z][a-z]*file$/.test(text);
}

/** The length of a leading `#…` heading, `-`/`*` or `1.`/`1)` list marker, with the spaces after it. */
function listMarkerLength(line: string): number {
  let length = 0;
  if (line.startsWith('#')) {
    while (line[length] === '#') length += 1;
  } else if ((line[0] === '-' || line[0] === '*') && isWhitespace(line[1])) {
    length = 1;
  } else {
    while (length < 9 && line[length]! >= '0' && line[length]! <= '9') length += 1;
    if (length === 0 || (line[length] !== '.' && line[length] !== ')') || !isWhitespace(line[length + 1])) return 0;
    length += 1;
  }
  while (isWhitespace(line[length])) length += 1;
  countWork(length + 1);
  return length;
}

/** How many fence characters (three or more backticks or tildes) a trimmed line opens with; 0 if none. */
function fenceLength(trimmed: string): number {
  const character = trimmed[0];
  if (character !== '`' && character !== '~') return 0;
  let length = 0;
  while (trimmed[length] === character) length += 1;
  countWork(length);
  return length >= 3 ? length : 0;
}

/** A code fence that may open a block: ```` ``` ```` or ```` ```lang ```` (an info string has no backtick). */
export function isFenceOpener(trimmed: string): boolean {
  const length = fenceLength(trimmed);
  if (length === 0) return false;
  countWork(trimmed.length);
  return trimmed[0] === '~' || !trimmed.includes('`', length);
}

/** A bare code fence, which closes one: ```` ``` ```` or `~~~`, nothing after. */
export function isFenceCloser(trimmed: string): boolean {
  const length = fenceLength(trimmed);
  return length > 0 && length === trimmed.length;
}
