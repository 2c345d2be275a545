/**
 * What accepting writes for the shapes real models give their edits: a search/replace
 * block that creates or appends, a V4A chunk that names no place, a bare file name, a
 * file without a final newline. Real files, the real applier and journal, the real parser.
 */
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { boardOnDisk } from '../../../test/helpers/board-on-disk';

const patch = (...lines: string[]) => `*** Begin Patch\n${lines.join('\n')}\n*** End Patch\n`;

describe('HunkBoard: search/replace with an empty SEARCH', () => {
  it('creates a file that does not exist, says so on the card, and Undo removes it', async () => {
    const flint = await boardOnDisk({ 'src/app.ts': 'x\n' });
    try {
      await flint.stream('Adding a Makefile.\n\nMakefile\n```make\n<<<<<<< SEARCH\n=======\nall:\n\tnode build.js\n>>>>>>> REPLACE\n```\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending', path: 'Makefile', message: expect.stringContaining('Creates Makefile') });
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('Makefile')).toBe('all:\n\tnode build.js\n');
      expect(flint.hunks.get('1.0')?.message).toBe('Created Makefile.');
      expect((await flint.service.undo()).status).toBe('done');
      expect(existsSync(flint.project.path('Makefile'))).toBe(false);
    } finally {
      await flint.close();
    }
  });

  it('appends to a file that exists, keeping it without a final newline when it had none', async () => {
    const flint = await boardOnDisk({ 'notes.txt': 'one\ntwo' });
    try {
      await flint.stream('notes.txt\n<<<<<<< SEARCH\n=======\nthree\n>>>>>>> REPLACE\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending', message: expect.stringContaining('Appends to the end of notes.txt') });
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('notes.txt')).toBe('one\ntwo\nthree');
    } finally {
      await flint.close();
    }
  });
});

describe('HunkBoard: a V4A chunk that names no place', () => {
  it('is appended at the end of the file, as the reference implementation does, and the card says why', async () => {
    const flint = await boardOnDisk({ 'src/list.ts': 'export const a = 1;\r\nexport const b = 2;\r\n' });
    try {
      await flint.stream(patch('*** Update File: src/list.ts', '+export const c = 3;'));
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending', anchorLine: 3, message: expect.stringContaining('names no place') });
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('src/list.ts')).toBe('export const a = 1;\r\nexport const b = 2;\r\nexport const c = 3;\r\n');
    } finally {
      await flint.close();
    }
  });
});

describe('HunkBoard: a bare file name', () => {
  it('resolves to the one project file of that name, and the card says so', async () => {
    const flint = await boardOnDisk({ 'dir/file3.py': 'def f():\n    return 1\n', 'other.py': 'x = 1\n' });
    try {
      await flint.stream(patch('*** Update File: file3.py', '@@ def f():', '-    return 1', '+    return 3'));
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending', path: 'dir/file3.py', message: expect.stringContaining('the only file of that name') });
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('dir/file3.py')).toBe('def f():\n    return 3\n');
    } finally {
      await flint.close();
    }
  });

  it('is refused when several files have that name, listing them', async () => {
    const flint = await boardOnDisk({ 'a/util.py': 'x = 1\n', 'b/util.py': 'x = 1\n' });
    try {
      await flint.stream(patch('*** Update File: util.py', '-x = 1', '+x = 2'));
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'refused', message: expect.stringMatching(/any of 2 files \(a\/util\.py, b\/util\.py\).*will not guess/) });
      expect(await flint.read('a/util.py')).toBe('x = 1\n');
    } finally {
      await flint.close();
    }
  });

  it('never resolves a name the model gives a new file', async () => {
    const flint = await boardOnDisk({ 'dir/new.ts': 'old\n' });
    try {
      await flint.stream(patch('*** Add File: new.ts', '+fresh'));
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect(await flint.read('new.ts')).toBe('fresh\n');
      expect(await flint.read('dir/new.ts')).toBe('old\n');
    } finally {
      await flint.close();
    }
  });
});

describe('HunkBoard: the final newline', () => {
  it('keeps a file without a final newline without one, unless the patch adds one', async () => {
    const flint = await boardOnDisk({ 'a.txt': 'one\ntwo', 'b.txt': 'one\ntwo' });
    try {
      await flint.stream(patch('*** Update File: a.txt', '-two', '+TWO', '*** Update File: b.txt', '-two', '+two', '+'));
      expect(await flint.board.acceptAll()).toBe(2);
      expect(await flint.read('a.txt')).toBe('one\nTWO');
      // The patch's last line is an empty one: the file now ends with a newline.
      expect(await flint.read('b.txt')).toBe('one\ntwo\n');
    } finally {
      await flint.close();
    }
  });
});

describe('HunkBoard: Accept all', () => {
  it('writes each file once, in one journal step: one Undo takes back every file', async () => {
    const lines = Array.from({ length: 200 }, (_, index) => `line ${index}`);
    const flint = await boardOnDisk({ 'a.txt': `${lines.join('\n')}\n`, 'b.txt': 'b1\nb2\n' });
    try {
      const hunks = [10, 50, 51, 120, 199].map((at) => `@@\n-line ${at}\n+LINE ${at}`);
      await flint.stream(patch('*** Update File: a.txt', ...hunks, '*** Update File: b.txt', '-b2', '+B2'));
      expect([...flint.hunks.values()].every((hunk) => hunk.state === 'pending')).toBe(true);
      expect(await flint.board.acceptAll()).toBe(6);
      const expected = lines.map((line, index) => ([10, 50, 51, 120, 199].includes(index) ? line.toUpperCase() : line));
      expect(await flint.read('a.txt')).toBe(`${expected.join('\n')}\n`);
      expect(await flint.read('b.txt')).toBe('b1\nB2\n');
      expect(await flint.service.undo()).toMatchObject({ status: 'done', message: 'Undid the changes to 2 files (b.txt, a.txt).' });
      expect(await flint.read('a.txt')).toBe(`${lines.join('\n')}\n`);
      expect(await flint.read('b.txt')).toBe('b1\nb2\n');
      expect([...flint.hunks.values()].every((hunk) => hunk.state === 'pending')).toBe(true);
      expect((await flint.service.undo()).status).toBe('empty');
      expect((await flint.service.redo()).status).toBe('done');
      expect(await flint.read('b.txt')).toBe('b1\nB2\n');
      expect([...flint.hunks.values()].every((hunk) => hunk.state === 'accepted')).toBe(true);
    } finally {
      await flint.close();
    }
  });

  it('lands a hunk that overlaps an earlier one as a single accept after it would', async () => {
    const flint = await boardOnDisk({ 'a.txt': 'one\ntwo\nthree\n' });
    try {
      // The second hunk's old text is what the first writes: only in order does it apply.
      await flint.stream(patch('*** Update File: a.txt', '@@', ' one', '-two', '+TWO', '@@', '-two', '+2'));
      expect(flint.hunks.get('1.1')?.state).toBe('pending');
      expect(await flint.board.acceptAll()).toBe(1);
      expect(await flint.read('a.txt')).toBe('one\nTWO\nthree\n');
      // Its lines changed under it (by the first hunk, Flint's own write): a conflict, as when accepted one by one.
      expect(flint.hunks.get('1.1')).toMatchObject({ state: 'conflict', message: expect.stringContaining('Flint already wrote another change to these lines of a.txt') });
    } finally {
      await flint.close();
    }
  });
});
