/**
 * What an answer's hunk board remembers about each file the model named and each hunk it wrote,
 * and how a hunk is reported to the renderer.
 */
import type { EditFormat, FileOperation, HunkLine } from '../../shared/edits/edit-types';
import type { RestorableState } from '../../shared/edits/hunk-state';
import type { HunkRevision, HunkState, HunkUpdate } from '../../shared/edits/hunk-types';
import type { LineRange } from './decision-log';
import type { FileVersion } from './file-version';
import type { Landing } from './revert-plan';

export interface FileRecord {
  operation: FileOperation;
  format: EditFormat;
  /** The project path the hunks apply to (a bare file name the model wrote, resolved). */
  path: string;
  /** How the path was found, when not as written ("the only file of that name"), for the cards. */
  pathNote?: string;
  /** The bare name the model wrote, when `path` was found from it. */
  writtenAs?: string;
  /** The user (or another program) saved the file since the answer began. */
  savedByUser?: boolean;
  moveTo?: string;
  /** Where the file was before its accepted move (so Undo can put the section back there). */
  movedFrom?: string;
  /** The path problem, if the model named a path Flint refuses. */
  refusal?: string;
}

export interface HunkRecord {
  /** Stable within the answer: `${turn}.${index}`; a whole-file move or delete: `${turn}.move.${file}` / `${turn}.delete.${file}`. */
  id: string;
  /** The answer's turn that wrote it (a redirect starts a new one). */
  turn: number;
  /** Its number in the answer, 1-based, as the model is told about it ("hunk 2"). */
  number: number;
  /** A redirect replaced its turn before it was decided (see superseded-hunks.ts). */
  superseded?: boolean;
  /** Its old lines in `base`, once planned there (the user's edits under it are said in these numbers). */
  baseRange?: LineRange;
  /** All its lines have arrived (it may still be settling). */
  complete: boolean;
  /** A hunk of lines (add/update), or a whole-file delete or move. */
  kind: FileOperation | 'move';
  fileIndex: number;
  state: HunkState;
  /** The hunk (its id) this one is the rest of: the lines the user left when accepting it in part (see hunk-rest.ts). */
  restOf?: string;
  /** Accepted in part: the hunk (its id) offering the lines it left. */
  restId?: string;
  /** Rejected: the state it was rejected from, which Restore (or Undo) takes it back to. */
  rejectedFrom?: RestorableState;
  lines: HunkLine[];
  contextHints: string[];
  atEndOfFile: boolean;
  anchorLine: number | null;
  message?: string;
  /** The version of its file the hunk stands on (set when it completes); shared by every hunk on it. */
  base: FileVersion | null;
  /** When the hunk's first byte reached main (see HunkUpdate). */
  firstByteAtEpochMs?: number;
  /** Its line still arriving, while it streams (a preview, never written). */
  partial?: HunkLine;
  /** The journal entry its accept wrote, so undo and redo can update its card. */
  journalEntryId?: string;
  /** Entries earlier accepts of it wrote, still in the journal after a revert (an Undo may reach them). */
  earlierEntryIds?: string[];
  /** Every entry its latest accept wrote, when more than one (a move makes two): what a revert writes back. */
  writtenEntryIds?: string[];
  /** The entries its reverts wrote: undoing one puts the hunk back on disk (accepted), redoing it takes it off again. */
  revertEntryIds?: string[];
  /** Where its latest write's lines are, and what they replaced (a line hunk's; see revert-plan.ts). */
  landing?: Landing;
  /** Accepted as the user revised it (some of its lines, or its new text edited): its lines are the revised ones. */
  revised?: Revised;
  /** The lines the model wrote, once the user revised them: what the hunk shows again when a revised write goes off disk. */
  modelLines?: HunkLine[];
  /** Its latest write's journal entries hold its change alone (an update hunk's; a whole-file hunk's always do): a revert may write them back whole. */
  ownEntries?: boolean;
  /**
   * What each of its writes put on disk, by journal entry — for a revert's entry, the write
   * it took back: an Undo or Redo that brings one back shows it (lines, revision, landing).
   */
  writes?: Map<string, HunkWrite>;
}

/** One write of a hunk: its lines and revision as written, and what a revert of it needs. */
export type HunkWrite = Pick<HunkRecord, 'lines' | 'revised' | 'journalEntryId' | 'writtenEntryIds' | 'landing' | 'ownEntries'>;

/** How the user revised a hunk, and the words its card shows for it. */
export interface Revised {
  kind: HunkRevision['kind'];
  words: string;
}

/**
 * What the renderer is told about a hunk: its state, plus the lines that arrived since the
 * last update (or, with `replaceLines`, all its lines, once the user revised them).
 */
export function hunkUpdateOf(hunk: HunkRecord, file: FileRecord, appendLines: HunkLine[], overlapsNewer?: string, replaceLines = false): HunkUpdate {
  // Built field by field (a batch of a streaming answer builds one per hunk and frame): optional fields only when present.
  const update: HunkUpdate = { id: hunk.id, turn: hunk.turn, number: hunk.number, fileIndex: hunk.fileIndex, path: file.path, operation: hunk.kind, state: hunk.state, appendLines, anchorLine: hunk.anchorLine };
  if (hunk.superseded) update.superseded = true;
  if (overlapsNewer !== undefined) update.overlapsNewer = overlapsNewer;
  if (hunk.kind === 'move' && file.moveTo) update.moveTo = file.moveTo;
  if (replaceLines) update.replaceLines = [...hunk.lines];
  if (hunk.revised !== undefined) update.revised = hunk.revised.words;
  if (hunk.message !== undefined) update.message = hunk.message;
  if (hunk.firstByteAtEpochMs !== undefined) update.firstByteAtEpochMs = hunk.firstByteAtEpochMs;
  if (hunk.partial !== undefined && hunk.state === 'streaming') update.partialLine = hunk.partial;
  return update;
}
