/**
 * Context assembly: what one request sends, within the model's context window.
 *
 * Order is for prompt caching: the stable part (instructions, the project outline,
 * the files) goes first and is sent as the request's instructions, which is also what
 * the hotkey pre-loads; the turn (the recent change and the question) comes last.
 */
import type { LineRange } from '../../shared/ask-types';
import { FlintFailure } from '../../shared/result';
import type { LineSpan } from './focus-window';
import { focusWindow } from './focus-window';
import { languageOf } from './languages';
import type { RecentChange } from './recent-change';
import { unifiedDiff } from './recent-change';
import { utf8Length, type LineTokenCache } from './token-counter';

export interface ContextFile {
  path: string;
  lines: readonly string[];
  /** The user's last save of it, when the question is focused on that change. */
  recentChange: RecentChange | null;
  /** The lines the user selected, when the question is focused on them (1-based, inclusive). */
  selection?: LineRange | null;
  /**
   * Named by the user with `@path` (besides the file asked about): left out, and listed
   * in `cut`, when it gets no room, rather than refusing the whole request.
   */
  optional?: boolean;
}

export interface ContextRequest {
  instructions: string;
  /** The project outline, or null outside a project. */
  outline: string | null;
  files: readonly ContextFile[];
  question: string;
  /** The model's context window, in tokens. */
  windowTokens: number;
  tokens: LineTokenCache;
}

export interface FileWindow {
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  totalLines: number;
  truncated: boolean;
}

export interface AssembledContext {
  /** The stable part: instructions, project, files. */
  instructions: string;
  /** The turn: the recent change and the question. */
  input: string;
  /** Upper bound of the tokens sent (exact where a file had to be counted). */
  tokens: number;
  windows: FileWindow[];
  /** Optional files left out: no room for even their first line. */
  cut: string[];
  tokenCounting: string;
}

/** Room kept for a question of ordinary length (at most 1/32 of the window), so the file window does not depend on it. */
export const QUESTION_ALLOWANCE = 2048;

/** Room left for the answer. Small windows (local models) keep a quarter. */
export function outputReserve(windowTokens: number): number {
  return Math.min(8192, Math.floor(windowTokens / 4));
}

export function assembleContext(request: ContextRequest): AssembledContext {
  const { tokens } = request;
  const questionTokens = tokens.text(request.question);
  const questionLimit = Math.floor(request.windowTokens / 4);
  if (questionTokens > questionLimit) {
    throw new FlintFailure(
      'too-large',
      `Your request is about ${questionTokens.toLocaleString('en-US')} tokens; this model's window is ${request.windowTokens.toLocaleString('en-US')}. Shorten it to under ${questionLimit.toLocaleString('en-US')} tokens.`,
    );
  }
  const changes = describeChanges(request);
  const turn = [...changes, `Request: ${request.question}`].join('\n\n');
  const head = [request.instructions, request.outline].filter((part): part is string => part !== null).join('\n\n');
  // The files' room does not depend on the question (unless it is long): the context the
  // hotkey pre-loads before the question is typed is then exactly what is sent.
  const allowance = Math.min(QUESTION_ALLOWANCE, Math.floor(request.windowTokens / 32));
  const turnRoom = tokens.text(changes.join('\n\n')) + Math.max(allowance, questionTokens + 8);
  const budget = request.windowTokens - outputReserve(request.windowTokens) - tokens.text(head) - turnRoom;
  const used = tokens.text(head) + tokens.text(turn);
  const { sections, windows, cut, cost } = placeFiles(request.files, budget, tokens);
  return {
    instructions: [head, ...sections].join('\n\n'),
    input: turn,
    tokens: used + cost,
    windows,
    cut,
    tokenCounting: tokens.method,
  };
}

/**
 * The files' sections within `budget`. Several files share the room fairly: the smallest
 * go first, each taking at most an even share of what is left, so a huge file cannot
 * starve a small one (its window shrinks instead); one file gets it all. Sections keep
 * the files' order. An optional file that gets no room is cut; one the question is about
 * takes what is left when its share is too small, and is refused only when that is too.
 */
function placeFiles(files: readonly ContextFile[], budget: number, tokens: LineTokenCache): { sections: string[]; windows: FileWindow[]; cut: string[]; cost: number } {
  const sizes = files.map((file) => file.lines.reduce((sum, line) => sum + utf8Length(line) + 1, 0));
  const order = files.map((_, index) => index).sort((a, b) => sizes[a]! - sizes[b]!);
  const placed = new Map<number, { section: string; window: FileWindow }>();
  const cut: string[] = [];
  let left = budget;
  let cost = 0;
  order.forEach((index, position) => {
    const file = files[index]!;
    // A file the question is about gets all that is left when its share is not enough for its focus.
    const fitted = fitFile(file, Math.floor(left / (order.length - position)), sizes[index]!, tokens) ?? (file.optional ? null : fitFile(file, left, sizes[index]!, tokens));
    if (!fitted) {
      if (!file.optional) throw new FlintFailure('too-large', `${file.path} does not fit this model's context window: not even the lines in focus do. Ask about a smaller part, or use a model with a larger window.`);
      cut.push(file.path);
      return;
    }
    left -= fitted.cost;
    cost += fitted.cost;
    placed.set(index, fitted);
  });
  const sections: string[] = [];
  const windows: FileWindow[] = [];
  files.forEach((file, index) => {
    const fitted = placed.get(index);
    if (!fitted) return;
    sections.push(fitted.section);
    windows.push(fitted.window);
  });
  return { sections, windows, cut: files.filter((file) => cut.includes(file.path)).map((file) => file.path), cost };
}

