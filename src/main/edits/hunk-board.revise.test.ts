/**
 * Accepting a hunk as the user revised it: some of its changed lines, or its new text
 * edited in place. Real files, applier and journal.
 */
import { describe, expect, it } from 'vitest';
import { withBoard, type BoardOnDisk } from '../../../test/helpers/board-on-disk';
import { failureOf } from '../../../test/helpers/failure-of';
import type { HunkRevision, HunkUpdate } from '../../shared/edits/hunk-types';
import { BoardSnapshotSchema, hunkUpdatesOf } from './board-snapshot';

const patch = (...lines: string[]) => `*** Begin Patch\n${lines.join('\n')}\n*** End Patch\n`;


const FIVE_CHANGES = patch('*** Update File: src/a.ts', ' one', '-two', '-three', '+TWO', '+THREE', '+extra', ' four');

describe('HunkBoard: accepting a hunk revised by the user', () => {
  it('accepting two of a hunk’s five changed lines writes just those', async () => {
    await withBoard({ 'src/a.ts': 'one\ntwo\nthree\nfour\n' }, FIVE_CHANGES, async (flint) => {
      // Index 1 removes "two", index 3 adds "TWO" in its place: "three" stays, "THREE" and "extra" are left out.
      expect(await flint.board.accept('1.0', undefined, { kind: 'lines', indices: [3, 1] })).toBe('accepted');
      expect(await flint.read('src/a.ts')).toBe('one\nTWO\nthree\nfour\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted', revised: '2 of 5 changed lines' });
      // Hunk 1's lines, replaced once (the lines it left come as a hunk of their own: hunk-board.restore.test.ts).
      const replaced = flint.updates.filter((update) => update.id === '1.0' && update.replaceLines !== undefined);
      expect(replaced).toHaveLength(1);
      expect(replaced[0]!.replaceLines).toEqual([
        { kind: 'context', text: 'one' },
        { kind: 'remove', text: 'two' },
        { kind: 'add', text: 'TWO' },
        { kind: 'context', text: 'three' },
        { kind: 'context', text: 'four' },
      ]);
      expect(flint.board.decisions.peek()).toEqual(['hunk 1 in src/a.ts accepted in part (2 of 5 changed lines written; the rest left as the file had it)']);
    });
  });

  it('an edited hunk writes the user’s text and the model is told', async () => {
    await withBoard({ 'src/a.ts': 'one\ntwo\nthree\nfour\n' }, FIVE_CHANGES, async (flint) => {
      expect(await flint.board.accept('1.0', undefined, { kind: 'edited', newLines: ['one', 'Two, mine', 'three', 'four'] })).toBe('accepted');
      expect(await flint.read('src/a.ts')).toBe('one\nTwo, mine\nthree\nfour\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted', revised: 'edited by you' });
      expect(flint.updates.find((update) => update.replaceLines)?.replaceLines).toEqual([
        { kind: 'context', text: 'one' },
        { kind: 'remove', text: 'two' },
        { kind: 'add', text: 'Two, mine' },
        { kind: 'context', text: 'three' },
        { kind: 'context', text: 'four' },
      ]);
      expect(flint.board.decisions.peek()).toEqual(['hunk 1 in src/a.ts accepted after the user edited it (the file you are shown has what was written)']);
    });
  });

  it('choosing some lines of a new file creates it with just those', async () => {
    await withBoard({}, patch('*** Add File: notes.txt', '+first', '+second', '+third'), async (flint) => {
      expect(await flint.board.accept('1.0', undefined, { kind: 'lines', indices: [0, 2] })).toBe('accepted');
      expect(await flint.read('notes.txt')).toBe('first\nthird\n');
    });
  });

  it('refuses a revision out of range, of a context line, twice the same line, or changing nothing, and writes nothing', async () => {
    await withBoard({ 'src/a.ts': 'one\ntwo\nthree\nfour\n' }, FIVE_CHANGES, async (flint) => {
      const revisions: HunkRevision[] = [
        { kind: 'lines', indices: [9] },
        { kind: 'lines', indices: [0] },
        { kind: 'lines', indices: [1, 1] },
        { kind: 'lines', indices: [1, 2, 3, 4, 5] },
        { kind: 'edited', newLines: ['one', 'TWO', 'THREE', 'extra', 'four'] },
        { kind: 'edited', newLines: ['one', 'two', 'three', 'four'] },
      ];
      for (const revision of revisions) {
        const failure = await failureOf(() => flint.board.accept('1.0', undefined, revision));
        expect(failure, JSON.stringify(revision)).toMatchObject({ code: 'invalid-input' });
      }
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending' });
      expect(flint.updates.some((update) => update.replaceLines !== undefined || update.revised !== undefined)).toBe(false);
      expect(await flint.read('src/a.ts')).toBe('one\ntwo\nthree\nfour\n');
      // The hunk is as it was: accepted whole, it writes all of it.
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('src/a.ts')).toBe('one\nTWO\nTHREE\nextra\nfour\n');
    });
  });

  it('refuses to revise a deletion, a move, or a hunk that is not pending', async () => {
    const answer = patch('*** Delete File: gone.txt', '*** Update File: src/a.ts', '*** Move to: src/b.ts', '@@', '-two', '+TWO');
    await withBoard({ 'gone.txt': 'bye\n', 'src/a.ts': 'one\ntwo\n' }, answer, async (flint) => {
      expect(await failureOf(() => flint.board.accept('1.delete.0', undefined, { kind: 'lines', indices: [0] }))).toMatchObject({ code: 'invalid-input', message: expect.stringContaining('deletes a whole file') });
      expect(await failureOf(() => flint.board.accept('1.move.1', undefined, { kind: 'edited', newLines: ['x'] }))).toMatchObject({ code: 'invalid-input', message: expect.stringContaining('moves a whole file') });
      flint.board.reject('1.0');
      expect(await failureOf(() => flint.board.accept('1.0', undefined, { kind: 'edited', newLines: ['x'] }))).toMatchObject({ code: 'invalid-state' });
      expect(await flint.read('gone.txt')).toBe('bye\n');
    });
  });

  it('a revised accept the file declines at write time leaves the hunk as the model wrote it', async () => {
    const answer = patch('*** Update File: f.txt', '@@', ' one', '-two', '-three', '+TWO', '+THREE', ' four');
    await withBoard({ 'f.txt': 'one\ntwo\nthree\nfour\n' }, answer, async (flint) => {
      const modelLines = flint.updates.filter((update) => update.id === '1.0').flatMap((update) => update.appendLines);
      // The user's save lands, and the watcher has not told Flint yet.
      await flint.project.write({ 'f.txt': 'one\ntwo!\nthree\nfour\n' });
      expect(await flint.board.accept('1.0', undefined, { kind: 'lines', indices: [1, 3] })).toBe('conflict');
      expect(await flint.read('f.txt')).toBe('one\ntwo!\nthree\nfour\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'conflict' });
      expect(flint.hunks.get('1.0')?.revised).toBeUndefined();
      expect(flint.updates.findLast((update) => update.replaceLines !== undefined)?.replaceLines).toEqual(modelLines);
      expect(flint.board.decisions.peek()).toEqual([]);
      // The user puts the line back: the whole hunk is offered, and written, again.
      await flint.project.write({ 'f.txt': 'one\ntwo\nthree\nfour\n' });
      await flint.service.noteFileChanged('f.txt');
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('f.txt')).toBe('one\nTWO\nTHREE\nfour\n');
    });
  });

  it('shows the revision on a board kept between runs', async () => {
    await withBoard({ 'src/a.ts': 'one\ntwo\nthree\nfour\n' }, FIVE_CHANGES, async (flint) => {
      await flint.board.accept('1.0', undefined, { kind: 'lines', indices: [2] });
      expect(await flint.read('src/a.ts')).toBe('one\ntwo\nfour\n');
      const snapshot = BoardSnapshotSchema.parse(JSON.parse(JSON.stringify(flint.board.snapshot())));
      expect(hunkUpdatesOf(snapshot)[0]).toMatchObject({ state: 'accepted', revised: '1 of 5 changed lines' });
    });
  });
});

