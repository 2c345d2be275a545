/**
 * In a git project, nothing of Flint's ever shows in `git status`: at every step of every
 * write of an accept, an Accept all, an undo and a redo (sampled at each point where a save
 * could land, and by a poller running beside), git lists only the files being changed —
 * never a scratch file, never a kept copy.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HunkLine } from '../../shared/edits/edit-types';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { ProjectFiles } from '../fs/project-files';
import { EditApplier } from './edit-applier';
import { UndoJournal } from './undo-journal';

const run = promisify(execFile);
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
const remove = (text: string): HunkLine => ({ kind: 'remove', text });
const add = (text: string): HunkLine => ({ kind: 'add', text });

/** The paths `git status` names (untracked and ignored files included), as `XY path` lines. */
async function gitStatus(root: string): Promise<string[]> {
  const { stdout } = await run('git', ['-C', root, 'status', '--porcelain', '--untracked-files=all', '--ignored'], { env: GIT_ENV });
  return stdout.split('\n').filter(Boolean);
}

describe('git status during Flint’s writes', () => {
  let project: TempProject;
  let outside: TempProject;
  const seen: string[] = [];

  beforeEach(async () => {
    project = await createTempProject({ 'src/a.ts': 'const a = 1;\n', 'src/b.ts': 'const b = 2;\n', 'docs/c.md': 'c\n' });
    outside = await createTempProject();
    execFileSync('git', ['-C', project.root, 'init', '-q'], { env: GIT_ENV });
    execFileSync('git', ['-C', project.root, 'add', '-A'], { env: GIT_ENV });
    execFileSync('git', ['-C', project.root, 'commit', '-qm', 'start'], { env: GIT_ENV });
    seen.length = 0;
  });

  afterEach(async () => {
    await project.remove();
    await outside.remove();
  });

  it('lists only the files being written, at every step of an accept, an Accept all, an undo and a redo', async () => {
    const applier = new EditApplier(new ProjectFiles(project.root), await UndoJournal.open(join(outside.root, 'journal.jsonl')), undefined, {
      quietMs: 0,
      cacheFolder: join(outside.root, 'cache'),
      atStep: async () => void seen.push(...(await gitStatus(project.root))),
    });
    // A poller beside the writes: git status at whatever moments it lands on.
    let polling = true;
    const poller = (async () => {
      while (polling) seen.push(...(await gitStatus(project.root)));
    })();
    try {
      expect(await applier.applyHunk({ path: 'src/a.ts', lines: [remove('const a = 1;'), add('const a = 10;')], base: null })).toMatchObject({ status: 'applied' });
      const all = await applier.applyHunks([{ path: 'src/b.ts', lines: [remove('const b = 2;'), add('const b = 20;')], base: null }], 'accept-all');
      expect(all.results).toMatchObject([{ status: 'applied' }]);
      expect(await applier.createFile('src/new.ts', ['new'], 'accept-all-2')).toMatchObject({ status: 'applied' });
      expect(await applier.deleteFile('docs/c.md')).toMatchObject({ status: 'applied' });
      for (let step = 0; step < 4; step += 1) expect(await applier.undo()).toMatchObject({ status: 'done' });
      for (let step = 0; step < 4; step += 1) expect(await applier.redo()).toMatchObject({ status: 'done' });
      await applier.dispose();
    } finally {
      polling = false;
      await poller;
    }
    seen.push(...(await gitStatus(project.root)));
    const paths = new Set(seen.map((line) => line.slice(3)));
    expect([...paths].sort()).toEqual(['docs/c.md', 'src/a.ts', 'src/b.ts', 'src/new.ts']);
    expect(seen.filter((line) => line.startsWith('!!'))).toEqual([]);
  });
});
