/**
 * The changes that turn the document on view into a new drawing of it: one per region of
 * lines that differ (Myers' diff, shared/edits/line-diff.ts). A redraw that adds a hunk at
 * line 10 and another at line 1,500 changes those two places only. One span from the
 * first difference to the last replaced every line between them: the cursor and the
 * selection on those lines went to the span's edge, and their DOM and parse were redone.
 */
import type { ChangeSpec, Text } from '@codemirror/state';
import { changedRegions } from '../../../../shared/edits/line-diff';
import { splitLines } from '../review/review-doc';

/**
 * The diff's steps are about (lines before + lines after) × lines changed: it may take this
 * many (a few ms), so it stops after fewer changed lines in a larger file, and past that the
 * changes are one span from the first difference to the last, as a redraw was before.
 */
const DIFF_STEPS = 1_000_000;

/** The changes from `doc` to `text`, read into lines as CodeMirror reads them. */
export function redrawChanges(doc: Text, text: string): ChangeSpec[] {
  const before = doc.toJSON();
  const after = splitLines(text);
  const changes: ChangeSpec[] = [];
  // Where the region's lines start in `after`: its start in `before`, moved by the regions before it.
  let shift = 0;
  const maxChanges = Math.max(1, Math.floor(DIFF_STEPS / (before.length + after.length)));
  for (const region of changedRegions(before, after, maxChanges)) {
    const from = region.start + shift;
    changes.push(lineChange(doc, region.start, region.end, after.slice(from, from + region.length)));
    shift += region.length - (region.end - region.start);
  }
  return changes;
}

/** Lines [start, end) of `doc` (0-based) replaced by `lines`, as a change of characters. */
function lineChange(doc: Text, start: number, end: number, lines: readonly string[]): ChangeSpec {
  const text = lines.join('\n');
  if (end > start && lines.length > 0) return { from: doc.line(start + 1).from, to: doc.line(end).to, insert: text };
  if (end > start) {
    // Lines removed whole take one line break with them: the one after them, or, for the last lines, the one before.
    if (end < doc.lines) return { from: doc.line(start + 1).from, to: doc.line(end + 1).from };
    return { from: doc.line(start).to, to: doc.length };
  }
  // Lines added before line `start`, or after the last line.
  if (start < doc.lines) return { from: doc.line(start + 1).from, insert: `${text}\n` };
  return { from: doc.length, insert: `\n${text}` };
}
