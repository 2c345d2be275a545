/**
 * Where an answer's hunks stand on their files: the version each was proposed on (what
 * the model was shown, or the file as first read), settling a complete hunk against it,
 * and planning it again when its file changes. Says which state event follows; the
 * board applies it (hunk-board.ts).
 */
import type { HunkEvent } from '../../shared/edits/hunk-state';
import { FlintFailure } from '../../shared/result';
import type { FileText } from '../fs/file-text';
import type { FileRecord, HunkRecord } from './edit-records';
import { FileVersion } from './file-version';
import { appendedNote, applyInput, contentRefusal, settleAgainst } from './hunk-kinds';
import { planHunk } from './hunk-plan';

/** A state event for a hunk, with what its card says after it. */
export interface Outcome {
  event: HunkEvent;
  change: { message?: string; anchorLine?: number | null };
  /** A refused move refuses its whole section. */
  refuseSection?: string;
}

export type ReplanReason = 'saved' | 'restored' | 'written';

export class HunkPlanner {
  /** Base versions, by path: what the model was shown, or the file as first read. */
  private readonly bases = new Map<string, Promise<FileVersion | null>>();

  constructor(private readonly readText: (path: string) => Promise<FileText | null>) {}

  /** The texts the model is shown in a turn: its hunks for those files anchor against them. */
  noteShown(shown: ReadonlyMap<string, FileText>): void {
    for (const [path, text] of shown) this.bases.set(path, Promise.resolve(FileVersion.of(text)));
  }

  /**
   * A complete hunk, checked (its path, its text) and planned on its file; null when the
   * board went away meanwhile (`isGone`).
   */
  async settle(hunk: HunkRecord, file: FileRecord, isGone: () => boolean): Promise<Outcome | null> {
    const settled = (outcome: 'pending' | 'unmatched' | 'conflict' | 'refused', change: Outcome['change']): Outcome => ({ event: { type: 'settled', outcome }, change });
    const refusal = file.refusal ?? contentRefusal(hunk);
    if (refusal !== null) return settled('refused', { message: refusal });
    if (hunk.lines.length === 0 && (hunk.kind === 'update' || hunk.kind === 'add')) return settled('unmatched', { message: 'An empty hunk has nothing to apply.' });
    try {
      const base = await this.baseOf(file.path);
      const destinationExists = hunk.kind === 'move' && (await this.baseOf(file.moveTo!)) !== null;
      if (isGone()) return null;
      // The section may have been refused while its file was read (its move was).
      if (file.refusal) return settled('refused', { message: file.refusal });
      if (hunk.kind === 'update') hunk.base = base;
      const result = settleAgainst(hunk, file, base, destinationExists);
      if (hunk.kind === 'update' && result.anchorLine != null) hunk.baseRange = { start: result.anchorLine, count: oldLineCount(hunk) };
      return settled(result.outcome, { message: result.message, anchorLine: result.anchorLine });
    } catch (error) {
      const message = error instanceof FlintFailure ? error.message : `Could not read ${file.path}.`;
      const refused = error instanceof FlintFailure && error.code === 'outside-project';
      return { ...settled(refused ? 'refused' : 'unmatched', { message }), ...(refused && hunk.kind === 'move' ? { refuseSection: message } : {}) };
    }
  }

  /**
   * Plans a line hunk again on what its file holds now, or null when it stays as it is.
   * After the user's save it is carried over from the version it stands on. After Flint
   * wrote or restored the file, one that carries over cleanly keeps its version (cheap:
   * one diff for all of them, and its anchoring work is reused); one that does not but
   * anchors directly on the new text stands on that from now on — a hunk queued to be
   * written too (`queued`: re-based, no event), so it lands as planned.
   */
  replan(hunk: HunkRecord, file: FileRecord, current: FileVersion, after: ReplanReason, queued: boolean): Outcome | null {
    let plan = planHunk(current, applyInput(hunk, file), file.path);
    // A 3-way merge over Flint's own write is a last resort: anchored directly, the hunk's kept lines keep their endings.
    if ((plan.status !== 'planned' || plan.via === 'merged') && after !== 'saved') {
      const direct = planHunk(current, { ...applyInput(hunk, file), base: null }, file.path);
      if (direct.status === 'planned') [plan, hunk.base, hunk.baseRange] = [direct, current, { start: direct.anchorLine, count: oldLineCount(hunk) }];
      else if (after === 'written' && plan.status !== 'planned') return null;
    }
    if (queued) return null;
    if (plan.status === 'planned') return { event: { type: 'replanned', outcome: 'pending' }, change: { anchorLine: plan.anchorLine, message: plan.appended ? appendedNote(hunk, file) : file.pathNote } };
    return { event: { type: 'replanned', outcome: plan.status }, change: { message: plan.message } };
  }

  private baseOf(path: string): Promise<FileVersion | null> {
    let base = this.bases.get(path);
    if (!base) this.bases.set(path, (base = this.readText(path).then((text) => (text === null ? null : FileVersion.of(text)))));
    return base;
  }
}

/** How many lines of its file a line hunk covers (its kept and removed lines). */
function oldLineCount(hunk: HunkRecord): number {
  return hunk.lines.reduce((count, line) => count + (line.kind === 'add' ? 0 : 1), 0);
}
