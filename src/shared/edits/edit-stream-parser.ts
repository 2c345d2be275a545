/**
 * The streaming edit parser: model deltas in, edit events out, as soon as they are knowable.
 *
 * Invariants (tested on every split point of every fixture, and fuzzed):
 * - Deltas of any size give the same events, but the screen's previews of what is still
 *   arriving (`hunk-partial`, `prose-partial`): the parser acts on whole lines, and the
 *   unfinished tail waits in a buffer until its newline (or the end).
 * - Nothing is dropped silently: what is repaired or ignored becomes a `problem`, but lines
 *   that are no content: separators, a block's path line and fences, an envelope's fence.
 * - The parser never writes what the answer didn't say: every hunk line is a line of the
 *   answer, at most without its `+`/`-`/` ` prefix.
 * - A hunk's events come in order: hunk-open, hunk-line…, then hunk-complete — or no
 *   hunk-complete if the stream was truncated inside it (the hunk is partial).
 * - Never throws on any input; work per delta is linear in its length.
 *
 * Formats: the V4A envelope (`*** Begin Patch` … `*** End Patch`) and search/replace blocks
 * (`path` line, SEARCH, `=======`, REPLACE). What models really write, and how it is read:
 * - Padded envelope markers are markers. In an Add section (every line starts with `+`) any
 *   line whose trimmed text is a marker is one; in an Update section only the envelope's
 *   own (file header, Begin/End Patch, End of File, Move to): " *** Note" is context.
 * - A bare empty line in an Update or Add section lost its prefix only if another line of
 *   the hunk follows; until then it is held, and at the hunk's end it is dropped. A line of
 *   one space is an explicit empty context line, emitted at once.
 * - A block's file is named by the prose line right before its SEARCH marker (an opening
 *   fence and two blank lines may sit between); a block without one continues the previous
 *   block's file. Such lines are held until the next line tells (edit-stream-header.ts),
 *   shown meanwhile as the prose tail (prose-tail.ts). A fence right before `*** Begin
 *   Patch` is the envelope's; a consumed fence's closing fence is consumed too (it ends a
 *   patch that lacks End Patch, with a problem).
 * - Marker spellings vary without a problem: 5 to 9 brackets, a missing space, a stray `>`.
 */
import type { EditEvent, EditStreamParserOptions, FileOperation, HunkLine } from './edit-types';
import { BlockHeaderLookahead } from './edit-stream-header';
import { UnfinishedLine } from './unfinished-line';
import { ProseTail } from './prose-tail';
import {
  BEGIN_PATCH,
  END_OF_FILE,
  END_PATCH,
  fileHeader,
  hunkHeaderHint,
  isDividerMarker,
  isEnvelopeMarker,
  isReplaceMarker,
  isSearchMarker,
  markerArgument,
  MOVE_MARKER,
  trimmedLine,
} from './edit-stream-markers';
import { countWork } from '../work-meter';
import { LinePreview, type ParserMode } from './edit-stream-lines';

export class EditStreamParser {
  private readonly unfinished = new UnfinishedLine();
  private mode: ParserMode = 'prose';
  private lineNumber = 0;
  private fileIndex = -1;
  private hunkIndex = -1;
  private hunkOpen = false;
  private hunkHasLines = false;
  /** `@@` hints of the hunk being opened (and, while it has no line yet, stacked onto it). */
  private pendingHints: string[] = [];
  /** When the line being read began to arrive (with a clock), for `hunk-open`. */
  private lineStartedAt: number | undefined;
  private readonly linePreview = new LinePreview();
  /** The unfinished line is an `@@` header that already opened its hunk (see openAtHeader). */
  private openedAtHeader = false;
  private readonly now: (() => number) | undefined;
  /** Bare empty lines of a patch section read since its last hunk line: empty lines or separators, as what follows tells. */
  private heldBlankLines = 0;
  /** Prose lines that may head a search/replace block, held until the next line tells. */
  private readonly blockHeader: BlockHeaderLookahead;
  private readonly proseTail: ProseTail;
  private searchReplacePath: string | null = null;
  private sawPatchEnvelope = false;
  private finished = false;

  constructor(
    private readonly emit: (event: EditEvent) => void,
    options: EditStreamParserOptions = {},
  ) {
    this.proseTail = new ProseTail(emit);
    this.blockHeader = new BlockHeaderLookahead((text) => this.proseTail.commit(text), options.isProjectPath);
    this.now = options.now;
  }

