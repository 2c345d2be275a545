/**
 * A text file as lines plus everything needed to write it back byte for byte:
 * BOM, each line's own terminator (`\n`, `\r\n`, or none on a last line).
 *
 * Flint edits UTF-8 text only; other encodings are refused rather than re-encoded.
 */
import { FlintFailure } from '../../shared/result';

export interface FileText {
  bom: boolean;
  lines: string[];
  /** One per line: '\n', '\r\n', or '' (a last line without a final newline). */
  terminators: string[];
  /** The dominant line ending, for lines Flint adds. */
  eol: '\n' | '\r\n';
  /**
   * In a text Flint made (never read from disk): the ending the last line had before it
   * became the last of a file without a final newline, for when a line follows it again.
   */
  lastLineEnding?: string;
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];

export function decodeFileText(bytes: Uint8Array, path: string): FileText {
  const bom = UTF8_BOM.every((byte, index) => bytes[index] === byte);
  const body = bom ? bytes.subarray(3) : bytes;
  if (body.subarray(0, 8000).includes(0)) throw new FlintFailure('not-a-file', `${path} is binary; Flint does not edit it.`);
  let text: string;
  try {
    // ignoreBOM: the BOM was stripped above; a second one is content and must survive.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body);
  } catch {
    throw new FlintFailure('not-a-file', `${path} is not UTF-8 text; Flint does not edit it (it would change its encoding).`);
  }
  const lines: string[] = [];
  const terminators: string[] = [];
  let crlf = 0;
  let lf = 0;
  let start = 0;
  while (start < text.length) {
    const newline = text.indexOf('\n', start);
    if (newline === -1) {
      lines.push(text.slice(start));
      terminators.push('');
      break;
    }
    const isCrlf = newline > start && text[newline - 1] === '\r';
    lines.push(text.slice(start, isCrlf ? newline - 1 : newline));
    terminators.push(isCrlf ? '\r\n' : '\n');
    if (isCrlf) crlf += 1;
    else lf += 1;
    start = newline + 1;
  }
  return { bom, lines, terminators, eol: crlf > lf ? '\r\n' : '\n' };
}

export function encodeFileText(file: FileText): Uint8Array {
  let text = '';
  for (let index = 0; index < file.lines.length; index += 1) text += file.lines[index]! + file.terminators[index]!;
  const body = new TextEncoder().encode(text);
  if (!file.bom) return body;
  const bytes = new Uint8Array(body.length + 3);
  bytes.set(UTF8_BOM);
  bytes.set(body, 3);
  return bytes;
}

/** Lines [start, end) become `replacement`. */
export interface Splice {
  start: number;
  end: number;
  replacement: readonly string[];
  /**
   * For each replacement line, the line of the file whose ending it keeps (null: the
   * file's dominant ending). Without it, replaced lines keep theirs by position.
   */
  sources?: ReadonlyArray<number | null>;
  /**
   * Each replacement line's own ending, over `sources`: a revert puts lines back with the
   * endings they had ('' for one that was the last line without a final newline).
   */
  endings?: readonly string[];
}

/** Replaces lines [start, end) with `replacement` (see spliceMany). */
export function spliceLines(file: FileText, start: number, end: number, replacement: readonly string[]): FileText {
  return spliceMany(file, [{ start, end, replacement }]);
}

/**
 * Applies splices in one pass over the file: they are in order and do not overlap (each
 * starts at or after the previous one's end). Untouched lines keep their exact
 * terminators, replaced lines keep theirs position by position, extra lines get the
 * file's dominant ending; a file without a final newline still has none afterwards.
 */
export function spliceMany(file: FileText, splices: readonly Splice[]): FileText {
  const hadFinalNewline = file.terminators.length === 0 || file.terminators.at(-1) !== '';
  const lines: string[] = [];
  const terminators: string[] = [];
  let at = 0;
  const keep = (until: number): void => {
    for (; at < until; at += 1) {
      lines.push(file.lines[at]!);
      terminators.push(file.terminators[at]!);
    }
  };
  for (const { start, end, replacement, sources, endings } of splices) {
    if (start < at || end < start || end > file.lines.length) throw new RangeError(`splice [${start}, ${end}) is out of order or out of the file`);
    keep(start);
    for (let index = 0; index < replacement.length; index += 1) {
      lines.push(replacement[index]!);
      const ending = endings?.[index];
      if (ending !== undefined) {
        terminators.push(ending);
        continue;
      }
      // A kept line keeps its ending, an added one that of the line it replaces; others take the dominant one.
      // The last line's '' is kept for now: settled below, once it is known which line is last.
      const source = sources ? sources[index] : start + index < end ? start + index : null;
      terminators.push((source !== null && source !== undefined ? file.terminators[source] : undefined) ?? file.eol);
    }
    at = end;
  }
  keep(file.lines.length);
  // Only the last line may lack a terminator: a former last line that now has lines after
  // it gets back the ending it had before it was last, if Flint knows it.
  const formerLast = file.lastLineEnding ?? file.eol;
  for (let index = 0; index < terminators.length - 1; index += 1) if (terminators[index] === '') terminators[index] = formerLast;
  let lastLineEnding: string | undefined;
  if (lines.length > 0 && hadFinalNewline) terminators[terminators.length - 1] ||= file.eol;
  else if (lines.length > 0) {
    lastLineEnding = terminators.at(-1) || formerLast;
    terminators[terminators.length - 1] = '';
  }
  const { lastLineEnding: _previous, ...rest } = file;
  return { ...rest, lines, terminators, ...(lastLineEnding !== undefined ? { lastLineEnding } : {}) };
}
