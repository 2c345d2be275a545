/**
 * Reverting one accepted hunk from its card: what goes back on disk, what stays, what is
 * refused, and how Undo and Redo treat a revert. Real files, applier and journal.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { withBoard, type BoardOnDisk } from '../../../test/helpers/board-on-disk';
import { failureOf } from '../../../test/helpers/failure-of';
import type { HunkUpdate } from '../../shared/edits/hunk-types';
import { BoardSnapshotSchema } from './board-snapshot';

const patch = (...lines: string[]) => `*** Begin Patch\n${lines.join('\n')}\n*** End Patch\n`;
const ORIGINAL = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';
/** Two hunks of f.txt, far enough apart to be written together by Accept all. */
const TWO_HUNKS = patch('*** Update File: f.txt', '@@', ' one', '-two', '+TWO', ' three', '@@', ' five', '-six', '+SIX', ' seven');


/** The user saves `path` with `text` (and the watcher tells the service). */
async function userSaves(flint: BoardOnDisk, path: string, text: string): Promise<void> {
  await flint.project.write({ [path]: text });
  await flint.service.noteFileChanged(path);
}

describe('HunkBoard: reverting an accepted hunk', () => {
  it('reverting one hunk of an Accept all leaves the other hunks on disk', async () => {
    await withBoard({ 'f.txt': ORIGINAL }, TWO_HUNKS, async (flint) => {
      expect(await flint.board.acceptAll()).toBe(2);
      expect(await flint.board.revert('1.0')).toBe('pending');
      expect(await flint.read('f.txt')).toBe('one\ntwo\nthree\nfour\nfive\nSIX\nseven\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending', message: 'Reverted; you can accept it again.', anchorLine: 1 });
      expect(flint.hunks.get('1.1')).toMatchObject({ state: 'accepted' });
      expect(flint.board.decisions.peek()).toEqual(['hunk 2 in f.txt accepted (written to disk)', 'hunk 1 in f.txt undone (no longer on disk)']);
      // It can be accepted again, and reverted again.
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('f.txt')).toBe('one\nTWO\nthree\nfour\nfive\nSIX\nseven\n');
      expect(await flint.board.revert('1.1')).toBe('pending');
      expect(await flint.read('f.txt')).toBe('one\nTWO\nthree\nfour\nfive\nsix\nseven\n');
    });
  });

  it('reverts a hunk written before others of its file, where those moved its lines', async () => {
    const answer = patch('*** Update File: f.txt', '@@', ' four', '-five', '+FIVE', '@@', ' one', '-two', '+TWO', '+TWO and a half', ' three');
    await withBoard({ 'f.txt': ORIGINAL }, answer, async (flint) => {
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.board.accept('1.1')).toBe('accepted');
      expect(await flint.board.revert('1.0')).toBe('pending');
      expect(await flint.read('f.txt')).toBe('one\nTWO\nTWO and a half\nthree\nfour\nfive\nsix\nseven\n');
    });
  });

  it('puts back the file’s own lines and endings, not the hunk’s quote of them', async () => {
    // The hunk quotes "two" without its trailing spaces and with curly quotes for straight ones: tolerated.
    const answer = patch('*** Update File: f.txt', '@@', ' say “hi”', '-two', '+TWO', ' three');
    const original = 'say "hi"\r\ntwo   \r\nthree\nfour';
    await withBoard({ 'f.txt': original }, answer, async (flint) => {
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.board.revert('1.0')).toBe('pending');
      expect(await readFile(flint.project.path('f.txt'), 'utf8')).toBe(original);
    });
  });

  it('a revert the user changed under refuses and writes nothing', async () => {
    await withBoard({ 'f.txt': ORIGINAL }, TWO_HUNKS, async (flint) => {
      expect(await flint.board.acceptAll()).toBe(2);
      const edited = 'one\nTWO, edited\nthree\nfour\nfive\nSIX\nseven\n';
      await userSaves(flint, 'f.txt', edited);
      const failure = await failureOf(() => flint.board.revert('1.0'));
      expect(failure).toMatchObject({ code: 'invalid-state', message: expect.stringContaining('no longer in f.txt as it wrote them') });
      expect(failure.message).toContain('Use Undo');
      expect(await flint.read('f.txt')).toBe(edited);
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted' });
      // The other hunk's lines were not touched: it still reverts.
      expect(await flint.board.revert('1.1')).toBe('pending');
      expect(await flint.read('f.txt')).toBe('one\nTWO, edited\nthree\nfour\nfive\nsix\nseven\n');
    });
  });

  it('still reverts after the user edits elsewhere in the file', async () => {
    await withBoard({ 'f.txt': ORIGINAL }, TWO_HUNKS, async (flint) => {
      await flint.board.accept('1.1');
      await userSaves(flint, 'f.txt', 'zero\none\ntwo\nthree\nfour\nfive\nSIX\nseven\neight\n');
      expect(await flint.board.revert('1.1')).toBe('pending');
      expect(await flint.read('f.txt')).toBe('zero\none\ntwo\nthree\nfour\nfive\nsix\nseven\neight\n');
    });
  });

  it('refuses to revert a hunk that is not accepted', async () => {
    await withBoard({ 'f.txt': ORIGINAL }, TWO_HUNKS, async (flint) => {
      expect(await failureOf(() => flint.board.revert('1.0'))).toMatchObject({ code: 'invalid-state', message: 'This hunk is pending; only an accepted hunk can be reverted.' });
      expect(await flint.read('f.txt')).toBe(ORIGINAL);
    });
  });

  it('Undo after a revert puts the hunk back, and Redo reverts it again', async () => {
    await withBoard({ 'f.txt': ORIGINAL }, TWO_HUNKS, async (flint) => {
      expect(await flint.board.acceptAll()).toBe(2);
      await flint.board.revert('1.0');
      expect((await flint.service.undo()).status).toBe('done');
      expect(await flint.read('f.txt')).toBe('one\nTWO\nthree\nfour\nfive\nSIX\nseven\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted', message: 'The revert was undone: this hunk is on disk again.' });
      expect(flint.board.decisions.peek().at(-1)).toBe('hunk 1 in f.txt accepted (written to disk)');
      expect((await flint.service.redo()).status).toBe('done');
      expect(await flint.read('f.txt')).toBe('one\ntwo\nthree\nfour\nfive\nSIX\nseven\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending', message: 'Reverted; you can accept it again.' });
      // One more Undo takes the revert back, the next the Accept all itself.
      expect((await flint.service.undo()).status).toBe('done');
      expect((await flint.service.undo()).status).toBe('done');
      expect(await flint.read('f.txt')).toBe(ORIGINAL);
      expect([flint.hunks.get('1.0')?.state, flint.hunks.get('1.1')?.state]).toEqual(['pending', 'pending']);
    });
  });

  it('Undo reaches a hunk’s first write after it was reverted and accepted again', async () => {
    await withBoard({ 'f.txt': ORIGINAL }, TWO_HUNKS, async (flint) => {
      await flint.board.accept('1.0');
      await flint.board.revert('1.0');
      await flint.board.accept('1.0');
      const stateAfterUndo = async (): Promise<[string | undefined, string]> => {
        expect((await flint.service.undo()).status).toBe('done');
        return [flint.hunks.get('1.0')?.state, await flint.read('f.txt')];
      };
      const written = 'one\nTWO\nthree\nfour\nfive\nsix\nseven\n';
      expect(await stateAfterUndo()).toEqual(['pending', ORIGINAL]);
      expect(await stateAfterUndo()).toEqual(['accepted', written]);
      expect(await stateAfterUndo()).toEqual(['pending', ORIGINAL]);
    });
  });

  it('reverts a hunk of a board kept between runs, following its lines from what its journal entry wrote', async () => {
    await withBoard({ 'f.txt': ORIGINAL }, TWO_HUNKS, async (flint) => {
      expect(await flint.board.acceptAll()).toBe(2);
      // The user adds a line above both hunks: the written lines moved, and are followed there.
      await userSaves(flint, 'f.txt', `zero\n${'one\nTWO\nthree\nfour\nfive\nSIX\nseven\n'}`);
      const snapshot = BoardSnapshotSchema.parse(JSON.parse(JSON.stringify(flint.board.snapshot())));
      const updates = new Map<string, HunkUpdate>();
      const restored = flint.service.openBoard((update) => updates.set(update.id, update));
      restored.restore(snapshot);
      expect(await restored.revert('1.1')).toBe('pending');
      expect(await flint.read('f.txt')).toBe('zero\none\nTWO\nthree\nfour\nfive\nsix\nseven\n');
      expect(updates.get('1.1')).toMatchObject({ state: 'pending' });
    });
  });

  it('a board kept between runs refuses to revert a hunk when it cannot tell which write left its lines, rather than search for them', async () => {
    await withBoard({ 'f.txt': ORIGINAL }, TWO_HUNKS, async (flint) => {
      expect(await flint.board.acceptAll()).toBe(2);
      const saved = flint.board.snapshot();
      // A snapshot from before writes named their journal entry in the landing.
      const snapshot = BoardSnapshotSchema.parse(JSON.parse(JSON.stringify({ ...saved, hunks: saved.hunks.map(({ landing, ...hunk }) => ({ ...hunk, landing: { ...landing, entryId: undefined } })) })));
      const restored = flint.service.openBoard(() => undefined);
      restored.restore(snapshot);
      expect(await failureOf(() => restored.revert('1.1'))).toMatchObject({ code: 'invalid-state', message: expect.stringContaining('cannot tell where its lines are now') });
      expect(await flint.read('f.txt')).toBe('one\nTWO\nthree\nfour\nfive\nSIX\nseven\n');
    });
  });
});

