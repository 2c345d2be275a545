/**
 * A streamed answer cut into Markdown blocks as it grows, so that a delta re-renders only
 * the block it lands in: the blocks before it are closed and never change.
 *
 * A block ends after a blank line outside a code fence (what ends a paragraph, a list, a
 * table, a heading's section). Splitting there renders as CommonMark does the whole text,
 * but for a list whose items are separated by blank lines (its parts render as lists of
 * their own, numbered on) and reference links defined in another block (Flint shows links
 * as text anyway). Only whole lines are scanned, each once: the scanning per update is the
 * new lines, however long the answer (checking that the text grew is one native compare).
 */

export interface MarkdownBlocks {
  /** The text these blocks were cut from. */
  source: string;
  /** The closed blocks, in order: text appended later never changes them, but for blank lines joining the last. */
  closed: string[];
  /** Where the open block (the last, still growing) starts in `source`. */
  openStart: number;
  /** Where the first line not read yet starts. */
  scanned: number;
  /** The code fence open at `scanned`: its character and length. */
  fence: { character: string; length: number } | null;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

const EMPTY: MarkdownBlocks = { source: '', closed: [], openStart: 0, scanned: 0, fence: null };

/** `text` cut into blocks, carrying on from `previous` when `text` extends its source (else from the start). */
export function splitMarkdown(text: string, previous: MarkdownBlocks = EMPTY): MarkdownBlocks {
  const from = text.length >= previous.source.length && text.startsWith(previous.source) ? previous : EMPTY;
  const closed = [...from.closed];
  let { openStart, scanned, fence } = from;
  let end: number;
  while ((end = text.indexOf('\n', scanned)) !== -1) {
    const line = text.slice(scanned, end);
    scanned = end + 1;
    fence = nextFence(fence, line);
    if (fence === null && line.trim() === '') {
      if (scanned - openStart > line.length + 1) closed.push(text.slice(openStart, scanned));
      else if (closed.length > 0) closed[closed.length - 1] += text.slice(openStart, scanned);
      else continue;
      openStart = scanned;
    }
  }
  return { source: text, closed, openStart, scanned, fence };
}

/** The fence open after `line`, given the one open before it. */
function nextFence(open: MarkdownBlocks['fence'], line: string): MarkdownBlocks['fence'] {
  const marker = FENCE.exec(line)?.[1];
  if (open === null) return marker ? { character: marker[0]!, length: marker.length } : null;
  // A fence closes at a line of its character, at least as long, and nothing after it.
  const closes = marker !== undefined && marker[0] === open.character && marker.length >= open.length && line.trim() === marker;
  return closes ? null : open;
}
