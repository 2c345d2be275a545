/**
 * The streaming edit parser: model deltas in, edit events out, as soon as they are knowable.
 *
 * Invariants (tested on every split point of every fixture, and fuzzed):
 * - Deltas of any size give the same events: the parser acts on whole lines only, and the
 *   unfinished tail of the stream waits in a buffer until its newline (or the end) arrives.
 * - Nothing is dropped silently: whatever is repaired or ignored becomes a `problem` event.
 * - Events of a hunk come in order: hunk-open, hunk-line…, then hunk-complete — or no
 *   hunk-complete at all if the stream was truncated inside it (the hunk is partial).
 * - Never throws on any input; work per delta is linear in its length.
 *
 * Formats: the V4A apply_patch envelope (`*** Begin Patch` … `*** End Patch`) and
 * search/replace blocks (`path` line, `<<<<<<< SEARCH`, `=======`, `>>>>>>> REPLACE`).
 */
import type { EditEvent, EditStreamParserOptions, FileOperation, HunkLine } from './edit-types';

/** Where the parser is. */
type Mode =
  /** Outside any edit: lines are prose. */
  | 'prose'
  /** Inside a V4A envelope, between file sections. */
  | 'patch'
  /** Inside `*** Update File:`; hunks follow. */
  | 'update'
  /** Inside `*** Add File:`; `+` lines follow. */
  | 'add'
  /** In a search/replace block, before `=======`. */
  | 'search'
  /** In a search/replace block, after `=======`. */
  | 'replace';

// Regexes here are anchored at the start, with bounded or single quantifiers: linear on
// any line. Markers that end in a free-form argument (file headers, Move to) are read by
// hand: `(.*?)\s*$` retries from every character of a whitespace run (quadratic).
const UNIFIED_HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?(.*)$/;
const SEARCH_MARKER = /^<{5,9} ?SEARCH\s*$/;
const DIVIDER_MARKER = /^={5,9}\s*$/;
const REPLACE_MARKER = /^>{5,9} ?REPLACE\s*$/;
const MOVE_MARKER = '*** Move to:';
const FILE_MARKERS: ReadonlyArray<[string, FileOperation]> = [
  ['*** Update File:', 'update'],
  ['*** Add File:', 'add'],
  ['*** Delete File:', 'delete'],
];

const LINE_SEPARATOR = /[\r\u2028\u2029]/;
const WHITESPACE = /\s/;
const isWhitespace = (character: string | undefined): boolean => character !== undefined && WHITESPACE.test(character);
/** Quotes and emphasis models wrap a path in (`path`, **path**, "path"); a colon may end it too. */
const WRAPPING = '`*"\'';
const TRAILING = '`*"\':';

export class EditStreamParser {
  /** The unfinished last line, in the pieces it arrived in. */
  private pieces: string[] = [];
  private mode: Mode = 'prose';
  private lineNumber = 0;
  private fileIndex = -1;
  private hunkIndex = -1;
  /** A hunk has been opened and not completed. */
  private hunkOpen = false;
  private hunkHasLines = false;
  /** `@@` hints read since the last hunk line, for the next hunk. */
  private pendingHints: string[] = [];
  /** An `@@` header was read and no line has followed it yet. */
  private headerPending = false;
  /** The last prose line that looks like a file path (search/replace names files that way). */
  private pathCandidate: string | null = null;
  private searchReplacePath: string | null = null;
  private sawPatchEnvelope = false;
  private finished = false;

  constructor(
    private readonly emit: (event: EditEvent) => void,
    private readonly options: EditStreamParserOptions = {},
  ) {}

  /** Feeds the next piece of the answer. Work is linear in the delta, however long the line. */
  push(delta: string): void {
    if (this.finished || delta.length === 0) return;
    let newline = delta.indexOf('\n');
    if (newline === -1) {
      this.pieces.push(delta);
      return;
    }
    this.line(this.pieces.join('') + delta.slice(0, newline));
    this.pieces = [];
    let start = newline + 1;
    while ((newline = delta.indexOf('\n', start)) !== -1) {
      this.line(delta.slice(start, newline));
      start = newline + 1;
    }
    if (start < delta.length) this.pieces.push(delta.slice(start));
  }

  /**
   * Ends the answer. `truncated` means the stream stopped early (interrupt, drop): an
   * unfinished last line is discarded and an open hunk stays partial.
   */
  finish(truncated: boolean): void {
    if (this.finished) return;
    const rest = this.pieces.join('');
    this.pieces = [];
    if (!truncated && rest.length > 0) this.line(rest);
    this.finished = true;
    if (!truncated) this.closeAtEnd();
    this.emit({ type: 'done', truncated });
  }

  private line(raw: string): void {
    this.lineNumber += 1;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    switch (this.mode) {
      case 'prose':
        return this.proseLine(text);
      case 'patch':
        return this.patchLine(text);
      case 'update':
        return this.updateLine(text);
      case 'add':
        return this.addLine(text);
      case 'search':
      case 'replace':
        return this.searchReplaceLine(text);
      default: {
        const exhaustive: never = this.mode;
        return exhaustive;
      }
    }
  }

