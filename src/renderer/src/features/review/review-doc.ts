/**
 * The document the file view shows while hunks wait for a decision: the file on view with
 * each placed hunk's lines where main anchored it — its removed lines (as the file has
 * them) and its added lines, reduced to what really changes (review-lines.ts) — so the
 * change reads in the file, highlighted as the file's language.
 *
 * Pure: which hunks, where and with what text. A hunk is placed only where its old text is
 * really in the text on view: at main's anchor, or — when the view and main are a save
 * apart (main re-anchors a hunk after a write, the view reloads the file) — where that
 * text is nearest to it. One with no such place, or that overlaps a hunk placed before
 * it, stays in the pane's list only.
 */
import { oldLinesOf, type HunkLine } from '../../../../shared/edits/edit-types';
import { reviewLinesOf, type ReviewLine } from './review-lines';

export interface InlineHunk {
  id: string;
  /** "hunk 3", as the model and the pane number it. */
  number: number;
  /** 1-based line of the file where its old text starts (main's anchor). */
  anchorLine: number;
  lines: readonly HunkLine[];
  /** Its new text as the user edited it in place, if they did. */
  edited?: readonly string[];
}

/** One line of a block: what it is, and which hunk line it shows (-1 for an edited hunk's). */
export interface BlockLine {
  kind: HunkLine['kind'];
  index: number;
}

export interface ReviewBlock {
  hunkId: string;
  number: number;
  /** 0-based line of the review document where the block starts. */
  firstLine: number;
  lines: BlockLine[];
  /**
   * The hunk's new text as the model wrote it, drawn here (kept lines as the file has
   * them): the block reads as edited exactly when its new text differs from this.
   */
  modelNewText: string[];
}

export interface ReviewDoc {
  text: string;
  blocks: ReviewBlock[];
  /** Hunks whose old text is not at their anchor in the text on view. */
  unplaced: string[];
}

/** CodeMirror's own line breaks: \r\n, \r and \n all end a line. */
export const splitLines = (text: string): string[] => text.split(/\r\n|\r|\n/);

export function buildReviewDoc(fileText: string, hunks: readonly InlineHunk[]): ReviewDoc {
  const file = splitLines(fileText);
  const out: string[] = [];
  const blocks: ReviewBlock[] = [];
  const unplaced: string[] = [];
  let copied = 0;
  for (const hunk of [...hunks].sort((a, b) => a.anchorLine - b.anchorLine)) {
    const old = oldLinesOf(hunk.lines);
    const start = placeOf(file, hunk.anchorLine - 1, old, copied);
    if (start === null) {
      unplaced.push(hunk.id);
      continue;
    }
    out.push(...file.slice(copied, start));
    const modelShown = reviewLinesOf(hunk.lines);
    const shown = hunk.edited ? reviewLinesOf([...old.map(removed), ...hunk.edited.map(added)]) : modelShown;
    const block: ReviewBlock = { hunkId: hunk.id, number: hunk.number, firstLine: out.length, lines: [], modelNewText: newTextAsDrawn(file, start, modelShown) };
    blocks.push(block);
    for (const [index, text] of drawnText(file, start, shown).entries()) {
      out.push(text);
      block.lines.push({ kind: shown[index]!.kind, index: hunk.edited ? -1 : shown[index]!.index });
    }
    copied = start + old.length;
  }
  out.push(...file.slice(copied));
  return { text: out.join('\n'), blocks, unplaced };
}

/** Each shown line's text: kept and removed lines as the file has them (anchoring may have tolerated whitespace). */
function drawnText(file: readonly string[], start: number, shown: readonly ReviewLine[]): string[] {
  let oldAt = start;
  return shown.map((line) => (line.kind === 'add' ? line.text : file[oldAt++]!));
}

function newTextAsDrawn(file: readonly string[], start: number, shown: readonly ReviewLine[]): string[] {
  const texts = drawnText(file, start, shown);
  return texts.filter((_, index) => shown[index]!.kind !== 'remove');
}

const removed = (text: string): HunkLine => ({ kind: 'remove', text });
const added = (text: string): HunkLine => ({ kind: 'add', text });

/** Where `old` is in the file at or after line `from`: at `anchor` if it is there, else nearest to it. */
function placeOf(file: readonly string[], anchor: number, old: readonly string[], from: number): number | null {
  if (anchor >= from && isAt(file, anchor, old)) return anchor;
  // A hunk with no old text (an insertion) has no text to find it by.
  if (old.length === 0) return null;
  let best: number | null = null;
  for (let start = from; start + old.length <= file.length; start += 1) {
    if (isAt(file, start, old) && (best === null || Math.abs(start - anchor) < Math.abs(best - anchor))) best = start;
  }
  return best;
}

/**
 * Whether `old` is the file's text from line `start`, up to whitespace (anchoring tolerates
 * it too: a tab for spaces, trailing blanks). Only for drawing: what is written is main's.
 */
function isAt(file: readonly string[], start: number, old: readonly string[]): boolean {
  if (start < 0 || start + old.length > file.length) return false;
  return old.every((line, offset) => sameUpToWhitespace(file[start + offset]!, line));
}

const sameUpToWhitespace = (a: string, b: string): boolean => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

export type { ReviewLine };