describe('HunkBoard: Undo, Redo and revert of a revised accept', () => {
  /** The hunk's lines as the model wrote them, from the updates that streamed them. */
  const modelLinesOf = (flint: BoardOnDisk, hunkId: string) => flint.updates.filter((update) => update.id === hunkId).flatMap((update) => update.appendLines);
  /** Hunk 1's updates since `from` that replaced its lines. */
  const replacedSince = (flint: BoardOnDisk, from: number) => flint.updates.slice(from).filter((update) => update.id === '1.0' && update.replaceLines !== undefined);

  it('Undo of a line-level accept shows the model’s whole hunk again, and Accept then writes the whole hunk', async () => {
    await withBoard({ 'src/a.ts': 'one\ntwo\nthree\nfour\n' }, FIVE_CHANGES, async (flint) => {
      const whole = modelLinesOf(flint, '1.0');
      await flint.board.accept('1.0', undefined, { kind: 'lines', indices: [2] });
      const from = flint.updates.length;
      expect((await flint.service.undo()).status).toBe('done');
      expect(await flint.read('src/a.ts')).toBe('one\ntwo\nthree\nfour\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending', message: 'Undone; you can accept it again.' });
      expect(flint.hunks.get('1.0')?.revised).toBeUndefined();
      const replaced = replacedSince(flint, from);
      expect(replaced).toHaveLength(1);
      expect(replaced[0]!.replaceLines).toEqual(whole);
      expect(flint.board.decisions.peek()).toEqual(['hunk 1 in src/a.ts undone (no longer on disk)']);
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('src/a.ts')).toBe('one\nTWO\nTHREE\nextra\nfour\n');
      expect(flint.hunks.get('1.0')?.revised).toBeUndefined();
    });
  });

  it('Redo of a line-level accept brings back its revised lines and label', async () => {
    await withBoard({ 'src/a.ts': 'one\ntwo\nthree\nfour\n' }, FIVE_CHANGES, async (flint) => {
      await flint.board.accept('1.0', undefined, { kind: 'lines', indices: [2] });
      const revisedLines = flint.updates.findLast((update) => update.id === '1.0' && update.replaceLines !== undefined)!.replaceLines;
      expect((await flint.service.undo()).status).toBe('done');
      const from = flint.updates.length;
      expect((await flint.service.redo()).status).toBe('done');
      expect(await flint.read('src/a.ts')).toBe('one\ntwo\nfour\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted', revised: '1 of 5 changed lines' });
      expect(replacedSince(flint, from).map((update) => update.replaceLines)).toEqual([revisedLines]);
      expect(flint.board.decisions.peek().at(-1)).toContain('accepted in part');
    });
  });

  it('Undo of an edited accept shows the model’s hunk again, and Redo the user’s text', async () => {
    await withBoard({ 'src/a.ts': 'one\ntwo\nthree\nfour\n' }, FIVE_CHANGES, async (flint) => {
      const whole = modelLinesOf(flint, '1.0');
      await flint.board.accept('1.0', undefined, { kind: 'edited', newLines: ['one', 'Two, mine', 'three', 'four'] });
      expect((await flint.service.undo()).status).toBe('done');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending' });
      expect(flint.hunks.get('1.0')?.revised).toBeUndefined();
      expect(flint.updates.findLast((update) => update.replaceLines !== undefined)?.replaceLines).toEqual(whole);
      expect((await flint.service.redo()).status).toBe('done');
      expect(await flint.read('src/a.ts')).toBe('one\nTwo, mine\nthree\nfour\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted', revised: 'edited by you' });
    });
  });

  it('reverting a revised accept shows the model’s hunk again, and undoing the revert the revised write', async () => {
    await withBoard({ 'src/a.ts': 'one\ntwo\nthree\nfour\n' }, FIVE_CHANGES, async (flint) => {
      const whole = modelLinesOf(flint, '1.0');
      await flint.board.accept('1.0', undefined, { kind: 'lines', indices: [1, 3] });
      const from = flint.updates.length;
      expect(await flint.board.revert('1.0')).toBe('pending');
      expect(await flint.read('src/a.ts')).toBe('one\ntwo\nthree\nfour\n');
      expect(flint.hunks.get('1.0')?.revised).toBeUndefined();
      expect(replacedSince(flint, from).map((update) => update.replaceLines)).toEqual([whole]);
      expect((await flint.service.undo()).status).toBe('done');
      expect(await flint.read('src/a.ts')).toBe('one\nTWO\nthree\nfour\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted', revised: '2 of 5 changed lines' });
    });
  });

  it('a board kept between runs still brings back the model’s hunk when a revised accept is undone', async () => {
    await withBoard({ 'src/a.ts': 'one\ntwo\nthree\nfour\n' }, FIVE_CHANGES, async (flint) => {
      const whole = modelLinesOf(flint, '1.0');
      await flint.board.accept('1.0', undefined, { kind: 'lines', indices: [2] });
      const snapshot = BoardSnapshotSchema.parse(JSON.parse(JSON.stringify(flint.board.snapshot())));
      const updates: HunkUpdate[] = [];
      flint.service.openBoard((update) => updates.push(update)).restore(snapshot);
      expect((await flint.service.undo()).status).toBe('done');
      const hunkOne = updates.filter((update) => update.id === '1.0');
      expect(hunkOne.findLast((update) => update.replaceLines !== undefined)?.replaceLines).toEqual(whole);
      expect(hunkOne.at(-1)).toMatchObject({ state: 'pending' });
      expect(hunkOne.at(-1)?.revised).toBeUndefined();
      // The lines it left, still undecided, no longer apply on their own.
      expect(updates.at(-1)).toMatchObject({ id: '1.0.rest1.2', state: 'refused' });
    });
  });
});