  private proseLine(text: string): void {
    const trimmed = text.trim();
    if (trimmed === '*** Begin Patch') {
      this.mode = 'patch';
      this.sawPatchEnvelope = true;
      return;
    }
    if (fileHeader(trimmed) !== null) {
      this.problem('A file header came without "*** Begin Patch"; read as a patch anyway.');
      this.mode = 'patch';
      return this.patchLine(trimmed);
    }
    if (SEARCH_MARKER.test(trimmed)) return this.openSearch();
    if (DIVIDER_MARKER.test(trimmed) || REPLACE_MARKER.test(trimmed)) {
      this.problem(`A stray "${trimmed}" marker outside a search/replace block was ignored.`);
      return;
    }
    const candidate = asPathCandidate(trimmed);
    if (candidate !== null) this.pathCandidate = candidate;
    this.emit({ type: 'prose', text });
  }

  private patchLine(text: string): void {
    const trimmed = text.trim();
    const header = fileHeader(trimmed);
    if (header) return this.openFile(header.operation, header.path);
    if (trimmed === '*** End Patch') {
      this.mode = 'prose';
      return;
    }
    if (trimmed === '*** Begin Patch') return this.problem('A second "*** Begin Patch" was ignored.');
    if (trimmed === '') return;
    if (trimmed.startsWith('***')) return this.problem(`An unknown marker "${trimmed.slice(0, 60)}" was ignored.`);
    this.problem('Text between file sections of a patch was shown as prose.');
    this.emit({ type: 'prose', text });
  }

  private openFile(operation: FileOperation, path: string): void {
    this.closeHunk();
    // A search/replace block after this section must name its file again: no guessing across it.
    this.searchReplacePath = null;
    this.pathCandidate = null;
    if (path === '') {
      this.problem(`A "${operation}" file header without a path was ignored.`);
      this.mode = 'patch';
      return;
    }
    this.fileIndex += 1;
    this.emit({ type: 'file', fileIndex: this.fileIndex, operation, path, format: 'patch' });
    this.pendingHints = [];
    if (operation === 'update') this.mode = 'update';
    else if (operation === 'add') {
      this.mode = 'add';
      this.openHunk();
    } else this.mode = 'patch';
  }

  private updateLine(text: string): void {
    const trimmed = text.trim();
    // Markers start the line: " *** Note" is a context line, not a marker.
    if (text.startsWith('*** ')) {
      const move = markerArgument(trimmed, MOVE_MARKER);
      if (move !== null) {
        if (this.hunkIndex >= 0 && this.hunkOpen) this.problem('"*** Move to:" after a hunk was applied to the file anyway.');
        return this.emit({ type: 'move', fileIndex: this.fileIndex, to: move });
      }
      if (trimmed === '*** End of File') {
        if (this.hunkOpen) this.emit({ type: 'hunk-at-end', hunkIndex: this.hunkIndex });
        else this.problem('"*** End of File" outside a hunk was ignored.');
        return this.closeHunk();
      }
      this.closeHunk();
      return this.patchLine(trimmed);
    }
    if (text.startsWith('@@')) {
      // Stacked `@@` lines (class, then method) narrow one hunk; they are not empty hunks.
      this.closeHunk(false);
      this.headerPending = true;
      const unified = UNIFIED_HUNK_HEADER.exec(text);
      if (unified) {
        this.problem('Line numbers in a "@@ -a,b +c,d @@" header are ignored; hunks are anchored by their text.');
        if (unified[1]!.trim()) this.pendingHints.push(unified[1]!.trim());
      } else if (text.slice(2).trim()) {
        this.pendingHints.push(text.slice(2).trim());
      }
      return;
    }
    const prefix = text[0];
    if (prefix === ' ' || prefix === '-' || prefix === '+') {
      return this.hunkLine({ kind: prefix === ' ' ? 'context' : prefix === '-' ? 'remove' : 'add', text: text.slice(1) });
    }
    // Models often drop the space that prefixes an empty context line.
    if (text === '') return this.hunkLine({ kind: 'context', text: '' });
    this.problem(`An unprefixed line in a hunk was read as context: ${JSON.stringify(text.slice(0, 60))}.`);
    this.hunkLine({ kind: 'context', text });
  }

  private addLine(text: string): void {
    const trimmed = text.trim();
    if (text.startsWith('*** ') && (fileHeader(trimmed) !== null || trimmed === '*** End Patch' || trimmed === '*** Begin Patch')) {
      this.closeHunk();
      this.mode = 'patch';
      return this.patchLine(trimmed);
    }
    if (text.startsWith('+')) return this.hunkLine({ kind: 'add', text: text.slice(1) });
    this.problem(`A line of a new file without "+" was added as written: ${JSON.stringify(text.slice(0, 60))}.`);
    this.hunkLine({ kind: 'add', text });
  }

