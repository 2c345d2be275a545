/**
 * Where a write's scratch files go: never into the user's project, always on the same
 * device as the file (a rename needs it), in the order scratch-area.ts gives.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { isScratchName } from './captured-file';
import { ProjectFileWriter, type WriteStep } from './project-file-writer';
import { FALLBACK_FOLDER } from './scratch-area';

/** A folder on another device than the temp folder (tmpfs), where this machine has one. */
const OTHER_DEVICE = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev ? '/dev/shm' : null;

const git = (root: string, ...args: string[]) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } });

/** Every scratch file (by name) under `folder`, recursively. */
async function scratchFilesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile() && isScratchName(entry.name)).map((entry) => join(entry.parentPath, entry.name));
}

describe('the scratch area', () => {
  let project: TempProject;
  let cache: string;

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': 'one\n', 'README.md': 'read me\n' });
    cache = await mkdtemp(join(tmpdir(), 'flint-area-cache-'));
  });

  afterEach(async () => {
    await project.remove();
    await rm(cache, { recursive: true, force: true });
  });

  it('keeps every scratch file in the repository’s git folder: git status lists nothing of Flint’s at any step of a write, a create or a delete', async () => {
    git(project.root, 'init', '-q');
    git(project.root, 'add', '-A');
    git(project.root, 'commit', '-qm', 'start');
    const seen: string[] = [];
    const inGit: string[] = [];
    const atStep = async (step: WriteStep): Promise<void> => {
      seen.push(...git(project.root, 'status', '--porcelain', '--untracked-files=all', '--ignored').split('\n').filter(Boolean).map((line) => `${step}: ${line}`));
      inGit.push(...(await scratchFilesIn(join(project.root, '.git', 'flint'))));
    };
    const writer = new ProjectFileWriter(project.root, { quietMs: 0, cacheFolder: cache, atStep });
    expect(await writer.replace('src/app.ts', Buffer.from('one\n'), Buffer.from('two\n'), 0o644)).toEqual({ status: 'written' });
    expect(await writer.replace('src/new.ts', null, Buffer.from('new\n'), 0o644)).toEqual({ status: 'written' });
    expect(await writer.replace('README.md', Buffer.from('read me\n'), null, 0o644)).toEqual({ status: 'written' });
    await writer.dispose();
    // Only the files written, as git sees any edit: never a scratch file, never anything ignored.
    const paths = new Set(seen.map((line) => line.slice(line.indexOf(': ') + 5)));
    expect([...paths].sort()).toEqual(['README.md', 'src/app.ts', 'src/new.ts']);
    expect(seen.filter((line) => line.includes('!!') || line.includes('flint'))).toEqual([]);
    // They were in .git/flint (the temp file and the capture, at every step), and are gone now.
    expect(inGit.length).toBeGreaterThan(0);
    expect(await scratchFilesIn(join(project.root, '.git', 'flint'))).toEqual([]);
    expect(await scratchFilesIn(cache)).toEqual([]);
  });

  it('uses the git folder a worktree’s .git file points to', async () => {
    const gitDir = await realpath(await mkdtemp(join(tmpdir(), 'flint-gitdir-')));
    try {
      await writeFile(project.path('.git'), `gitdir: ${gitDir}\n`);
      const inGitDir: string[] = [];
      const writer = new ProjectFileWriter(project.root, { quietMs: 0, cacheFolder: cache, atStep: async () => void inGitDir.push(...(await scratchFilesIn(gitDir))) });
      expect(await writer.replace('src/app.ts', Buffer.from('one\n'), Buffer.from('two\n'), 0o644)).toEqual({ status: 'written' });
      await writer.dispose();
      expect(inGitDir.length).toBeGreaterThan(0);
      expect(inGitDir.every((path) => path.startsWith(join(gitDir, 'flint')))).toBe(true);
    } finally {
      await rm(gitDir, { recursive: true, force: true });
    }
  });

  it('uses Flint’s cache folder when the project has no git folder, and leaves nothing in the project', async () => {
    const inCache: string[] = [];
    const writer = new ProjectFileWriter(project.root, { quietMs: 0, cacheFolder: cache, atStep: async () => void inCache.push(...(await scratchFilesIn(cache))) });
    expect(await writer.replace('src/app.ts', Buffer.from('one\n'), Buffer.from('two\n'), 0o644)).toEqual({ status: 'written' });
    // Private to the user.
    const [area] = await readdir(cache);
    expect(statSync(join(cache, area!)).mode & 0o077).toBe(0);
    await writer.dispose();
    expect(inCache.length).toBeGreaterThan(0);
    expect(await readdir(project.path('src'))).toEqual(['app.ts']);
    expect(await readdir(project.root)).toEqual(['README.md', 'src']);
    expect(await readdir(cache)).toEqual([]);
  });

  it.runIf(OTHER_DEVICE !== null)('falls back to the user’s private temp folder when the cache is on another device, and refuses one others may write', async () => {
    const otherDevice = await mkdtemp(join(OTHER_DEVICE!, 'flint-cache-'));
    const temp = await mkdtemp(join(tmpdir(), 'flint-tempfolder-'));
    try {
      const inTemp: string[] = [];
      const writer = new ProjectFileWriter(project.root, { quietMs: 0, cacheFolder: otherDevice, tempFolder: temp, atStep: async () => void inTemp.push(...(await scratchFilesIn(temp))) });
      expect(await writer.replace('src/app.ts', Buffer.from('one\n'), Buffer.from('two\n'), 0o644)).toEqual({ status: 'written' });
      expect(inTemp.length).toBeGreaterThan(0);
      expect(await scratchFilesIn(otherDevice)).toEqual([]);
      // Its folders go when the writer closes: nothing of Flint's stays behind.
      const own = join(temp, (await readdir(temp))[0]!);
      expect((await readdir(own)).length).toBe(1);
      await writer.dispose();
      expect(await readdir(own)).toEqual([]);

      // A temp folder of that name that anyone may write into (another user could plant links there) is not used.
      await chmod(own, 0o777);
      const inProject: string[] = [];
      const next = new ProjectFileWriter(project.root, { quietMs: 0, cacheFolder: otherDevice, tempFolder: temp, atStep: async () => void inProject.push(...(await scratchFilesIn(join(project.root, FALLBACK_FOLDER)))) });
      expect(await next.replace('src/app.ts', Buffer.from('two\n'), Buffer.from('three\n'), 0o644)).toEqual({ status: 'written' });
      await next.dispose();
      expect(inProject.length).toBeGreaterThan(0);
    } finally {
      await rm(otherDevice, { recursive: true, force: true });
      await rm(temp, { recursive: true, force: true });
    }
  });

  it.runIf(OTHER_DEVICE !== null)('falls back to a hidden folder at the project root, ignored by git, when nothing else is on the project’s device', async () => {
    const root = await realpath(await mkdtemp(join(OTHER_DEVICE!, 'flint-project-')));
    try {
      await mkdir(join(root, 'src'));
      await writeFile(join(root, 'src', 'app.ts'), 'one\n');
      git(root, 'init', '-q');
      // The repository's own git folder is on the project's device: make it unusable as a folder (a file named .git/flint).
      await writeFile(join(root, '.git', 'flint'), 'not a folder');
      const writer = new ProjectFileWriter(root, { quietMs: 0, cacheFolder: cache, tempFolder: cache });
      expect(await writer.replace('src/app.ts', Buffer.from('one\n'), Buffer.from('two\n'), 0o644)).toEqual({ status: 'written' });
      await writer.dispose();
      expect(await readFile(join(root, FALLBACK_FOLDER, '.gitignore'), 'utf8')).toContain('\n*\n');
      expect(git(root, 'status', '--porcelain', '--untracked-files=all')).toBe('?? src/app.ts\n');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('never uses a candidate folder in sight inside the project (a home folder opened as one), only one below a hidden folder', async () => {
    const visible = project.path('Flint-cache');
    const writer = new ProjectFileWriter(project.root, { quietMs: 0, cacheFolder: visible, tempFolder: project.path('tmp') });
    expect(await writer.replace('src/app.ts', Buffer.from('one\n'), Buffer.from('two\n'), 0o644)).toEqual({ status: 'written' });
    await writer.dispose();
    expect(existsSync(visible)).toBe(false);
    expect(existsSync(project.path('tmp'))).toBe(false);
    const hidden: string[] = [];
    const below = new ProjectFileWriter(project.root, { quietMs: 0, cacheFolder: project.path('.cache/Flint/scratch'), atStep: async () => void hidden.push(...(await scratchFilesIn(project.path('.cache')))) });
    expect(await below.replace('src/app.ts', Buffer.from('two\n'), Buffer.from('three\n'), 0o644)).toEqual({ status: 'written' });
    await below.dispose();
    expect(hidden.length).toBeGreaterThan(0);
  });

  it('chooses its folder again when the one it used was removed meanwhile (a cleared cache)', async () => {
    const writer = new ProjectFileWriter(project.root, { quietMs: 0, cacheFolder: cache });
    expect(await writer.replace('src/app.ts', Buffer.from('one\n'), Buffer.from('two\n'), 0o644)).toEqual({ status: 'written' });
    await writer.dispose();
    await rm(cache, { recursive: true, force: true });
    expect(await writer.replace('src/app.ts', Buffer.from('two\n'), Buffer.from('three\n'), 0o644)).toEqual({ status: 'written' });
    await writer.dispose();
    expect(await readFile(project.path('src/app.ts'), 'utf8')).toBe('three\n');
  });

  it.runIf(OTHER_DEVICE !== null)('never follows a .flint-scratch link a cloned repository ships: the write is refused and nothing is written through it', async () => {
    const root = await realpath(await mkdtemp(join(OTHER_DEVICE!, 'flint-project-')));
    const elsewhere = await realpath(await mkdtemp(join(OTHER_DEVICE!, 'flint-elsewhere-')));
    try {
      await mkdir(join(root, 'src'));
      await writeFile(join(root, 'src', 'app.ts'), 'one\n');
      await symlink(elsewhere, join(root, FALLBACK_FOLDER));
      const writer = new ProjectFileWriter(root, { quietMs: 0, cacheFolder: cache, tempFolder: cache });
      await expect(writer.replace('src/app.ts', Buffer.from('one\n'), Buffer.from('two\n'), 0o644)).rejects.toThrow(/no folder for its scratch files/);
      expect(await readFile(join(root, 'src', 'app.ts'), 'utf8')).toBe('one\n');
      expect(await readdir(elsewhere)).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});
