import { describe, expect, it } from 'vitest';
import { LINEAR_WORK_BOUND, workGrowth } from '../../../test/helpers/work-growth';
import { EditStreamParser } from '../../shared/edits/edit-stream-parser';
import type { HunkState } from '../../shared/edits/hunk-types';
import { decodeFileText, type FileText } from '../fs/file-text';
import { createMemoryLogger } from '../logger';
import type { EditApplier } from './edit-applier';
import { isHunkStreamEvent } from '../../shared/edits/edit-types';
import { HunkBoard } from './hunk-board';

const text = (content: string): FileText => decodeFileText(new TextEncoder().encode(content), 'test');
const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A board fed by the real parser: `stream` sends each part in small deltas and lets every
 * hunk settle before the next part. `applier` holds only what a test expects to be called.
 */
function harness(files: Record<string, string>, applier: Partial<EditApplier> = {}) {
  const hunks = new Map<string, { state: HunkState; message?: string }>();
  const paths: string[] = [];
  const board = new HunkBoard({
    applier: applier as EditApplier,
    readText: async (path) => (path in files ? text(files[path]!) : null),
    report: (hunk) => {
      hunks.set(hunk.id, { state: hunk.state, ...(hunk.message !== undefined ? { message: hunk.message } : {}) });
      paths.push(hunk.path);
    },
    logger: createMemoryLogger(),
  });
  return {
    board,
    /** Each hunk's latest state. */
    hunks,
    /** The path every hunk update carried. */
    paths,
    async stream(parts: readonly string[], deltaSize = 16): Promise<void> {
      board.noteShown(new Map(Object.entries(files).map(([path, content]) => [path, text(content)])));
      const toBoard = board.beginTurn(1);
      const parser = new EditStreamParser((event) => {
        if (isHunkStreamEvent(event)) toBoard(event);
      });
      for (const part of parts) {
        for (let offset = 0; offset < part.length; offset += deltaSize) parser.push(part.slice(offset, offset + deltaSize));
        await settled();
      }
      parser.finish(false);
      await settled();
    },
  };
}

describe('HunkBoard', () => {
  it('settles hunks of 50,000-character lines against a file with such lines in linear work (main was blocked 3.8 s)', async () => {
    const run = async (size: number) => {
      const long = ' '.repeat(size);
      const { board, hunks, stream } = harness({ 'src/a.ts': `a\n${'*'.repeat(size)}:\n${long}x\nb  \n` });
      await stream([`a${'*'.repeat(size)}a\n*** Begin Patch\n*** Update File: src/a.ts${long}\n@@ ${long}x\n ${long}x${long}\n-b\n+c\n*** End Patch\n`], 4096);
      board.dispose();
      return hunks.get('1.0')?.state;
    };
    expect(await run(10)).toBe('pending');
    expect(await workGrowth(run, 3_125)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });

  it('refuses a hunk containing a NUL character, visibly, and never writes it', async () => {
    const { board, hunks, stream } = harness({ 'src/a.ts': 'one\ntwo\n' });
    await stream(['*** Begin Patch\n*** Update File: src/a.ts\n-one\n+o\0ne\n*** Add File: src/b.ts\n+\0\n*** End Patch\n']);
    expect([...hunks.values()].map((hunk) => hunk.state)).toEqual(['refused', 'refused']);
    expect(hunks.get('1.0')!.message).toContain('NUL character');
    await expect(board.accept('1.0')).rejects.toThrow('only a complete, anchored hunk');
  });

  it('refuses a moved file’s whole section when the move is refused, in whatever order its hunks settle', async () => {
    const section = (move: string, hunkFirst: boolean) =>
      hunkFirst ? ['*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n+uno\n@@\n', `*** Move to: ${move}\n*** End Patch\n`] : [`*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: ${move}\n@@\n-one\n+uno\n*** End Patch\n`];
    for (const [move, hunkFirst] of [['.git./a.ts', false], ['GIT~1/a.ts', true], ['../a.ts', true]] as const) {
      const { hunks, stream } = harness({ 'src/a.ts': 'one\ntwo\n' });
      await stream(section(move, hunkFirst));
      expect(hunks.get('1.move.0')?.state, move).toBe('refused');
      expect(hunks.get('1.0'), move).toEqual({ state: 'refused', message: expect.stringContaining('whole section is refused with its move') });
    }
  });

  it('shows a refused huge path shortened, so it does not ride along with every update', async () => {
    const { hunks, paths, stream } = harness({});
    await stream([`*** Begin Patch\n*** Update File: ${'a'.repeat(1_000_000)}\n-one\n+uno\n*** End Patch\n`], 65_536);
    expect(hunks.get('1.0')?.state).toBe('refused');
    expect(new Set(paths)).toEqual(new Set([`${'a'.repeat(200)}…`]));
  });

  it('refuses the section’s pending hunks when the move is refused as it is accepted', async () => {
    const refusal = 'Refused: src/b.ts leads into .git through a symlink.';
    const { board, hunks, stream } = harness({ 'src/a.ts': 'one\ntwo\n' }, { moveFile: async () => ({ status: 'refused', message: refusal }) });
    await stream(['*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: src/b.ts\n@@\n-one\n+uno\n*** End Patch\n']);
    expect([hunks.get('1.move.0')?.state, hunks.get('1.0')?.state]).toEqual(['pending', 'pending']);
    expect(await board.accept('1.move.0')).toBe('refused');
    expect(hunks.get('1.0')).toEqual({ state: 'refused', message: `${refusal} The file's whole section is refused with its move.` });
  });

  it('refuses a decision the hunk’s state does not allow, saying why, and changes nothing', async () => {
    const { board, hunks, stream } = harness({ 'src/a.ts': 'one\ntwo\n' });
    await stream(['*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n+uno\n*** End Patch\n']);
    expect(board.reject('1.0')).toBe('rejected');
    await expect(board.accept('1.0')).rejects.toMatchObject({ code: 'invalid-state', message: expect.stringContaining('This hunk is rejected') });
    expect(hunks.get('1.0')?.state).toBe('rejected');
    expect(() => board.reject('9.9')).toThrow('not part of this answer');
  });

  it('rejects with Reject all only what is undecided, and counts it', async () => {
    const { board, hunks, stream } = harness({ 'src/a.ts': 'one\ntwo\n' });
    await stream(['*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n+uno\n@@\n-missing\n+x\n*** Add File: .git/x\n+y\n*** End Patch\n']);
    expect([...hunks.values()].map((hunk) => hunk.state)).toEqual(['pending', 'unmatched', 'refused']);
    expect(board.rejectAll()).toBe(2);
    expect([...hunks.values()].map((hunk) => hunk.state)).toEqual(['rejected', 'rejected', 'refused']);
  });

  it('shows undo and redo of a written hunk on its card', async () => {
    const { board, hunks, stream } = harness({ 'src/a.ts': 'one\ntwo\n' }, { applyHunks: async () => ({ results: [{ status: 'applied', entry: { id: 'entry-1' } as never, tolerances: [], merged: false }] }) });
    await stream(['*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n+uno\n*** End Patch\n']);
    expect(await board.accept('1.0')).toBe('accepted');
    board.noteJournalChange('entry-1', true);
    expect(hunks.get('1.0')).toEqual({ state: 'pending', message: 'Undone; you can accept it again.' });
    board.noteJournalChange('entry-1', false);
    expect(hunks.get('1.0')).toEqual({ state: 'accepted', message: 'Redone.' });
  });
});