  /** Feeds the next piece of the answer. Work is linear in the delta, however long the line. */
  push(delta: string): void {
    if (this.finished || delta.length === 0) return;
    let newline = delta.indexOf('\n');
    // The clock dates a line's start only: read when one starts in this delta.
    const now = newline !== -1 || this.unfinished.isEmpty ? this.now?.() : undefined;
    if (this.unfinished.isEmpty) this.lineStartedAt = now;
    if (newline === -1) return this.unfinishedPart(delta);
    this.line(this.unfinished.take() + delta.slice(0, newline));
    this.lineStartedAt = now;
    let start = newline + 1;
    while ((newline = delta.indexOf('\n', start)) !== -1) {
      this.line(delta.slice(start, newline));
      start = newline + 1;
    }
    if (start < delta.length) this.unfinishedPart(delta.slice(start));
  }

  /** A piece of a line whose newline has not come: kept, and previewed if it is a hunk's or prose. */
  private unfinishedPart(piece: string): void {
    this.unfinished.add(piece);
    if (this.mode === 'prose') this.proseTail.piece(piece);
    this.openAtHeader(piece.length);
    this.preview(piece);
  }

  /** A V4A hunk opens at its `@@` line's first two bytes (on screen a token sooner); hunkHeader then adds its hints: the same events however split. */
  private openAtHeader(added: number): void {
    const head = this.unfinished.head;
    // Its first two characters decide: a line that had them before the `added` ones is decided (no work per delta).
    if (this.mode !== 'update' || this.openedAtHeader || head.length - added >= 2 || !head.startsWith('@@')) return;
    // A stacked `@@` (the open hunk has no line yet) narrows that hunk: nothing opens.
    if (this.hunkOpen && !this.hunkHasLines) return;
    this.openedAtHeader = true;
    this.closeHunk();
    this.openHunk();
  }

  /** Shows the open hunk's unfinished line as it arrives (never a marker's first characters). */
  private preview(piece: string): void {
    if (!this.hunkOpen) return;
    const line = this.linePreview.next(this.mode, this.unfinished.head, piece);
    if (line === null) return;
    this.emit({ type: 'hunk-partial', hunkIndex: this.hunkIndex, line });
  }

  /**
   * Ends the answer; `truncated`: it stopped early (interrupt, drop). Then an unfinished line
   * is dropped (unless it is prose on screen) and an open hunk stays partial. Held prose lines
   * are shown either way: only SEARCH could have made them a block's header, and none came.
   */
  finish(truncated: boolean): void {
    if (this.finished) return;
    const rest = this.unfinished.take();
    // Prose applies to no file: what the user already reads of a cut-off line stays.
    if (rest.length > 0 && (!truncated || (this.mode === 'prose' && this.proseTail.unfinishedShows))) this.line(rest);
    this.finished = true;
    this.blockHeader.release();
    this.proseTail.settle('');
    if (!truncated) this.closeAtEnd();
    this.emit({ type: 'done', truncated });
  }

  /** A whole line; then the prose tail shows what the held lines show. */
  private line(raw: string): void {
    this.proseTail.lineEnded();
    this.readLine(raw);
    this.proseTail.settle(this.mode === 'prose' ? this.blockHeader.shownHeld() : '');
  }

  private readLine(raw: string): void {
    this.lineNumber += 1;
    this.linePreview.reset();
    const openedAtHeader = this.openedAtHeader;
    this.openedAtHeader = false;
    if (openedAtHeader) return this.hunkHeader(raw.endsWith('\r') ? raw.slice(0, -1) : raw, true);
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
    const trimmed = trimmedLine(text);
    if (isSearchMarker(trimmed)) return this.openSearch();
    if (trimmed === BEGIN_PATCH || fileHeader(trimmed) !== null) return this.openEnvelope(trimmed);
    if (!isDividerMarker(trimmed) && !isReplaceMarker(trimmed)) return this.blockHeader.line(text);
    // No block follows: what was held back is prose, and it came first.
    this.blockHeader.release();
    this.problem(`A stray "${trimmed}" marker outside a search/replace block was ignored.`);
  }

