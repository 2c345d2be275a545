/**
 * Edits as the model proposes them: files, hunks, lines — the vocabulary of the live diff.
 *
 * Two formats arrive: the V4A apply_patch envelope (OpenAI Codex models) and
 * search/replace blocks (other models). Both parse to the same hunks.
 */

/** One line of a hunk, without its prefix character. */
export interface HunkLine {
  /** ` ` context (kept), `-` removed, `+` added. */
  kind: 'context' | 'remove' | 'add';
  text: string;
}

/** What a patch does to one file. */
export type FileOperation =
  /** Change hunks inside an existing file (optionally moving it). */
  | 'update'
  /** Create a new file with the given lines. */
  | 'add'
  /** Delete the file. */
  | 'delete';

/** How the model wrote a file's edits: the V4A envelope, or search/replace blocks. */
export type EditFormat = 'patch' | 'search-replace';

/** What the parser may ask of the project (it knows nothing of disk itself). */
export interface EditStreamParserOptions {
  /**
   * Whether `candidate` names a file of the project, as a path relative to the root or as
   * the bare name of a file there (one or more: several make Flint refuse, naming them). A search/replace block's path line is decided
   * by this first (an existing file wins), then by the line's shape.
   */
  isProjectPath?: (candidate: string) => boolean;
  /**
   * A clock (epoch ms): with one, `hunk-open` says when the first byte of the line that
   * opened the hunk arrived (the latency of a hunk's first paint is measured from it).
   */
  now?: () => number;
}

/** An event from the incremental parser, emitted as soon as it is knowable. */
export type EditEvent =
  /** Text outside any edit (the model's short prose), one whole line at a time; it ends the prose tail. */
  | { type: 'prose'; text: string }
  /**
   * The prose not yet decided, for the screen only (prose-tail.ts): what follows the prose
   * lines so far. `replace` sets it, otherwise `text` is appended. Like `hunk-partial` it
   * depends on where deltas split.
   */
  | { type: 'prose-partial'; text: string; replace: boolean }
  /** A file section began. */
  | { type: 'file'; fileIndex: number; operation: FileOperation; path: string; format: EditFormat }
  /** The file section being read moves the file (V4A `*** Move to:`). */
  | { type: 'move'; fileIndex: number; to: string }
  /**
   * A hunk began (at its `@@` header, SEARCH marker or Add File header, or at its first line
   * when it has none); a V4A hunk's `@@ text` hints (class, then function…, outermost
   * first) follow as `hunk-hints`; `startedAt` is when the opening line's first byte arrived (with a clock).
   */
  | { type: 'hunk-open'; hunkIndex: number; fileIndex: number; contextHints: string[]; startedAt?: number }
  /** A stacked `@@` line narrowed the open hunk before its first line: its hints so far. */
  | { type: 'hunk-hints'; hunkIndex: number; contextHints: string[] }
  /**
   * A preview of the open hunk's line still arriving (its first characters so far), for the
   * screen only: replaced by the next preview, gone when the line completes as a
   * `hunk-line`. Unlike every other event it depends on where deltas split.
   */
  | { type: 'hunk-partial'; hunkIndex: number; line: HunkLine }
  /** The open hunk must match at the end of the file (V4A `*** End of File`). */
  | { type: 'hunk-at-end'; hunkIndex: number }
  /** One complete line of the open hunk. */
  | { type: 'hunk-line'; hunkIndex: number; line: HunkLine }
  /** The hunk is complete: nothing more will be added to it. */
  | { type: 'hunk-complete'; hunkIndex: number }
  /** Something malformed was met and how it was handled (never silently). */
  | { type: 'problem'; message: string; lineNumber: number }
  /** The answer ended; `truncated` if it stopped mid-edit (interrupt, dropped stream). */
  | { type: 'done'; truncated: boolean };

/** A preview for the screen of what is still arriving (an unfinished hunk line, the prose tail): it depends on where deltas split, and says nothing the answer says. */
export function isScreenPreview(event: EditEvent): boolean {
  return event.type === 'hunk-partial' || event.type === 'prose-partial';
}

/** The events about files and hunks (a hunk board's), not the prose or problems around them. */
export type HunkStreamEvent = Exclude<EditEvent, { type: 'prose' | 'prose-partial' | 'problem' }>;

export function isHunkStreamEvent(event: EditEvent): event is HunkStreamEvent {
  return event.type !== 'prose' && event.type !== 'prose-partial' && event.type !== 'problem';
}

/** The parser's whole result, built from its events (used by tests and the edit session). */
export interface ParsedAnswer {
  prose: string[];
  files: ParsedFile[];
  problems: string[];
  truncated: boolean;
}

export interface ParsedFile {
  operation: FileOperation;
  format: EditFormat;
  path: string;
  moveTo?: string;
  hunks: ParsedHunk[];
}

export interface ParsedHunk {
  hunkIndex: number;
  contextHints: string[];
  atEndOfFile: boolean;
  lines: HunkLine[];
  /** False for the hunk a truncated stream left open: it can only be discarded. */
  complete: boolean;
}

/** The text a hunk expects to find (context + removed lines, in order). */
export function oldLinesOf(lines: readonly HunkLine[]): string[] {
  return lines.filter((line) => line.kind !== 'add').map((line) => line.text);
}

/** The text a hunk leaves behind (context + added lines, in order). */
export function newLinesOf(lines: readonly HunkLine[]): string[] {
  return lines.filter((line) => line.kind !== 'remove').map((line) => line.text);
}
