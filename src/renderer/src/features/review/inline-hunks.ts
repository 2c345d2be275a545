/**
 * The hunks to draw in a file: those of the answer on screen that wait, ready, in that
 * file where main anchored them. Superseded ones stay in the pane (a newer hunk may draw
 * over the same lines); conflicting and unmatched ones have no place in the text to show.
 */
import type { AnswerView } from '../edits/answer-view';
import type { HunkLineStore } from '../edits/hunk-line-store';
import type { InlineHunk } from './review-doc';

export function inlineHunksOf(view: AnswerView | null, store: HunkLineStore, path: string | null): InlineHunk[] {
  if (!view || path === null) return [];
  const hunks: InlineHunk[] = [];
  for (const id of view.order) {
    const hunk = view.hunks[id]!;
    if (hunk.path !== path || hunk.operation !== 'update' || hunk.state !== 'pending' || hunk.superseded || hunk.anchorLine === null) continue;
    hunks.push({ id, number: hunk.number, anchorLine: hunk.anchorLine, lines: store.linesOf(id) });
  }
  return hunks;
}