  /** A patch begins (with Begin Patch, or straight at a file header); a fence right before it is its own. */
  private openEnvelope(trimmed: string): void {
    this.blockHeader.takeFence();
    this.mode = 'patch';
    if (trimmed === BEGIN_PATCH) {
      this.sawPatchEnvelope = true;
      return;
    }
    this.problem('A file header came without "*** Begin Patch"; read as a patch anyway.');
    this.patchLine(trimmed);
  }

  private patchLine(text: string): void {
    const trimmed = trimmedLine(text);
    const header = fileHeader(trimmed);
    if (header) return this.openFile(header.operation, header.path);
    if (trimmed === END_PATCH) {
      this.mode = 'prose';
      return;
    }
    if (trimmed === BEGIN_PATCH) return this.problem('A second "*** Begin Patch" was ignored.');
    if (trimmed === '') return;
    if (trimmed.startsWith('***')) return this.problem(`An unknown marker "${trimmed.slice(0, 60)}" was ignored.`);
    if (this.blockHeader.closesFence(text)) return this.fenceEndsPatch(text);
    this.problem('Text between file sections of a patch was shown as prose.');
    this.proseTail.commit(text);
  }

  private openFile(operation: FileOperation, path: string): void {
    this.closeHunk();
    // A search/replace block after this section must name its file again: no guessing across it.
    this.searchReplacePath = null;
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
    const trimmed = trimmedLine(text);
    // Markers start the line, or are the whole line once trimmed: " *** Note" is a context line.
    if (text.startsWith('*** ') || isEnvelopeMarker(trimmed)) {
      // A padded marker is read as the marker, but one space is also the context prefix: a
      // file may hold that line. Never silently: the hunk it ends is said to end there.
      const contextPrefixed = text.startsWith(' ') && text[1] !== ' ' && text[1] !== '\t';
      if (contextPrefixed && this.hunkOpen && this.hunkHasLines && trimmed !== END_OF_FILE && markerArgument(trimmed, MOVE_MARKER) === null) {
        this.problem(`A padded ${JSON.stringify(trimmed.slice(0, 60))} ended the hunk before it; if it was a line of the file, the hunk is cut short there.`);
      }
      return this.updateMarker(trimmed);
    }
    if (text.startsWith('@@')) return this.hunkHeader(text);
    if (text === '') {
      this.heldBlankLines += 1;
      return;
    }
    const prefix = text[0];
    if (prefix === ' ' || prefix === '-' || prefix === '+') {
      return this.hunkLine({ kind: prefix === ' ' ? 'context' : prefix === '-' ? 'remove' : 'add', text: text.slice(1) });
    }
    if (this.blockHeader.closesFence(text)) return this.fenceEndsPatch(text);
    this.problem(`An unprefixed line in a hunk was read as context: ${JSON.stringify(text.slice(0, 60))}.`);
    this.hunkLine({ kind: 'context', text });
  }

  private updateMarker(trimmed: string): void {
    // Blank lines before a marker separate; they are not lines of the hunk.
    this.heldBlankLines = 0;
    const move = markerArgument(trimmed, MOVE_MARKER);
    if (move !== null) {
      if (this.hunkIndex >= 0 && this.hunkOpen) this.problem('"*** Move to:" after a hunk was applied to the file anyway.');
      return this.emit({ type: 'move', fileIndex: this.fileIndex, to: move });
    }
    if (trimmed === END_OF_FILE) {
      if (this.hunkOpen) this.emit({ type: 'hunk-at-end', hunkIndex: this.hunkIndex });
      else this.problem('"*** End of File" outside a hunk was ignored.');
      return this.closeHunk();
    }
    this.closeHunk();
    this.patchLine(trimmed);
  }

  /** A hunk opens at its `@@` line (`opened`: already, at its first bytes); its hint follows as `hunk-hints`; stacked `@@` lines narrow one hunk. */
  private hunkHeader(text: string, opened = false): void {
    if (!opened && !(this.hunkOpen && !this.hunkHasLines)) {
      this.closeHunk();
      this.openHunk();
    }
    this.heldBlankLines = 0; // Blank lines between stacked `@@` lines separate them.
    const { hint, hadLineNumbers } = hunkHeaderHint(text);
    if (hadLineNumbers) this.problem('Line numbers in a "@@ -a,b +c,d @@" header are ignored; hunks are anchored by their text.');
    if (!hint) return;
    countWork(this.pendingHints.push(hint)); // All of them are copied into the event.
    this.emit({ type: 'hunk-hints', hunkIndex: this.hunkIndex, contextHints: [...this.pendingHints] });
  }

