/**
 * The order of the user's decisions, for Undo and Redo. Writes (an accept, a revert, an
 * Accept all) are in the undo journal, which survives restarts; a rejection writes nothing,
 * so it is kept here, stamped with how many writes the journal had recorded when it was
 * made. Undo takes back whichever decision is newest: the journal's next write to undo if it
 * was recorded after the newest rejection, else that rejection. Redo makes again what Undo
 * took back, newest first, until a new decision ends that branch, as in any editor.
 *
 * Pure bookkeeping over the journal's counts: EditService carries the steps out.
 */

/** One Reject (or Reject all): the hunks it took, on the board (`target`) they belong to. */
export interface Rejection<T> {
  target: T;
  hunkIds: readonly string[];
  /** The journal's `recorded` count when it was made: writes up to there are older. */
  afterWrites: number;
}

/** What Undo or Redo acts on next: a rejection kept here, or the journal's next write. */
export type DecisionStep<T> = Rejection<T> | 'write';

export class DecisionHistory<T> {
  private readonly rejections: Rejection<T>[] = [];
  /** What Undo took back, newest last. */
  private redoable: DecisionStep<T>[] = [];
  /** The journal's `recorded` count when Undo last ran: a write since then ends the redo branch. */
  private branchAt = -1;
  /** A rejection ended the redo branch: the journal's undone writes are not to be redone either. */
  private isBranchEnded = false;

  /** The user rejected `hunkIds` of `target` (the journal had recorded `recorded` writes): a new decision ends the redo branch. */
  rejected(target: T, hunkIds: readonly string[], recorded: number): void {
    this.rejections.push({ target, hunkIds, afterWrites: recorded });
    this.redoable = [];
    this.isBranchEnded = true;
  }

  /**
   * What Undo takes back: the newest rejection, unless the journal's next write to undo
   * (`nextWrite`, its ordinal; null: none) was recorded after it. Null: nothing to undo.
   */
  nextUndo(nextWrite: number | null): DecisionStep<T> | null {
    const rejection = this.rejections.at(-1);
    if (rejection !== undefined && (nextWrite === null || nextWrite <= rejection.afterWrites)) return rejection;
    return nextWrite === null ? null : 'write';
  }

  /** Undo took `step` back (the journal had recorded `recorded` writes): Redo can make it again. */
  undid(step: DecisionStep<T>, recorded: number): void {
    if (step !== 'write') this.drop(step);
    this.redoable.push(step);
    this.branchAt = recorded;
    this.isBranchEnded = false;
  }

  /** A rejection Undo could not take back (its answer is gone, its hunks decided since): passed over. */
  drop(rejection: Rejection<T>): void {
    const index = this.rejections.lastIndexOf(rejection);
    if (index !== -1) this.rejections.splice(index, 1);
  }

  /**
   * What Redo makes again (the journal has recorded `recorded` writes): the newest step Undo
   * took back, unless a decision came since. 'journal': none known here, the journal may
   * still redo a write (one undone before a restart). Null: nothing to redo.
   */
  nextRedo(recorded: number): DecisionStep<T> | 'journal' | null {
    if (recorded !== this.branchAt) this.redoable = [];
    return this.redoable.at(-1) ?? (this.isBranchEnded ? null : 'journal');
  }

  /** Redo made `step` again (for a rejection, `hunkIds`: those it could reject again); a rejection is newest once more. */
  redid(step: DecisionStep<T>, recorded: number, hunkIds?: readonly string[]): void {
    const index = this.redoable.lastIndexOf(step);
    if (index !== -1) this.redoable.splice(index, 1);
    if (step !== 'write' && (hunkIds ?? step.hunkIds).length > 0) this.rejections.push({ ...step, hunkIds: hunkIds ?? step.hunkIds, afterWrites: recorded });
    this.branchAt = recorded;
  }
}
