/**
 * What Accept takes of a hunk drawn in the file: the new text the user edited in place,
 * or the changed lines the selection covers, or (with neither) the whole hunk.
 */
import type { EditorState } from '@codemirror/state';
import type { HunkRevision } from '../../../../shared/edits/hunk-types';
import { blocksNow, chosenLines, isEdited, newLinesNow } from './review-extension';

export function revisionFor(state: EditorState, hunkId: string): HunkRevision | undefined {
  const block = blocksNow(state).find((candidate) => candidate.hunkId === hunkId);
  if (!block) return undefined;
  if (isEdited(block)) return { kind: 'edited', newLines: newLinesNow(block) };
  const { changed, chosen } = chosenLines(state, block);
  // No selection in the hunk, or all of it: the whole hunk, as the model wrote it.
  if (chosen.length === 0 || chosen.length === changed.length) return undefined;
  return { kind: 'lines', indices: chosen.map((line) => line.index) };
}

/** Words for what a revision takes ("2 of 5 changed lines", "your edit"), for the buttons' titles and notices. */
export function describeRevision(revision: HunkRevision | undefined, changedCount: number): string {
  if (!revision) return 'the whole hunk';
  return revision.kind === 'edited' ? 'your edited text' : `${revision.indices.length} of ${changedCount} changed lines`;
}
