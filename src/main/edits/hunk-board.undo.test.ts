/**
 * Undo and the hunks still waiting: what they say and where they land once a write is
 * taken back, or a sibling's write moved their lines. Real files, applier and journal.
 */
import { describe, expect, it } from 'vitest';
import { boardOnDisk } from '../../../test/helpers/board-on-disk';

const patch = (...lines: string[]) => `*** Begin Patch\n${lines.join('\n')}\n*** End Patch\n`;

describe('HunkBoard after Undo', () => {
  it('puts a moved file’s section back at its old path when the move is undone', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\n' });
    try {
      await flint.stream(patch('*** Update File: f.txt', '*** Move to: g.txt', '@@', '-b', '+B'));
      expect(await flint.board.accept('1.move.0')).toBe('accepted');
      expect(flint.hunks.get('1.0')?.path).toBe('g.txt');
      expect((await flint.service.undo()).status).toBe('done');
      expect(flint.hunks.get('1.move.0')).toMatchObject({ state: 'pending', path: 'f.txt' });
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending', path: 'f.txt' });
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('f.txt')).toBe('a\nB\n');
    } finally {
      await flint.close();
    }
  });

  it('plans a hunk that was moved onto an undone write again on what the file holds now', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'x\ny\nz\n' });
    try {
      await flint.stream(patch('*** Update File: f.txt', '@@', '-z', '+Z', '@@', '+tail'));
      expect(await flint.board.accept('1.1')).toBe('accepted');
      expect((await flint.service.undo()).status).toBe('done');
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('f.txt')).toBe('x\ny\nZ\n');
    } finally {
      await flint.close();
    }
  });
});

describe('HunkBoard: a sibling’s write next to a hunk', () => {
  it('still lands an End of File hunk after a chunk appended below it, as Accept all would', async () => {
    const flint = await boardOnDisk({ 'f.txt': 'a\nb\nc\n' });
    try {
      await flint.stream(patch('*** Update File: f.txt', '@@', '-c', '+C', '*** End of File', '@@', '+appended'));
      expect(await flint.board.accept('1.1')).toBe('accepted');
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('f.txt')).toBe('a\nb\nC\nappended\n');
    } finally {
      await flint.close();
    }
  });

  it('keeps the line endings of the lines a hunk keeps, in a file of mixed endings', async () => {
    const flint = await boardOnDisk({ 'a.txt': 'one\r\ntwo\nthree\r\nfour\n' });
    try {
      await flint.stream(patch('*** Update File: a.txt', ' one', '+inserted', ' two', ' three'));
      expect(await flint.board.acceptAll()).toBe(1);
      expect(await flint.read('a.txt')).toBe('one\r\ninserted\ntwo\nthree\r\nfour\n');
    } finally {
      await flint.close();
    }
  });
});
