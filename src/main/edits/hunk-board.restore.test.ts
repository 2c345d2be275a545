/**
 * Taking decisions back: a rejection restored from its card or by Undo, in order with
 * Flint's writes, and Redo making them again. Real files, parser, applier and journal.
 */
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { boardOnDisk } from '../../../test/helpers/board-on-disk';

const patch = (...lines: string[]) => `*** Begin Patch\n${lines.join('\n')}\n*** End Patch\n`;
const TWO_HUNKS = patch('*** Update File: f.txt', '@@', '-a', '+A', '@@', '-c', '+C');

describe('HunkBoard: taking a rejection back', () => {
  it('makes a rejected hunk undecided again from its card, and it can then be accepted', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\nc\n' });
    try {
      await flint.stream(TWO_HUNKS);
      expect(flint.board.reject('1.0')).toBe('rejected');
      expect(await flint.board.restoreRejected('1.0')).toBe('pending');
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('f.txt')).toBe('A\nb\nc\n');
    } finally {
      await flint.close();
    }
  });

  it('plans a restored hunk on the file as it is now: a conflict when the user changed its lines meanwhile', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\nc\n' });
    try {
      await flint.stream(TWO_HUNKS);
      flint.board.reject('1.0');
      await writeFile(flint.project.path('f.txt'), 'mine\nb\nc\n');
      expect(await flint.board.restoreRejected('1.0')).toBe('conflict');
    } finally {
      await flint.close();
    }
  });

  it('refuses to restore a hunk that is not rejected, in words', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\nc\n' });
    try {
      await flint.stream(TWO_HUNKS);
      await expect(flint.board.restoreRejected('1.0')).rejects.toThrow('only a rejected hunk can be restored');
    } finally {
      await flint.close();
    }
  });

  it('tells the model nothing of a rejection taken back before it heard of it, and that it is open again after', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\nc\n' });
    try {
      await flint.stream(TWO_HUNKS);
      flint.board.reject('1.0');
      await flint.board.restoreRejected('1.0');
      expect(flint.board.decisions.peek()).toEqual([]);
      flint.board.reject('1.1');
      flint.board.decisions.forget(flint.board.decisions.peek());
      await flint.board.restoreRejected('1.1');
      expect(flint.board.decisions.peek()).toEqual(['hunk 2 in f.txt no longer rejected (the user took the rejection back; it is undecided again)']);
    } finally {
      await flint.close();
    }
  });
});

describe('Undo and Redo walk back through decisions in order', () => {
  it('reject, accept, Undo, Undo: the write goes first, then the rejection; Redo makes both again', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\nc\n' });
    try {
      await flint.stream(TWO_HUNKS);
      flint.board.reject('1.0');
      await flint.board.accept('1.1');
      expect(await flint.service.undo()).toMatchObject({ status: 'done', message: 'Undid the change to f.txt.' });
      expect(flint.hunks.get('1.1')?.state).toBe('pending');
      expect(flint.hunks.get('1.0')?.state).toBe('rejected');
      expect(await flint.service.undo()).toMatchObject({ status: 'done', message: 'Restored hunk 1 in f.txt: undecided again.' });
      expect(flint.hunks.get('1.0')?.state).toBe('pending');
      expect(await flint.service.undo()).toMatchObject({ status: 'empty' });
      expect(await flint.service.redo()).toMatchObject({ status: 'done', message: 'Rejected hunk 1 in f.txt again.' });
      expect(flint.hunks.get('1.0')?.state).toBe('rejected');
      expect(await flint.service.redo()).toMatchObject({ status: 'done', message: 'Redid the change to f.txt.' });
      expect(await flint.read('f.txt')).toBe('a\nb\nC\n');
    } finally {
      await flint.close();
    }
  });

  it('accept, then Reject all: Undo restores every hunk Reject all took in one step, before the write', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\nc\n', 'g.txt': 'x\n' });
    try {
      await flint.stream(TWO_HUNKS + patch('*** Update File: g.txt', '@@', '-x', '+X'));
      await flint.board.accept('1.0');
      expect(flint.board.rejectAll()).toBe(2);
      expect(await flint.service.undo()).toMatchObject({ status: 'done', message: 'Restored 2 hunks (f.txt, g.txt): undecided again.' });
      expect([...flint.hunks.values()].map((hunk) => hunk.state)).toEqual(['accepted', 'pending', 'pending']);
      expect(await flint.read('f.txt')).toBe('A\nb\nc\n');
      expect(await flint.service.undo()).toMatchObject({ status: 'done', message: 'Undid the change to f.txt.' });
    } finally {
      await flint.close();
    }
  });

  it('passes over a rejection whose hunk was restored from its card since, to the decision before it', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\nc\n' });
    try {
      await flint.stream(TWO_HUNKS);
      flint.board.reject('1.0');
      flint.board.reject('1.1');
      await flint.board.restoreRejected('1.1');
      expect(await flint.service.undo()).toMatchObject({ message: 'Restored hunk 1 in f.txt: undecided again.' });
      expect(flint.hunks.get('1.0')?.state).toBe('pending');
    } finally {
      await flint.close();
    }
  });
});