describe('HunkBoard: a revert never guesses, never writes twice, never takes a neighbour', () => {
  it('refuses a revert after the user typed inside the hunk’s lines, though the same lines occur elsewhere in the file', async () => {
    // The hunk removes "bar" between "foo" and "baz"; the user's own "foo\nbaz" is further down.
    await withBoard({ 'f.txt': 'foo\nbar\nbaz\nX\nfoo\nbaz\n' }, patch('*** Update File: f.txt', '@@', ' foo', '-bar', ' baz'), async (flint) => {
      expect(await flint.board.accept('1.0')).toBe('accepted');
      const edited = 'foo\nmine\nbaz\nX\nfoo\nbaz\n';
      await userSaves(flint, 'f.txt', edited);
      expect(await failureOf(() => flint.board.revert('1.0'))).toMatchObject({ code: 'invalid-state', message: expect.stringContaining('no longer in f.txt as it wrote them') });
      expect(await flint.read('f.txt')).toBe(edited);
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted' });
    });
  });

  it('refuses a revert after the user edited a written line, though an exact copy of the written lines is elsewhere', async () => {
    await withBoard({ 'f.txt': 'a\nb\n\n  return 1;\n}\n' }, patch('*** Update File: f.txt', '@@', '-a', '-b', '+  return 1;', '+}'), async (flint) => {
      expect(await flint.board.accept('1.0')).toBe('accepted');
      const edited = '  return 2;\n}\n\n  return 1;\n}\n';
      await userSaves(flint, 'f.txt', edited);
      expect(await failureOf(() => flint.board.revert('1.0'))).toMatchObject({ code: 'invalid-state' });
      expect(await flint.read('f.txt')).toBe(edited);
    });
  });

  it('a revert queued just behind an Undo of the same hunk writes nothing: the line it removed comes back once', async () => {
    await withBoard({ 'f.txt': 'a\nb\nc\n' }, patch('*** Update File: f.txt', '@@', ' a', '-b'), async (flint) => {
      expect(await flint.board.accept('1.0')).toBe('accepted');
      const [undo, revert] = await Promise.allSettled([flint.service.undo(), flint.board.revert('1.0')]);
      expect(undo).toMatchObject({ status: 'fulfilled', value: { status: 'done' } });
      expect(revert).toMatchObject({ status: 'rejected', reason: { code: 'invalid-state', message: expect.stringContaining('nothing was written') } });
      expect(await flint.read('f.txt')).toBe('a\nb\nc\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending' });
    });
  });

  it('refuses to revert a hunk whose lines an overlapping neighbour of its Accept all wrote over, and leaves the neighbour on disk', async () => {
    // The second hunk shares "three" with the first: written together, the first keeps no lines of its own.
    const answer = patch('*** Update File: f.txt', '@@', ' one', '-two', '+TWO', ' three', '@@', ' three', '-four', '+FOUR');
    await withBoard({ 'f.txt': 'one\ntwo\nthree\nfour\nfive\n' }, answer, async (flint) => {
      expect(await flint.board.acceptAll()).toBe(2);
      // The neighbour is reverted and accepted again: the file is as the Accept all left it.
      expect(await flint.board.revert('1.1')).toBe('pending');
      expect(await flint.board.accept('1.1')).toBe('accepted');
      expect(await failureOf(() => flint.board.revert('1.0'))).toMatchObject({ code: 'invalid-state', message: expect.stringContaining('overlap') });
      expect(await flint.read('f.txt')).toBe('one\nTWO\nthree\nFOUR\nfive\n');
      expect([flint.hunks.get('1.0')?.state, flint.hunks.get('1.1')?.state]).toEqual(['accepted', 'accepted']);
    });
  });

  it('Undo back through a revert shows the write it brings back: the whole hunk, not the part accepted since', async () => {
    const answer = patch('*** Update File: f.txt', '@@', ' one', '-two', '-three', '+TWO', '+THREE', ' four');
    await withBoard({ 'f.txt': 'one\ntwo\nthree\nfour\n' }, answer, async (flint) => {
      const whole = flint.updates.filter((update) => update.id === '1.0').flatMap((update) => update.appendLines);
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.board.revert('1.0')).toBe('pending');
      // Accepted again, this time only "two" -> "TWO".
      expect(await flint.board.accept('1.0', undefined, { kind: 'lines', indices: [1, 3] })).toBe('accepted');
      expect((await flint.service.undo()).status).toBe('done');
      // Off disk, the revised write leaves the model's whole hunk on the card.
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending' });
      expect(flint.hunks.get('1.0')?.revised).toBeUndefined();
      expect(flint.updates.findLast((update) => update.replaceLines !== undefined)?.replaceLines).toEqual(whole);
      expect((await flint.service.undo()).status).toBe('done');
      expect(await flint.read('f.txt')).toBe('one\nTWO\nTHREE\nfour\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted' });
      expect(flint.hunks.get('1.0')?.revised).toBeUndefined();
      expect(flint.updates.findLast((update) => update.replaceLines !== undefined)?.replaceLines).toEqual(whole);
      expect(flint.board.decisions.peek().at(-1)).toBe('hunk 1 in f.txt accepted (written to disk)');
      // Redo takes the whole hunk off again, then brings back the revised write.
      expect((await flint.service.redo()).status).toBe('done');
      expect((await flint.service.redo()).status).toBe('done');
      expect(await flint.read('f.txt')).toBe('one\nTWO\nthree\nfour\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted', revised: '2 of 4 changed lines' });
      expect(flint.board.decisions.peek().at(-1)).toContain('accepted in part');
    });
  });
});

