/**
 * The edits side of a conversation kept between runs and told to the model: the decisions
 * note (Reject all, accept / Undo / Redo) and a hunk Flint was writing when it stopped,
 * which is never offered again. Each failed before its fix.
 */
import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { bothFunctionsPatch, TWO_FUNCTIONS } from '../../../test/fixtures/conversation-answers';
import { boardOnDisk, type BoardOnDisk } from '../../../test/helpers/board-on-disk';
import { waitFor } from '../../../test/helpers/temp-project';
import { restoredRecords, type BoardSnapshot } from './board-snapshot';

const ORIGINAL = TWO_FUNCTIONS;
const TWO_HUNKS = bothFunctionsPatch('src/a.ts');
const ONE_HUNK = `*** Begin Patch
*** Update File: src/a.ts
@@ export function first
-  return 1;
+  return 10;
*** End Patch
`;

let board: BoardOnDisk | null = null;
afterEach(async () => {
  await board?.close();
  board = null;
});

describe('the decisions note', () => {
  it('Reject all is told to the model like a single Reject ("hunk 1 … rejected", "hunk 2 … rejected")', async () => {
    board = await boardOnDisk({ 'src/a.ts': ORIGINAL });
    await board.stream(TWO_HUNKS);
    expect(board.board.rejectAll()).toBe(2);
    expect(board.board.decisions.peek()).toEqual(['hunk 1 in src/a.ts rejected', 'hunk 2 in src/a.ts rejected']);
  });

  it('accept, Undo, accept again: the note’s last word on the hunk is that it is on disk', async () => {
    board = await boardOnDisk({ 'src/a.ts': ORIGINAL });
    await board.stream(ONE_HUNK);
    expect(await board.board.accept('1.0')).toBe('accepted');
    expect((await board.service.undo()).status).toBe('done');
    await waitFor(() => board!.hunks.get('1.0')?.state === 'pending', 'the undone hunk to be pending');
    expect(await board.board.accept('1.0')).toBe('accepted');
    expect(await board.read('src/a.ts')).toContain('return 10;');
    const aboutHunk = board.board.decisions.peek().filter((line) => line.startsWith('hunk 1 '));
    expect(aboutHunk.at(-1)).toBe('hunk 1 in src/a.ts accepted (written to disk)');
  });

  it('accept, Undo, Redo: the note does not end by saying the hunk is no longer on disk', async () => {
    board = await boardOnDisk({ 'src/a.ts': ORIGINAL });
    await board.stream(ONE_HUNK);
    expect(await board.board.accept('1.0')).toBe('accepted');
    expect((await board.service.undo()).status).toBe('done');
    expect((await board.service.redo()).status).toBe('done');
    await waitFor(() => board!.hunks.get('1.0')?.state === 'accepted', 'the redone hunk');
    expect(await board.read('src/a.ts')).toContain('return 10;');
    const aboutHunk = board.board.decisions.peek().filter((line) => line.startsWith('hunk 1 '));
    expect(aboutHunk.at(-1)).not.toContain('no longer on disk');
  });
});

describe('restored boards never write a hunk twice', () => {
  // The hunk inserts "X" after "a", "b"; Flint stopped while writing it, and the write had landed.
  const LANDED = 'a\nb\nX\nc\n';
  const INTERRUPTED: BoardSnapshot = {
    files: [{ operation: 'update', format: 'patch', path: 'src/a.ts' }],
    hunks: [
      {
        id: '1.0',
        turn: 1,
        number: 1,
        kind: 'update',
        fileIndex: 0,
        state: 'applying',
        lines: [
          { kind: 'context', text: 'a' },
          { kind: 'context', text: 'b' },
          { kind: 'add', text: 'X' },
        ],
        contextHints: [],
        atEndOfFile: false,
        anchorLine: 1,
      },
    ],
  };

  it('a hunk Flint was writing when it stopped stays only rejectable after a second restart (it is not planned again and offered)', async () => {
    board = await boardOnDisk({ 'src/a.ts': LANDED });
    board.board.restore(INTERRUPTED);
    expect(board.board.snapshot().hunks[0]!.state).toBe('refused');
    // Flint restarts again before the user decided: the refusal is restored from the history.
    const again = board.service.openBoard(() => undefined);
    // restore() plans again only what restoredRecords gives it to settle: none here, so
    // nothing can change the state later, and reading it at once is decisive.
    expect(restoredRecords(board.board.snapshot()).toSettle).toEqual([]);
    again.restore(board.board.snapshot());
    expect(again.snapshot().hunks[0]!.state).toBe('refused');
    await again.accept('1.0').catch(() => undefined);
    expect(await board.read('src/a.ts')).toBe(LANDED);
    again.dispose();
  });

  it('a hunk Flint was writing when it stopped is not made acceptable by the user’s next save of the file', async () => {
    board = await boardOnDisk({ 'src/a.ts': LANDED });
    board.board.restore(INTERRUPTED);
    expect(board.board.snapshot().hunks[0]!.state).toBe('refused');
    // The user saves an unrelated change at the end of the file.
    await writeFile(board.project.path('src/a.ts'), `${LANDED}d\n`);
    await board.service.noteFileChanged('src/a.ts');
    await board.board.accept('1.0').catch(() => undefined);
    expect(await board.read('src/a.ts')).toBe(`${LANDED}d\n`);
  });
});
