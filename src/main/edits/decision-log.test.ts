import { describe, expect, it } from 'vitest';
import { versionOfText } from '../../../test/helpers/file-versions';
import { DecisionLog } from './decision-log';

const BASE = versionOfText(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n'));

describe('DecisionLog', () => {
  it('says each hunk’s latest decision once, in the order they happened', () => {
    const log = new DecisionLog();
    log.accepted(1, 'src/a.ts');
    log.rejected(2, 'src/a.ts');
    log.undone(1, 'src/a.ts');
    log.accepted(1, 'src/a.ts');
    expect(log.peek()).toEqual(['hunk 2 in src/a.ts rejected', 'hunk 1 in src/a.ts accepted (written to disk)']);
  });

  it('tells the model a hunk was written only in part, or as the user edited it, in words a later decision replaces', () => {
    const log = new DecisionLog();
    log.accepted(3, 'src/a.ts', { kind: 'lines', words: '2 of 5 changed lines' });
    log.accepted(4, 'src/a.ts', { kind: 'edited', words: 'edited by you' });
    expect(log.peek()).toEqual([
      'hunk 3 in src/a.ts accepted in part (2 of 5 changed lines written; the rest left as the file had it)',
      'hunk 4 in src/a.ts accepted after the user edited it (the file you are shown has what was written)',
    ]);
    log.undone(3, 'src/a.ts');
    expect(log.peek()).toEqual(['hunk 4 in src/a.ts accepted after the user edited it (the file you are shown has what was written)', 'hunk 3 in src/a.ts undone (no longer on disk)']);
    // Lines kept between runs are told apart by hunk, as any other.
    const restored = new DecisionLog();
    restored.putBack(log.peek());
    restored.rejected(4, 'src/a.ts');
    expect(restored.peek()).toEqual(['hunk 3 in src/a.ts undone (no longer on disk)', 'hunk 4 in src/a.ts rejected']);
  });

  it('names the user’s changes under a pending hunk in the line numbers the model saw, and none elsewhere', () => {
    const log = new DecisionLog();
    const current = versionOfText(['a', 'b', 'C', 'D', 'e', 'f', 'g', 'H'].join('\n'));
    // The hunk covers lines 3–5 of what the model saw; line 8 changed too, away from it.
    log.userChanged(1, 'src/a.ts', BASE, current, { start: 3, count: 3 });
    expect(log.peek()).toEqual(['lines 3–4 of src/a.ts changed by the user since your answer (under hunk 1)']);
  });

  it('keeps what the model has not heard yet: forget() drops only the lines it was sent', () => {
    const log = new DecisionLog();
    log.rejected(1, 'src/a.ts');
    const sent = log.peek();
    log.rejected(2, 'src/a.ts');
    log.forget(sent);
    expect(log.peek()).toEqual(['hunk 2 in src/a.ts rejected']);
  });
});
