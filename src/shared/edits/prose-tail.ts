/**
 * The prose still being decided, shown as it streams.
 *
 * The parser reads whole lines: a prose line is known to be prose only at its newline, and
 * a line that may name a search/replace block's file is held until the lines after it tell
 * (edit-stream-header.ts). At 25 tokens/s a paragraph's line takes seconds, so the screen
 * must not wait for it. What the parser has not decided yet is shown after the prose so
 * far as a tail, replaced as it is decided:
 *
 * - the held lines that may head a block and read as text (a path line, blank lines; never
 *   a fence), in order;
 * - the unfinished line's characters as they come, unless the line could still be a marker
 *   (SEARCH, `=======`, REPLACE, a patch's Begin Patch or file header, a code fence): those
 *   are held until the line departs from every marker, at most DECISION_WINDOW characters.
 *
 * Events (`prose-partial`, screen only, like `hunk-partial` they depend on where deltas
 * split): `replace` sets the tail, otherwise the text is appended to it. Every `prose` line
 * clears the tail. So a path line shown at once and then taken as a block's header
 * disappears from the prose when its SEARCH comes (its file heads the hunk): never shown
 * twice, never lost. Work per delta is linear in the delta: only the first
 * DECISION_WINDOW characters of a line are ever looked at twice.
 */
import { countWork } from '../work-meter';
import type { EditEvent } from './edit-types';

/** What may be shown of an unfinished prose line. */
export type ProseLineGate =
  /** It may still be a marker: nothing yet. */
  | 'undecided'
  /** It can be no marker: every character, as it comes. */
  | 'shown'
  /** A marker or a fence, or too long to tell: nothing until its newline. */
  | 'hidden';

/** A line still undecided after this many characters is a padded marker at best: hidden until it ends. */
export const DECISION_WINDOW = 64;

/** Markers whose whole line is the marker, apart from trailing whitespace. */
const WHOLE_LINE_MARKERS = ['*** Begin Patch'];
/** Markers followed by a free argument: once written, the line is that marker. */
const ARGUMENT_MARKERS = ['*** Update File:', '*** Add File:', '*** Delete File:'];
const ONLY_WHITESPACE = /^\s*$/;
const LEADING_WHITESPACE = /^\s*/;

/** What may be shown of a prose line that begins with `start` (its first characters; only DECISION_WINDOW of them are read). */
export function proseLineGate(start: string): ProseLineGate {
  const window = start.length > DECISION_WINDOW ? start.slice(0, DECISION_WINDOW) : start;
  countWork(window.length);
  const text = window.slice(LEADING_WHITESPACE.exec(window)![0].length);
  let gate: ProseLineGate;
  if (text === '') gate = 'undecided';
  else if (text.startsWith('```') || text.startsWith('~~~')) gate = 'hidden';
  else if (ARGUMENT_MARKERS.some((marker) => text.startsWith(marker))) gate = 'hidden';
  else gate = couldBeFenceStart(text) || WHOLE_LINE_MARKERS.some((marker) => couldBeLiteral(text, marker)) || couldBeBracketMarker(text) ? 'undecided' : 'shown';
  // Too long to tell: a marker padded this much is no line a model writes, but hold it to the end.
  return gate === 'undecided' && start.length >= DECISION_WINDOW ? 'hidden' : gate;
}

/** "`", "``", "~", "~~": not a fence yet, maybe one. */
const couldBeFenceStart = (text: string): boolean => text === '`' || text === '``' || text === '~' || text === '~~';

/** `text` is the start of `marker` (or of any marker argument), or the marker and trailing whitespace. */
function couldBeLiteral(text: string, marker: string): boolean {
  if (marker.startsWith(text)) return true;
  if (ARGUMENT_MARKERS.some((argument) => argument.startsWith(text))) return true;
  return text.startsWith(marker) && ONLY_WHITESPACE.test(text.slice(marker.length));
}

/** `<<<<<<< SEARCH`, `=======`, `>>>>>>> REPLACE` (5 to 9 brackets, one space at most, a stray `>`), or the start of one. */
function couldBeBracketMarker(text: string): boolean {
  const bracket = text[0];
  if (bracket !== '<' && bracket !== '=' && bracket !== '>') return false;
  let run = 0;
  while (run < text.length && text[run] === bracket) run += 1;
  if (run > 9) return false;
  if (run === text.length) return true;
  if (run < 5) return false;
  const rest = text.slice(run);
  if (bracket === '=') return ONLY_WHITESPACE.test(rest);
  const word = rest.startsWith(' ') ? rest.slice(1) : rest;
  const name = bracket === '<' ? 'SEARCH' : 'REPLACE';
  if (name.startsWith(word)) return true;
  if (!word.startsWith(name)) return false;
  const after = word.slice(name.length);
  return ONLY_WHITESPACE.test(after.startsWith('>') ? after.slice(1) : after);
}

/**
 * The tail the screen shows after the prose so far, and the `prose` lines that end it. The
 * parser tells it the unfinished line's pieces (in prose), each line's end, and after each
 * line what the held lines show.
 */
export class ProseTail {
  /** The tail as last set (`replace`). */
  private base = '';
  /** Characters appended to it since. */
  private appended = 0;
  private gate: ProseLineGate = 'undecided';
  /** The unfinished line while undecided (at most DECISION_WINDOW characters and a delta). */
  private pending = '';

  constructor(private readonly emit: (event: EditEvent) => void) {}

  /** A whole prose line, for good: the tail is gone with it. */
  commit(text: string): void {
    this.base = '';
    this.appended = 0;
    this.emit({ type: 'prose', text });
  }

  /** A piece of the unfinished prose line: shown as soon as the line can be no marker. */
  piece(piece: string): void {
    if (this.gate === 'hidden') return;
    if (this.gate === 'shown') return this.append(piece);
    this.pending += piece;
    this.gate = proseLineGate(this.pending);
    if (this.gate === 'undecided') return;
    const decided = this.pending;
    this.pending = '';
    if (this.gate === 'shown') this.append(decided);
  }

  /** Whether the unfinished line, ended here, shows: the gate its text so far gives. */
  get unfinishedShows(): boolean {
    return this.gate === 'shown';
  }

  /** The unfinished line ended (whole, or cut off): the next starts undecided. */
  lineEnded(): void {
    this.gate = 'undecided';
    this.pending = '';
  }

  /** After a line: the tail is what the held lines show (`held`), and nothing of a line yet. */
  settle(held: string): void {
    if (this.appended === 0 && this.base === held) return;
    countWork(held.length + this.base.length);
    this.base = held;
    this.appended = 0;
    this.emit({ type: 'prose-partial', text: held, replace: true });
  }

  private append(text: string): void {
    if (text.length === 0) return;
    this.appended += text.length;
    this.emit({ type: 'prose-partial', text, replace: false });
  }
}
