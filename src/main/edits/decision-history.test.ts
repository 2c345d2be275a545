import { describe, expect, it } from 'vitest';
import { DecisionHistory } from './decision-history';

describe('DecisionHistory', () => {
  it('has nothing to undo with no rejection and no write', () => {
    expect(new DecisionHistory<string>().nextUndo(null)).toBeNull();
  });

  it('takes back the newest decision first: a rejection made after the journal’s next write, else that write', () => {
    const history = new DecisionHistory<string>();
    // Write 1 was recorded, then hunk 2 rejected, then write 2 recorded.
    history.rejected('board', ['1.2'], 1);
    expect(history.nextUndo(2)).toBe('write');
    history.undid('write', 2);
    // The journal's next write to undo is now write 1: older than the rejection.
    expect(history.nextUndo(1)).toMatchObject({ target: 'board', hunkIds: ['1.2'] });
  });

  it('redoes what Undo took back, newest first, and a new decision ends that branch', () => {
    const history = new DecisionHistory<string>();
    history.rejected('board', ['1.1'], 0);
    history.rejected('board', ['1.2', '1.3'], 0);
    const second = history.nextUndo(null)!;
    history.undid(second, 0);
    const first = history.nextUndo(null)!;
    history.undid(first, 0);
    expect(history.nextUndo(null)).toBeNull();
    expect(history.nextRedo(0)).toBe(first);
    history.redid(first, 0);
    expect(history.nextRedo(0)).toBe(second);
    // A new rejection: the rest of the branch is gone, the journal's undone writes with it.
    history.rejected('board', ['1.4'], 0);
    expect(history.nextRedo(0)).toBeNull();
  });

  it('leaves Redo to the journal when it knows of nothing Undo took back (a write undone before a restart)', () => {
    expect(new DecisionHistory<string>().nextRedo(3)).toBe('journal');
  });

  it('ends the redo branch when a write was recorded since the last Undo', () => {
    const history = new DecisionHistory<string>();
    history.rejected('board', ['1.1'], 0);
    history.undid(history.nextUndo(null)!, 0);
    expect(history.nextRedo(1)).toBe('journal');
  });

  it('passes over a rejection it is told to drop, and keeps one redone with the hunks it could take', () => {
    const history = new DecisionHistory<string>();
    history.rejected('old', ['1.1'], 0);
    history.rejected('gone', ['2.1'], 0);
    history.drop(history.nextUndo(null) as never);
    expect(history.nextUndo(null)).toMatchObject({ target: 'old' });
    const step = history.nextUndo(null)!;
    history.undid(step, 0);
    history.redid(step, 3, []);
    // Nothing could be rejected again: nothing to undo either.
    expect(history.nextUndo(null)).toBeNull();
  });
});