describe('HunkBoard: the lines left of a hunk accepted in part', () => {
  const THREE_LINES = patch('*** Update File: f.txt', ' a', '-b', '+B', '+b2', ' c');

  it('offers the lines the user left as a hunk of its own, which writes the rest of the change when accepted', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\nc\n' });
    try {
      await flint.stream(THREE_LINES);
      // Lines: ' a', '-b', '+B', '+b2', ' c': the user takes only "+B".
      expect(await flint.board.accept('1.0', undefined, { kind: 'lines', indices: [2] })).toBe('accepted');
      expect(await flint.read('f.txt')).toBe('a\nb\nB\nc\n');
      const rest = [...flint.hunks.values()].find((hunk) => hunk.id !== '1.0')!;
      expect(rest).toMatchObject({ state: 'pending', number: 2, message: 'The lines you left of hunk 1: accept or reject them too.' });
      expect(await flint.board.accept(rest.id)).toBe('accepted');
      expect(await flint.read('f.txt')).toBe('a\nB\nb2\nc\n');
      expect(flint.board.decisions.peek()).toEqual([
        'hunk 1 in f.txt accepted in part (1 of 3 changed lines written; the rest left as the file had it)',
        'hunk 2 (the lines left of hunk 1) in f.txt accepted (written to disk)',
      ]);
    } finally {
      await flint.close();
    }
  });

  it('lets the lines left be rejected, and Undo of the part written refuses a rest still undecided', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\nc\n' });
    try {
      await flint.stream(THREE_LINES);
      await flint.board.accept('1.0', undefined, { kind: 'lines', indices: [2] });
      const restId = [...flint.hunks.keys()].find((id) => id !== '1.0')!;
      expect(await flint.service.undo()).toMatchObject({ status: 'done' });
      expect(flint.hunks.get('1.0')?.state).toBe('pending');
      expect(flint.hunks.get(restId)).toMatchObject({ state: 'refused', message: 'Hunk 1 is undecided again with all its lines, so these lines it left no longer apply on their own.' });
      expect(flint.board.reject(restId)).toBe('rejected');
      // The whole hunk is still there to accept.
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('f.txt')).toBe('a\nB\nb2\nc\n');
    } finally {
      await flint.close();
    }
  });
});

describe('a new decision ends the redo branch', () => {
  it('Undo of a write, then a rejection: Redo has nothing to make again', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\nc\n' });
    try {
      await flint.stream(TWO_HUNKS);
      await flint.board.accept('1.0');
      await flint.service.undo();
      flint.board.reject('1.1');
      expect(await flint.service.redo()).toMatchObject({ status: 'empty', message: 'Nothing to redo.' });
      expect(await flint.read('f.txt')).toBe('a\nb\nc\n');
    } finally {
      await flint.close();
    }
  });
});