/** `file`'s section within `budget` tokens and what it costs; null when not even its first lines fit. */
function fitFile(file: ContextFile, budget: number, bytes: number, tokens: LineTokenCache): { section: string; window: FileWindow; cost: number } | null {
  // The frame (heading, fences, both elision marks with the largest line numbers, the
  // blank line joining sections) is counted at its longest, so the lines get only what is
  // left. (A fence beyond 8 backticks, for a file with such lines, costs a few tokens more:
  // the answer's reserve absorbs them.)
  const longest = { start: file.lines.length, end: file.lines.length - 1, truncated: true };
  const frameBound = tokens.text(frameText(file, longest, '`'.repeat(8))) + 4;
  const window = fileWindow(file, budget - frameBound, bytes, tokens);
  if (window.end === window.start && file.lines.length > 0) return null;
  const body = file.lines.slice(window.start, window.end);
  const fence = fenceFor(body);
  return {
    section: fileSection(file, window, body, fence),
    window: { path: file.path, startLine: window.start + 1, endLine: window.end, totalLines: file.lines.length, truncated: window.truncated },
    cost: window.tokens + tokens.text(frameText(file, window, fence)) + 4,
  };
}

/** The lines of `file` that fit: all of them when their bytes do (no counting needed), else a window around the focus. */
function fileWindow(file: ContextFile, budget: number, bytes: number, tokens: LineTokenCache): { start: number; end: number; tokens: number; truncated: boolean } {
  // Tokens never outnumber bytes: a file whose bytes fit needs no tokenizer.
  if (bytes <= budget) return { start: 0, end: file.lines.length, tokens: bytes, truncated: false };
  const lines = file.selection ?? file.recentChange?.lines ?? null;
  const focus: LineSpan | null = lines ? { start: lines.startLine - 1, end: lines.endLine } : null;
  // A line far longer than the whole budget is not worth tokenizing to find that out.
  return focusWindow(file.lines, focus, budget, (line) => (line.length > budget * 8 ? Number.POSITIVE_INFINITY : tokens.line(line)));
}

interface Span {
  start: number;
  end: number;
  truncated: boolean;
}

/** The section without its lines: heading, fences, elision marks. */
function frame(file: ContextFile, window: Span, fence: string): { before: string[]; after: string[] } {
  const total = file.lines.length;
  const language = languageOf(file.path);
  const shown = window.truncated ? `, lines ${count(window.start + 1)}–${count(window.end)} shown; the rest did not fit` : '';
  const heading = `File: ${file.path} (${language ? `${language}, ` : ''}${count(total)} ${total === 1 ? 'line' : 'lines'}${shown})`;
  const extension = file.path.includes('.') ? file.path.slice(file.path.lastIndexOf('.') + 1) : '';
  const before = [heading, `${fence}${extension}`];
  if (window.start > 0) before.push(`… (lines 1–${count(window.start)} not shown) …`);
  const after: string[] = [];
  if (window.end < total) after.push(`… (lines ${count(window.end + 1)}–${count(total)} not shown) …`);
  after.push(fence);
  return { before, after };
}

function frameText(file: ContextFile, window: Span, fence: string): string {
  const { before, after } = frame(file, window, fence);
  return [...before, ...after].join('\n');
}

function fileSection(file: ContextFile, window: Span, body: readonly string[], fence: string): string {
  const { before, after } = frame(file, window, fence);
  const parts = [...before];
  // A loop, not a spread: the window can hold a hundred thousand lines.
  for (const line of body) parts.push(line);
  for (const line of after) parts.push(line);
  return parts.join('\n');
}

/** What each file's focus is: the lines the user selected, or their last save as a diff (or a sentence when too large). */
function describeChanges(request: ContextRequest): string[] {
  const parts: string[] = [];
  for (const file of request.files) {
    if (file.selection) {
      const { startLine, endLine } = file.selection;
      const where = startLine === endLine ? `line ${startLine}` : `lines ${startLine}–${endLine}`;
      parts.push(`The user selected ${where} of ${file.path} in their editor. Focus on those lines unless the request says otherwise.`);
      continue;
    }
    if (!file.recentChange) continue;
    const { startLine, endLine } = file.recentChange.lines;
    const where = startLine === endLine ? `line ${startLine}` : `lines ${startLine}–${endLine}`;
    const diff = unifiedDiff(file.path, file.recentChange, file.lines);
    // A save that rewrote much of the file is described, not repeated: the file itself is in the context.
    if (utf8Length(diff) > request.windowTokens / 8) {
      parts.push(`The user just saved ${file.path}, changing ${where} (too much to show as a diff). Focus on those lines unless the request says otherwise.`);
      continue;
    }
    const fence = fenceFor(diff.split('\n'));
    parts.push(`The user just saved ${file.path}. What that save changed:\n${fence}diff\n${diff}\n${fence}\nFocus on those lines (${where}) unless the request says otherwise.`);
  }
  return parts;
}

/** A code fence longer than any backtick run that opens a line inside it. */
function fenceFor(lines: readonly string[]): string {
  let longest = 2;
  for (const line of lines) {
    const match = /^\s*(`{3,})/.exec(line);
    if (match && match[1]!.length > longest) longest = match[1]!.length;
  }
  return '`'.repeat(longest + 1);
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
