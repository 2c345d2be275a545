/**
 * Where the streaming edit parser is, and what an open hunk's unfinished line will be
 * (the preview the screen shows before the line is whole).
 */
import { countWork } from '../work-meter';
import type { HunkLine } from './edit-types';

/** Where the parser is. */
export type ParserMode =
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

/** What a hunk's unfinished line is, once its first character other than whitespace tells: its kind, and whether a one-character prefix goes. */
export interface PreviewShape {
  kind: HunkLine['kind'];
  offset: 0 | 1;
}

/**
 * What a hunk's unfinished `text` will be, if it can already tell: a prefixed line of a patch
 * section, or a line of a search/replace block; null when it is none (it may turn out to be a
 * marker: `***`, `@@`, `=======`, `>>>>>>>`, `<<<<<<<`, or a code fence); undefined while it
 * is only whitespace (a padded marker, maybe). Only its first characters are read.
 */
export function previewShape(mode: ParserMode, text: string): PreviewShape | null | undefined {
  const first = firstNonSpace(text);
  countWork(first + 1);
  if (first === text.length) return undefined;
  const decisive = text[first]!;
  if (mode === 'search' || mode === 'replace') return '=<>`~'.includes(decisive) ? null : { kind: mode === 'search' ? 'remove' : 'add', offset: 0 };
  if (decisive === '*' || decisive === '`' || decisive === '~') return null;
  const prefix = text[0];
  if (mode === 'add') return prefix === '+' ? { kind: 'add', offset: 1 } : null;
  if (mode !== 'update') return null;
  if (prefix === ' ') return { kind: 'context', offset: 1 };
  if (prefix === '-') return { kind: 'remove', offset: 1 };
  if (prefix === '+') return { kind: 'add', offset: 1 };
  return null;
}

/**
 * The preview of a hunk's unfinished line, kept up as its pieces arrive. What the line is
 * (see previewShape) is told by its first characters and then fixed; its text grows by each
 * piece, joined (a rope in V8), never copied: a delta costs its own length (the screen is
 * sent one copy per batch, not one per delta). The preview is of the line's head: once its
 * first HEAD_CHARACTERS have come it stays (the rest shows when the line ends).
 */
export class LinePreview {
  /** The head previewed last ('' before the line's first preview). */
  private shown = '';
  private shape: PreviewShape | null | undefined = undefined;
  /** The line so far without its prefix (a `\r` that came last included). */
  private text = '';

  /** A new line begins. */
  reset(): void {
    this.shown = '';
    this.shape = undefined;
    this.text = '';
  }

  /**
   * The preview once `piece` made the line's head (its first HEAD_CHARACTERS) `head`; null
   * when there is none, or it is the one shown last.
   */
  next(mode: ParserMode, head: string, piece: string): HunkLine | null {
    if (head === this.shown || this.shape === null) return null;
    // Until now only whitespace came: the head is short, and read once more.
    const shape = this.shape ?? (this.shape = previewShape(mode, head.endsWith('\r') ? head.slice(0, -1) : head));
    if (!shape) return null;
    // The whole piece joined the head the line was previewed at: the text grows by it.
    const grown = this.shown !== '' && head.length === this.shown.length + piece.length;
    // Else the head is read whole: once a line (its first preview), or once it has grown past HEAD_CHARACTERS.
    if (!grown) countWork(head.length);
    this.text = grown ? this.text + piece : head.slice(shape.offset);
    this.shown = head;
    // A `\r` last is the line's ending arriving (CRLF), not its text.
    const endsInReturn = grown ? piece.endsWith('\r') : this.text.endsWith('\r');
    return { kind: shape.kind, text: endsInReturn ? this.text.slice(0, -1) : this.text };
  }
}

/** The index of `text`'s first character that String.prototype.trimStart would keep (its length if none). */
function firstNonSpace(text: string): number {
  let index = 0;
  while (index < text.length && isWhitespace(text.charCodeAt(index))) index += 1;
  return index;
}

/** What trimStart strips: ECMAScript's WhiteSpace and LineTerminator characters. */
function isWhitespace(code: number): boolean {
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return true;
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}