  private addLine(text: string): void {
    const trimmed = trimmedLine(text);
    // Every line of a new file starts with `+`: a marker is one however it is padded.
    if (isEnvelopeMarker(trimmed)) return this.addMarker(trimmed);
    if (text.startsWith('+')) return this.hunkLine({ kind: 'add', text: text.slice(1) });
    if (text === '') {
      this.heldBlankLines += 1;
      return;
    }
    if (this.blockHeader.closesFence(text)) return this.fenceEndsPatch(text);
    this.problem(`A line of a new file without "+" was added as written: ${JSON.stringify(text.slice(0, 60))}.`);
    this.hunkLine({ kind: 'add', text });
  }

  private addMarker(trimmed: string): void {
    if (trimmed === END_OF_FILE || markerArgument(trimmed, MOVE_MARKER) !== null) return this.problem(`"${trimmed.slice(0, 60)}" in a new file was ignored.`);
    this.closeHunk();
    this.mode = 'patch';
    this.patchLine(trimmed);
  }

  /** The fence the patch was written in closed before `*** End Patch`: the patch ended there. */
  private fenceEndsPatch(fence: string): void {
    this.problem('A code fence closed the patch before "*** End Patch"; the patch ends there.');
    this.closeHunk();
    this.mode = 'prose';
    this.blockHeader.line(fence);
  }

  private openSearch(): void {
    // No path line right before: the block continues the previous block's file, the common case.
    const path = this.blockHeader.take() ?? (this.searchReplacePath || null);
    if (path === null) this.problem('A search/replace block without a file path before it cannot be applied; it is shown as unmatched.');
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
    const trimmed = trimmedLine(text);
    if (this.mode === 'search' && isDividerMarker(trimmed)) {
      this.mode = 'replace';
      return;
    }
    if (isReplaceMarker(trimmed)) {
      if (this.mode === 'search') this.problem('A search/replace block had no "=======" divider; its replacement is empty.');
      this.closeHunk();
      this.mode = 'prose';
      return;
    }
    this.hunkLine({ kind: this.mode === 'search' ? 'remove' : 'add', text });
  }

  private openHunk(): void {
    this.hunkIndex += 1;
    this.hunkOpen = true;
    this.hunkHasLines = false;
    this.emit({ type: 'hunk-open', hunkIndex: this.hunkIndex, fileIndex: this.fileIndex, contextHints: [...this.pendingHints], ...(this.lineStartedAt !== undefined ? { startedAt: this.lineStartedAt } : {}) });
  }

  /** Emits a line of the open hunk (opening one if none is), after the blank lines held before it. */
  private hunkLine(line: HunkLine): void {
    if (!this.hunkOpen) this.openHunk();
    this.hunkHasLines = true;
    this.pendingHints = [];
    const blank: HunkLine = { kind: this.mode === 'add' ? 'add' : 'context', text: '' };
    for (; this.heldBlankLines > 0; this.heldBlankLines -= 1) this.emit({ type: 'hunk-line', hunkIndex: this.hunkIndex, line: { ...blank } });
    this.emit({ type: 'hunk-line', hunkIndex: this.hunkIndex, line });
  }

  /** Closes the open hunk (reporting one no line followed), dropping the blank lines held at its end (separators). */
  private closeHunk(): void {
    this.heldBlankLines = 0;
    this.pendingHints = [];
    if (!this.hunkOpen) return;
    this.hunkOpen = false;
    if (!this.hunkHasLines) this.problem('An empty hunk (no lines) has nothing to apply.');
    this.emit({ type: 'hunk-complete', hunkIndex: this.hunkIndex });
  }

  /** The answer completed normally: close what is open, naming what was missing. */
  private closeAtEnd(): void {
    if (this.mode === 'search' || this.mode === 'replace') {
      // Without its REPLACE marker the block may be cut short: keep it partial, never apply it.
      this.problem('A search/replace block ended without ">>>>>>> REPLACE"; it is partial and can only be discarded.');
      this.hunkOpen = false;
    } else if (this.mode !== 'prose') {
      if (this.sawPatchEnvelope || this.mode !== 'patch') this.problem('The patch ended without "*** End Patch".');
      this.closeHunk();
    }
    this.mode = 'prose';
  }

  private problem(message: string): void {
    this.emit({ type: 'problem', message, lineNumber: this.lineNumber });
  }
}

