/**
 * Accept all with hunks the user edited in place: those go as revised, the rest as the
 * model wrote them, in one step for Undo; a revision that cannot be writes nothing at all.
 * Real files, applier and journal.
 */
import { describe, expect, it } from 'vitest';
import { withBoard, type BoardOnDisk } from '../../../test/helpers/board-on-disk';
import { failureOf } from '../../../test/helpers/failure-of';
import type { HunkRevision } from '../../shared/edits/hunk-types';

const patch = (...lines: string[]) => `*** Begin Patch\n${lines.join('\n')}\n*** End Patch\n`;
const ORIGINAL = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
/** Two hunks of f.txt (written together, in one write) and a new file. */
const ANSWER = patch('*** Update File: f.txt', '@@', ' one', '-two', '+TWO', '+TWO and a half', ' three', '@@', ' five', '-six', '+SIX', ' seven', '*** Add File: notes.txt', '+first', '+second');
const EDIT_FIRST: Record<string, HunkRevision> = { '1.0': { kind: 'edited', newLines: ['one', 'Two, mine', 'three'] } };

const modelLinesOf = (flint: BoardOnDisk, hunkId: string) => flint.updates.filter((update) => update.id === hunkId).flatMap((update) => update.appendLines);

describe('HunkBoard: Accept all with hunks edited by the user', () => {
  it('an Accept all with one hunk edited writes the edit, and the other hunks as the model wrote them', async () => {
    await withBoard({ 'f.txt': ORIGINAL }, ANSWER, async (flint) => {
      const from = flint.updates.length;
      expect(await flint.board.acceptAll(EDIT_FIRST)).toBe(3);
      expect(await flint.read('f.txt')).toBe('one\nTwo, mine\nthree\nfour\nfive\nSIX\nseven\n');
      expect(await flint.read('notes.txt')).toBe('first\nsecond\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted', revised: 'edited by you' });
      expect(flint.hunks.get('1.1')).toMatchObject({ state: 'accepted' });
      expect(flint.hunks.get('1.1')?.revised).toBeUndefined();
      const replaced = flint.updates.slice(from).filter((update) => update.replaceLines !== undefined);
      expect(replaced.map((update) => [update.id, update.replaceLines])).toEqual([
        [
          '1.0',
          [
            { kind: 'context', text: 'one' },
            { kind: 'remove', text: 'two' },
            { kind: 'add', text: 'Two, mine' },
            { kind: 'context', text: 'three' },
          ],
        ],
      ]);
      expect(flint.board.decisions.peek()).toEqual([
        'hunk 1 in f.txt accepted after the user edited it (the file you are shown has what was written)',
        'hunk 2 in f.txt accepted (written to disk)',
        'hunk 3 in notes.txt accepted (written to disk)',
      ]);
    });
  });

  it('one Undo takes all of an Accept all with an edited hunk back, and the edited hunk shows the model’s lines again', async () => {
    await withBoard({ 'f.txt': ORIGINAL }, ANSWER, async (flint) => {
      const whole = modelLinesOf(flint, '1.0');
      expect(await flint.board.acceptAll(EDIT_FIRST)).toBe(3);
      expect((await flint.service.undo()).status).toBe('done');
      expect(await flint.read('f.txt')).toBe(ORIGINAL);
      await expect(flint.read('notes.txt')).rejects.toThrow();
      expect(['1.0', '1.1', '1.2'].map((id) => flint.hunks.get(id)?.state)).toEqual(['pending', 'pending', 'pending']);
      expect(flint.hunks.get('1.0')?.revised).toBeUndefined();
      expect(flint.updates.findLast((update) => update.replaceLines !== undefined)?.replaceLines).toEqual(whole);
      // Redo brings it all back, the edit with it.
      expect((await flint.service.redo()).status).toBe('done');
      expect(await flint.read('f.txt')).toBe('one\nTwo, mine\nthree\nfour\nfive\nSIX\nseven\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted', revised: 'edited by you' });
    });
  });

  it('an Accept all with an invalid revision writes nothing, and says which hunk', async () => {
    const answer = patch('*** Update File: f.txt', '@@', ' one', '-two', '+TWO', ' three', '@@', ' five', '-six', '+SIX', ' seven', '*** Delete File: gone.txt');
    await withBoard({ 'f.txt': ORIGINAL, 'gone.txt': 'bye\n' }, answer, async (flint) => {
      flint.board.reject('1.1');
      const from = flint.updates.length;
      const cases: [Record<string, HunkRevision>, string][] = [
        [{ '1.0': { kind: 'lines', indices: [9] } }, 'Hunk 1 in f.txt: Line index 9 is not in the hunk'],
        [{ '1.1': { kind: 'lines', indices: [1] } }, 'Hunk 2 in f.txt is rejected'],
        [{ '1.9': { kind: 'lines', indices: [1] } }, 'The edited hunk 1.9 is not part of this answer'],
        [{ '1.delete.1': { kind: 'lines', indices: [0] } }, 'deletes a whole file'],
        // A valid revision does not carry an invalid one.
        [{ '1.0': { kind: 'lines', indices: [1] }, '1.delete.1': { kind: 'edited', newLines: ['x'] } }, 'Hunk 3 in gone.txt'],
      ];
      for (const [revisions, words] of cases) {
        const failure = await failureOf(() => flint.board.acceptAll(revisions));
        expect(failure, JSON.stringify(revisions)).toMatchObject({ code: 'invalid-input', message: expect.stringContaining(words) });
        expect(failure.message).toMatch(/^Accept all wrote nothing\. /);
      }
      expect(flint.updates.slice(from)).toEqual([]);
      expect(await flint.read('f.txt')).toBe(ORIGINAL);
      expect(await flint.read('gone.txt')).toBe('bye\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending' });
      expect(flint.board.decisions.peek()).toEqual(['hunk 2 in f.txt rejected']);
    });
  });

  it('an edited hunk of an Accept all the file declines shows the model’s lines again, and the others still land', async () => {
    await withBoard({ 'f.txt': ORIGINAL }, ANSWER, async (flint) => {
      const whole = modelLinesOf(flint, '1.0');
      // The user's save lands under the first hunk, and the watcher has not told Flint yet.
      await flint.project.write({ 'f.txt': 'one\ntwo!\nthree\nfour\nfive\nsix\nseven\n' });
      expect(await flint.board.acceptAll(EDIT_FIRST)).toBe(2);
      expect(await flint.read('f.txt')).toBe('one\ntwo!\nthree\nfour\nfive\nSIX\nseven\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'conflict' });
      expect(flint.hunks.get('1.0')?.revised).toBeUndefined();
      expect(flint.updates.findLast((update) => update.id === '1.0' && update.replaceLines !== undefined)?.replaceLines).toEqual(whole);
    });
  });
});
