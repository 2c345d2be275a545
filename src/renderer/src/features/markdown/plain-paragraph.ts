/**
 * A block of Markdown that is one paragraph of plain words, read without a Markdown parser.
 *
 * While an answer streams, its open block is formatted again every frame, and most of the
 * time that block is a paragraph of words: the parser (micromark, then mdast, hast and
 * React elements) took 1-1.5 ms of a 2-core machine's frame for a few lines of them, twice
 * the frame's Layout. This reads such a paragraph in one pass, and knows when it cannot:
 * any character that could start Markdown syntax (emphasis, links, HTML, entities,
 * escapes, autolinks, tables, list or heading markers at a line's start, hard breaks…)
 * sends the block to the parser. Code spans of one backtick are read here too, as answers
 * about code are full of them. What it returns renders exactly as the parser's rendering
 * (plain-paragraph.property.test.ts checks that on random text).
 */

/** A run of the paragraph: text, or a code span's content. */
export type PlainRun = { text: string } | { code: string };

/** What may stand outside a code span: letters and digits of any script, spaces, and punctuation no Markdown construct starts with. */
const PLAIN = /^[\p{L}\p{M}\p{N} ,.;:?!'"()-]*$/u;
/** A line's first character: a letter (a digit may start an ordered list, punctuation a marker), or a code span. */
const LINE_START = /^[\p{L}`]/u;
/** GitHub's autolink literal: www. alone makes a link, in any case. */
const WWW = /www\./i;

/** The runs of `block` if it is one plain paragraph (see above), else null: the parser's job. */
export function plainParagraph(block: string): PlainRun[] | null {
  // Blank lines after the paragraph are the block's end (markdown-blocks.ts); its last line's spaces are not shown.
  const body = block.slice(0, endOfText(block));
  if (body === '' || !body.split('\n').every(isPlainLine)) return null;
  const runs: PlainRun[] = [];
  let at = 0;
  while (at < body.length) {
    const open = body.indexOf('`', at);
    const close = open === -1 ? -1 : body.indexOf('`', open + 1);
    // No code span from here: the rest is text (a lone backtick is shown as it is).
    const textEnd = close === -1 ? body.length : open;
    if (textEnd > at && !addText(runs, body.slice(at, textEnd))) return null;
    if (close === -1) break;
    const code = body.slice(open + 1, close);
    // Longer backtick strings, code spanning lines, and NUL (the parser replaces it) follow rules this does not read.
    if (code === '' || /[\n\r\0]/.test(code) || body[close + 1] === '`') return null;
    runs.push({ code: trimCode(code) });
    at = close + 1;
  }
  return runs;
}

/** Where `block` ends but for spaces and line breaks (a loop: a regex anchored at the end rescans every run of spaces). */
function endOfText(block: string): number {
  let end = block.length;
  while (end > 0 && (block[end - 1] === ' ' || block[end - 1] === '\n')) end -= 1;
  return end;
}

/** A line that starts a paragraph's line as plain text does, and ends without a space (two make a hard break). */
function isPlainLine(line: string): boolean {
  return LINE_START.test(line) && !line.endsWith(' ');
}

/** Adds text outside code spans; false if it is not plain. */
function addText(runs: PlainRun[], text: string): boolean {
  const outside = text.replaceAll('`', '').replaceAll('\n', ' ');
  if (!PLAIN.test(outside) || WWW.test(outside)) return false;
  runs.push({ text });
  return true;
}

/** A code span's content as CommonMark shows it: one space stripped from each end when both have one (and it is not all spaces). */
function trimCode(code: string): string {
  return code.length >= 2 && code.startsWith(' ') && code.endsWith(' ') && /[^ ]/.test(code) ? code.slice(1, -1) : code;
}
