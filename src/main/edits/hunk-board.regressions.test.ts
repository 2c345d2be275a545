/**
 * What a review of the edits rework found, pinned: accepts queued behind a write of the same
 * file, Accept all and the files an answer creates, journal groups another write
 * interrupted, bare names, lines that look like markers, the card after Undo, and the cost
 * of merging over the user's edits. Each failed before its fix.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LINEAR_WORK_BOUND, workGrowth } from '../../../test/helpers/work-growth';
import { boardOnDisk } from '../../../test/helpers/board-on-disk';
import { parseAnswer } from '../../../test/helpers/collect-answer';
import { versionOfText } from '../../../test/helpers/file-versions';
import { createTempProject, waitFor } from '../../../test/helpers/temp-project';
import { isHunkStreamEvent, type HunkLine } from '../../shared/edits/edit-types';
import { ProjectFiles } from '../fs/project-files';
import { EditApplier } from './edit-applier';
import { planHunk } from './hunk-plan';
import { EditService } from './edit-service';
import { ProjectSession } from '../project/project-session';
import { createMemoryLogger } from '../logger';
import { EditStreamParser } from '../../shared/edits/edit-stream-parser';
import type { HunkUpdate } from '../../shared/edits/hunk-types';
import { UndoJournal } from './undo-journal';

const patch = (...lines: string[]) => `*** Begin Patch\n${lines.join('\n')}\n*** End Patch\n`;
const remove = (text: string): HunkLine => ({ kind: 'remove', text });
const add = (text: string): HunkLine => ({ kind: 'add', text });

describe('HunkBoard: a bare name with an empty SEARCH', () => {
  it('is refused when another file has that name (a new root file, or lines for that one?), and touches neither', async () => {
    const flint = await boardOnDisk({ 'docs/Makefile': 'html:\n\tsphinx-build . _build\n' });
    try {
      await flint.stream('Adding a Makefile.\n\nMakefile\n```make\n<<<<<<< SEARCH\n=======\nall:\n\tnode build.js\n>>>>>>> REPLACE\n```\n');
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'refused', message: expect.stringContaining('will not guess') });
      expect(await flint.read('docs/Makefile')).toBe('html:\n\tsphinx-build . _build\n');
      expect(existsSync(flint.project.path('Makefile'))).toBe(false);
    } finally {
      await flint.close();
    }
  });
});

describe('HunkBoard: Accept all and a file the answer creates', () => {
  it('Accept all lands a block that edits the file an earlier block of the same answer creates', async () => {
    const flint = await boardOnDisk({ 'src/app.ts': 'x\n' });
    try {
      await flint.stream('new.txt\n<<<<<<< SEARCH\n=======\na\nb\n>>>>>>> REPLACE\n\nnew.txt\n<<<<<<< SEARCH\nb\n=======\nB\n>>>>>>> REPLACE\n');
      // The second card says "new.txt does not exist (any more)." until the first is accepted.
      expect(await flint.board.acceptAll()).toBe(2);
      expect(await flint.read('new.txt')).toBe('a\nB\n');
    } finally {
      await flint.close();
    }
  });
});

describe('HunkBoard: accepts queued behind a write of the same file', () => {
  it('a hunk accepted while its neighbour is still being written lands, as it does a moment later', async () => {
    const flint = await boardOnDisk({ 'a.txt': 'one\ntwo\nthree\n' });
    try {
      await flint.stream(patch('*** Update File: a.txt', '@@', '-one', '+ONE', '@@', '-two', '+TWO'));
      const first = flint.board.accept('1.0');
      const second = flint.board.accept('1.1');
      expect(await first).toBe('accepted');
      expect(await second).toBe('accepted');
      expect(await flint.read('a.txt')).toBe('ONE\nTWO\nthree\n');
    } finally {
      await flint.close();
    }
  });

  it('Accept all right after a single accept lands the neighbouring hunk', async () => {
    const flint = await boardOnDisk({ 'a.txt': 'one\ntwo\nthree\n' });
    try {
      await flint.stream(patch('*** Update File: a.txt', '@@', '-one', '+ONE', '@@', '-two', '+TWO'));
      const first = flint.board.accept('1.0');
      const all = flint.board.acceptAll();
      await first;
      expect(await all).toBe(1);
      expect(flint.hunks.get('1.1')?.state).toBe('accepted');
    } finally {
      await flint.close();
    }
  });
});

describe('Undo and Redo: a group another write interrupted', () => {
  it('redo replays interleaved writes in the order they were made', async () => {
    const project = await createTempProject({ 'a.txt': 'a\n', 'b.txt': 'one\ntwo\n' });
    const journalFolder = await mkdtemp(join(tmpdir(), 'flint-review-'));
    try {
      const applier = new EditApplier(new ProjectFiles(project.root), await UndoJournal.open(join(journalFolder, 'j.jsonl')));
      // Accept all writes a.txt (group G); a single accept writes b.txt (its own step) before Accept all reaches b.txt.
      await applier.applyHunks([{ path: 'a.txt', lines: [remove('a'), add('A')], base: null }], 'G');
      await applier.applyHunks([{ path: 'b.txt', lines: [remove('one'), add('ONE')], base: null }]);
      await applier.applyHunks([{ path: 'b.txt', lines: [remove('two'), add('TWO')], base: null }], 'G');
      expect((await applier.undo()).status).toBe('done');
      expect((await applier.undo()).status).toBe('done');
      expect(await readFile(project.path('b.txt'), 'utf8')).toBe('one\ntwo\n');
      const redo = await applier.redo();
      expect(redo.status).toBe('done');
    } finally {
      await project.remove();
      await rm(journalFolder, { recursive: true, force: true });
    }
  });
});

describe('Undo: an Accept all another write interrupted', () => {
  it('one Undo of an Accept all does not stop at a file a single accept wrote between its writes', async () => {
    const project = await createTempProject({ 'a.txt': 'one\ntwo\n', 'b.txt': 'b\n' });
    const journalFolder = await mkdtemp(join(tmpdir(), 'flint-review-'));
    try {
      const applier = new EditApplier(new ProjectFiles(project.root), await UndoJournal.open(join(journalFolder, 'j.jsonl')));
      await applier.applyHunks([{ path: 'a.txt', lines: [remove('one'), add('ONE')], base: null }], 'G');
      await applier.applyHunks([{ path: 'a.txt', lines: [remove('two'), add('TWO')], base: null }]);
      await applier.applyHunks([{ path: 'b.txt', lines: [remove('b'), add('B')], base: null }], 'G');
      const undo = await applier.undo();
      expect(undo).toMatchObject({ status: 'done' });
    } finally {
      await project.remove();
      await rm(journalFolder, { recursive: true, force: true });
    }
  });
});

describe('planning over the user’s edits at scale (work counted, never timed)', () => {
  const numbered = (count: number): string[] => Array.from({ length: count }, (_, index) => `const value${index} = ${index};`);

  it('merges a hunk next to a line the user changed over that stretch only, not the whole file', async () => {
    const run = (size: number) => {
      const lines = numbered(size);
      const base = versionOfText(lines.join('\n'));
      const at = size >> 1;
      const saved = versionOfText(lines.map((line, index) => (index === at + 1 || index === 0 || index === size - 1 ? `${line} // mine` : line)).join('\n'));
      return planHunk(saved, { path: 'f', lines: [remove(lines[at]!), add('const replaced = 0;')], base }, 'f').status;
    };
    expect(run(100)).toBe('conflict');
    expect(await workGrowth(run, 2_000)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });
});

describe('the parser on lines that look like markers', () => {
  it('a context line holding "*** End Patch" (one space: the V4A context prefix) does not cut the hunk in half silently', () => {
    const answer = parseAnswer(patch('*** Update File: docs/v4a.md', '@@', '-first', '+FIRST', ' *** End Patch', '-last', '+LAST'));
    const lines = answer.files[0]!.hunks.flatMap((hunk) => hunk.lines);
    const hasLast = lines.some((line) => line.text === 'LAST');
    // Either the whole hunk, or a problem saying part of it was not read.
    expect(hasLast || answer.problems.length > 0).toBe(true);
  });

  it('a one-word bold label before a block is not taken for its file', () => {
    const answer = parseAnswer('src/a.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\n**Also**\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE\n');
    expect(answer.files.map((file) => file.path)).toEqual(['src/a.py']);
  });
});

describe('a bare name that exists as written', () => {
  it('a root file that is a symlink is taken as written, not swapped for another file of that name', async () => {
    const project = await createTempProject({ 'build/Makefile.linux': 'all:\n\tmake -C src\n', 'docs/Makefile': 'all:\n\tsphinx-build . _build\n' });
    await symlink('build/Makefile.linux', project.path('Makefile'));
    const journalFolder = await mkdtemp(join(tmpdir(), 'flint-review-'));
    const session = new ProjectSession({ root: project.root, logger: createMemoryLogger() });
    await session.start();
    const service = await EditService.create({
      files: new ProjectFiles(project.root),
      journalFolder,
      logger: createMemoryLogger(),
      onWillWrite: () => undefined,
      names: { hasFile: (path) => session.hasFile(path), filesNamed: (name) => session.filesNamed(name) },
    });
    const hunks = new Map<string, HunkUpdate>();
    const board = service.openBoard((update) => hunks.set(update.id, update));
    try {
      const toBoard = board.beginTurn(1);
      const parser = new EditStreamParser((event) => {
        if (isHunkStreamEvent(event)) toBoard(event);
      });
      parser.push(patch('*** Update File: Makefile', '@@', '-all:', '+all: deps'));
      parser.finish(false);
      await waitFor(() => hunks.get('1.0')?.state !== 'streaming' && hunks.get('1.0'), 'the hunk to settle');
      if (hunks.get('1.0')?.state === 'pending') await board.accept('1.0');
      // The model named Makefile, which exists as written (a link to build/Makefile.linux).
      expect(await readFile(project.path('docs/Makefile'), 'utf8')).toBe('all:\n\tsphinx-build . _build\n');
      expect(hunks.get('1.0')?.path).toBe('Makefile');
    } finally {
      service.dispose();
      await service.finishWrites();
      await session.close();
      await project.remove();
      await rm(journalFolder, { recursive: true, force: true });
    }
  });
});

describe('the card after Undo', () => {
  it('an undone hunk keeps saying it was undone', async () => {
    const flint = await boardOnDisk({ 'a.txt': 'one\ntwo\nthree\n' });
    try {
      await flint.stream(patch('*** Update File: a.txt', '@@', '-one', '+ONE'));
      expect(await flint.board.accept('1.0')).toBe('accepted');
      expect((await flint.service.undo()).status).toBe('done');
      // noteJournalChange sets the message; EditService.noteRestored's replan then replaces it.
      expect(flint.hunks.get('1.0')).toMatchObject({ state: 'pending', message: 'Undone; you can accept it again.' });
    } finally {
      await flint.close();
    }
  });
});