describe('HunkBoard: reverting a whole-file hunk', () => {
  it('deletes a created file again, while it holds what the hunk wrote', async () => {
    await withBoard({}, patch('*** Add File: notes.txt', '+first'), async (flint) => {
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.board.revert('1.0')).toBe('pending');
      await expect(flint.read('notes.txt')).rejects.toThrow();
      expect((await flint.service.undo()).status).toBe('done');
      expect(await flint.read('notes.txt')).toBe('first\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted' });
    });
  });

  it('refuses to revert a created file the user changed since, saying to use Undo', async () => {
    await withBoard({}, patch('*** Add File: notes.txt', '+first'), async (flint) => {
      await flint.board.accept('1.0');
      await userSaves(flint, 'notes.txt', 'first\nmine\n');
      expect(await failureOf(() => flint.board.revert('1.0'))).toMatchObject({ code: 'invalid-state', message: expect.stringContaining('Use Undo') });
      expect(await flint.read('notes.txt')).toBe('first\nmine\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'accepted' });
    });
  });

  it('brings a deleted file back, even after other files were written', async () => {
    const answer = patch('*** Delete File: gone.txt', '*** Update File: f.txt', '@@', '-two', '+TWO');
    await withBoard({ 'gone.txt': 'bye\r\n', 'f.txt': ORIGINAL }, answer, async (flint) => {
      expect(await flint.board.acceptAll()).toBe(2);
      expect(await flint.board.revert('1.delete.0')).toBe('pending');
      expect(await readFile(flint.project.path('gone.txt'), 'utf8')).toBe('bye\r\n');
      expect(await flint.read('f.txt')).toBe('one\nTWO\nthree\nfour\nfive\nsix\nseven\n');
    });
  });

  it('moves a moved file back, and its section’s cards follow it', async () => {
    await withBoard({ 'f.txt': 'a\nb\n' }, patch('*** Update File: f.txt', '*** Move to: g.txt', '@@', '-b', '+B'), async (flint) => {
      expect(await flint.board.accept('1.move.0')).toBe('accepted');
      expect(await flint.board.revert('1.move.0')).toBe('pending');
      expect(await flint.read('f.txt')).toBe('a\nb\n');
      await expect(flint.read('g.txt')).rejects.toThrow();
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending', path: 'f.txt' });
    });
  });
});