  private openSearch(): void {
    const path = this.pathCandidate;
    if (path === null) {
      this.problem('A search/replace block without a file path before it cannot be applied; it is shown as unmatched.');
    }
    const resolved = path ?? '';
    if (resolved !== this.searchReplacePath || this.fileIndex < 0) {
      this.fileIndex += 1;
      this.searchReplacePath = resolved;
      this.emit({ type: 'file', fileIndex: this.fileIndex, operation: 'update', path: resolved, format: 'search-replace' });
    }
    this.mode = 'search';
    this.openHunk();
  }

  private searchReplaceLine(text: string): void {
    const trimmed = text.trim();
    if (this.mode === 'search' && DIVIDER_MARKER.test(trimmed)) {
      this.mode = 'replace';
      return;
    }
    if (REPLACE_MARKER.test(trimmed)) {
      if (this.mode === 'search') this.problem('A search/replace block had no "=======" divider; its replacement is empty.');
      this.closeHunk();
      this.mode = 'prose';
      return;
    }
    this.hunkLine({ kind: this.mode === 'search' ? 'remove' : 'add', text });
  }

  private openHunk(): void {
    this.headerPending = false;
    this.hunkIndex += 1;
    this.hunkOpen = true;
    this.hunkHasLines = false;
    this.emit({ type: 'hunk-open', hunkIndex: this.hunkIndex, fileIndex: this.fileIndex, contextHints: this.pendingHints });
    this.pendingHints = [];
  }

  private hunkLine(line: HunkLine): void {
    if (!this.hunkOpen) this.openHunk();
    this.hunkHasLines = true;
    this.emit({ type: 'hunk-line', hunkIndex: this.hunkIndex, line });
  }

  /** Closes the open hunk; at a section's end also reports an `@@` that no line followed. */
  private closeHunk(endOfSection = true): void {
    if (endOfSection && this.headerPending) {
      this.headerPending = false;
      this.pendingHints = [];
      this.problem('An empty hunk (no lines) has nothing to apply.');
    }
    if (!this.hunkOpen) return;
    this.hunkOpen = false;
    if (!this.hunkHasLines) this.problem('An empty hunk (no lines) has nothing to apply.');
    this.emit({ type: 'hunk-complete', hunkIndex: this.hunkIndex });
  }

  /** The answer completed normally: close what is open, naming what was missing. */
  private closeAtEnd(): void {
    switch (this.mode) {
      case 'update':
      case 'add':
      case 'patch':
        if (this.sawPatchEnvelope || this.mode !== 'patch') this.problem('The patch ended without "*** End Patch".');
        this.closeHunk();
        break;
      case 'search':
      case 'replace':
        // Without its REPLACE marker the block may be cut short: keep it partial, never apply it.
        this.problem('A search/replace block ended without ">>>>>>> REPLACE"; it is partial and can only be discarded.');
        this.hunkOpen = false;
        break;
      case 'prose':
        break;
      default: {
        const exhaustive: never = this.mode;
        return exhaustive;
      }
    }
    this.mode = 'prose';
  }

  private problem(message: string): void {
    this.emit({ type: 'problem', message, lineNumber: this.lineNumber });
  }
}

/** A file header (`*** Update File: path`, Add, Delete) on a trimmed line, or null. */
function fileHeader(trimmed: string): { operation: FileOperation; path: string } | null {
  for (const [marker, operation] of FILE_MARKERS) {
    const path = markerArgument(trimmed, marker);
    if (path !== null) return { operation, path };
  }
  return null;
}

/**
 * What follows `marker` at the start of a trimmed line, trimmed; null if the line is not
 * that marker. A line separator inside (`\r`, U+2028, U+2029) makes it no marker: an
 * argument is one line.
 */
function markerArgument(trimmed: string, marker: string): string | null {
  if (!trimmed.startsWith(marker)) return null;
  const argument = trimmed.slice(marker.length).trim();
  return LINE_SEPARATOR.test(argument) ? null : argument;
}

/**
 * A prose line that could name a file for the search/replace block after it: a heading or
 * list marker, then wrapping quotes or emphasis, are dropped around one word with a `.`
 * or `/`. Scanned by hand: a trailing-class regex is quadratic on a long run of `*`.
 */
function asPathCandidate(line: string): string | null {
  let start = listMarkerLength(line);
  while (start < line.length && WRAPPING.includes(line[start]!)) start += 1;
  let end = line.length;
  while (end > start && TRAILING.includes(line[end - 1]!)) end -= 1;
  if (end === start || end - start > 300) return null;
  const stripped = line.slice(start, end);
  if (WHITESPACE.test(stripped)) return null;
  return /[./]/.test(stripped) && !/^https?:/.test(stripped) ? stripped : null;
}

/** The length of a leading `#…` heading marker or `-`/`*` list marker, with the spaces after it. */
function listMarkerLength(line: string): number {
  let length = 0;
  if (line.startsWith('#')) {
    while (line[length] === '#') length += 1;
  } else if ((line[0] === '-' || line[0] === '*') && isWhitespace(line[1])) {
    length = 1;
  } else return 0;
  while (isWhitespace(line[length])) length += 1;
  return length;
}
