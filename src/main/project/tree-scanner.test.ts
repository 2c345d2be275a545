import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import type { TreeEntry } from '../../shared/project-types';
import { FlintFailure } from '../../shared/result';
import { nodeScanFileSystem, scanProject, type ScanFileSystem } from './tree-scanner';

/** An error shaped like the one Node's fs raises when the OS refuses access. */
function accessDenied(path: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`EACCES: permission denied, scandir '${path}'`);
  error.code = 'EACCES';
  error.errno = -13;
  error.syscall = 'scandir';
  error.path = path;
  return error;
}

/** The real file system, except that reading any folder in `denied` fails with EACCES. */
function denyingFileSystem(denied: string[]): ScanFileSystem {
  return {
    readdir: async (path) => {
      if (denied.includes(path)) throw accessDenied(path);
      return nodeScanFileSystem.readdir(path);
    },
  };
}

const paths = (entries: TreeEntry[]): string[] => entries.map((entry) => entry.path).sort();
const find = (entries: TreeEntry[], path: string): TreeEntry | undefined => entries.find((entry) => entry.path === path);

describe('scanProject', () => {
  let project: TempProject;
  let outside: string | undefined;

  beforeEach(async () => {
    project = await createTempProject();
  });

  afterEach(async () => {
    await project.remove();
    if (outside) await rm(outside, { recursive: true, force: true });
    outside = undefined;
  });

  it('lists every file and folder with POSIX relative paths', async () => {
    await project.write({
      'README.md': '# demo\n',
      'src/app.ts': 'export {};\n',
      'src/util/strings.ts': 'export {};\n',
    });
    await mkdir(project.path('empty'));

    const { entries } = await scanProject({ root: project.root });

    expect(paths(entries)).toEqual(['README.md', 'empty', 'src', 'src/app.ts', 'src/util', 'src/util/strings.ts']);
    expect(find(entries, 'src')).toEqual({ path: 'src', kind: 'directory' });
    expect(find(entries, 'src/util/strings.ts')).toEqual({ path: 'src/util/strings.ts', kind: 'file' });
    expect(find(entries, 'empty')).toEqual({ path: 'empty', kind: 'directory' });
  });

  it('returns an empty list for an empty project', async () => {
    const { entries } = await scanProject({ root: project.root });
    expect(entries).toEqual([]);
  });

  it('lists a gitignored folder once, marked ignored and unlisted, with nothing beneath it', async () => {
    await project.write({
      '.gitignore': 'dist/\n',
      'dist/bundle.js': 'built',
      'dist/assets/logo.svg': '<svg/>',
      'src/app.ts': 'export {};\n',
    });

    const { entries } = await scanProject({ root: project.root });

    expect(entries.filter((entry) => entry.path === 'dist')).toEqual([
      { path: 'dist', kind: 'directory', ignored: true, unlisted: 'ignored' },
    ]);
    expect(entries.some((entry) => entry.path.startsWith('dist/'))).toBe(false);
    expect(find(entries, 'src/app.ts')?.ignored).toBeUndefined();
  });

  it('lists node_modules and .git once each, unlisted, without descending', async () => {
    await project.write({
      'node_modules/react/index.js': 'module.exports = {};',
      'packages/web/node_modules/vite/index.js': '',
      '.git/HEAD': 'ref: refs/heads/main\n',
      'index.js': '',
    });

    const { entries } = await scanProject({ root: project.root });

    expect(find(entries, 'node_modules')).toEqual({ path: 'node_modules', kind: 'directory', ignored: true, unlisted: 'ignored' });
    expect(find(entries, '.git')).toEqual({ path: '.git', kind: 'directory', ignored: true, unlisted: 'ignored' });
    expect(find(entries, 'packages/web/node_modules')).toMatchObject({ ignored: true, unlisted: 'ignored' });
    expect(entries.some((entry) => entry.path.includes('node_modules/'))).toBe(false);
    expect(entries.some((entry) => entry.path.startsWith('.git/'))).toBe(false);
  });

  it('flags an ignored file but still lists it', async () => {
    await project.write({ '.gitignore': '*.log\n', 'debug.log': 'x', 'src/trace.log': 'y', 'src/app.ts': '' });

    const { entries } = await scanProject({ root: project.root });

    expect(find(entries, 'debug.log')).toEqual({ path: 'debug.log', kind: 'file', ignored: true });
    expect(find(entries, 'src/trace.log')).toEqual({ path: 'src/trace.log', kind: 'file', ignored: true });
    expect(find(entries, 'src/app.ts')).toEqual({ path: 'src/app.ts', kind: 'file' });
  });

  it('honours .git/info/exclude', async () => {
    await project.write({
      '.git/info/exclude': '# local only\nscratch.txt\n',
      'scratch.txt': 'notes',
      'kept.txt': 'kept',
    });

    const { entries } = await scanProject({ root: project.root });

    expect(find(entries, 'scratch.txt')?.ignored).toBe(true);
    expect(find(entries, 'kept.txt')?.ignored).toBeUndefined();
  });

  it('lets the root .gitignore override .git/info/exclude', async () => {
    await project.write({
      '.git/info/exclude': '*.txt\n',
      '.gitignore': '!wanted.txt\n',
      'wanted.txt': '',
      'unwanted.txt': '',
    });

    const { entries } = await scanProject({ root: project.root });

    expect(find(entries, 'wanted.txt')?.ignored).toBeUndefined();
    expect(find(entries, 'unwanted.txt')?.ignored).toBe(true);
  });

  it('applies a nested .gitignore only below its own folder', async () => {
    await project.write({
      'pkg/.gitignore': '*.tmp\ncache/\n',
      'pkg/a.tmp': '',
      'pkg/deep/b.tmp': '',
      'pkg/cache/x': '',
      'top.tmp': '',
      'other/c.tmp': '',
      'other/cache/y': '',
    });

    const { entries } = await scanProject({ root: project.root });

    expect(find(entries, 'pkg/a.tmp')?.ignored).toBe(true);
    expect(find(entries, 'pkg/deep/b.tmp')?.ignored).toBe(true);
    expect(find(entries, 'pkg/cache')).toMatchObject({ ignored: true, unlisted: 'ignored' });
    expect(find(entries, 'pkg/cache/x')).toBeUndefined();
    expect(find(entries, 'top.tmp')?.ignored).toBeUndefined();
    expect(find(entries, 'other/c.tmp')?.ignored).toBeUndefined();
    expect(find(entries, 'other/cache')?.unlisted).toBeUndefined();
    expect(find(entries, 'other/cache/y')).toBeDefined();
  });

  it('lets a nested .gitignore negation re-include a file the root ignores', async () => {
    await project.write({ '.gitignore': '*.log\n', 'logs/.gitignore': '!keep.log\n', 'logs/keep.log': '', 'logs/drop.log': '' });

    const { entries } = await scanProject({ root: project.root });

    expect(find(entries, 'logs/keep.log')?.ignored).toBeUndefined();
    expect(find(entries, 'logs/drop.log')?.ignored).toBe(true);
  });

  it('returns the rules it read, for later use by the watcher', async () => {
    await project.write({ '.gitignore': 'dist/\n', 'pkg/.gitignore': '*.tmp\n', 'pkg/a.ts': '' });

    const { rules } = await scanProject({ root: project.root });

    expect(rules.isIgnored('dist', true)).toBe(true);
    expect(rules.isIgnored('pkg/new.tmp', false)).toBe(true);
    expect(rules.isIgnored('new.tmp', false)).toBe(false);
  });

  it('lists a symlink that points outside the root as escaping, and never descends into it', async () => {
    outside = await realpath(await mkdtemp(join(tmpdir(), 'flint-outside-')));
    await mkdir(join(outside, 'inner'));
    await project.write({ 'src/app.ts': '' });
    await symlink(outside, project.path('external'));

    const { entries } = await scanProject({ root: project.root });

    expect(find(entries, 'external')).toEqual({
      path: 'external',
      kind: 'symlink',
      symlink: { target: outside, escapes: true, targetKind: 'directory' },
    });
    expect(entries.some((entry) => entry.path.startsWith('external/'))).toBe(false);
  });

  it('describes a symlink to a file inside the root without escaping', async () => {
    await project.write({ 'src/app.ts': '' });
    await symlink('src/app.ts', project.path('app-link.ts'));

    const { entries } = await scanProject({ root: project.root });

    expect(find(entries, 'app-link.ts')).toEqual({
      path: 'app-link.ts',
      kind: 'symlink',
      symlink: { target: 'src/app.ts', escapes: false, targetKind: 'file' },
    });
  });

  it('terminates on symlink loops, reporting a cycle as a loop and not following links', async () => {
    await project.write({ 'sub/file.txt': '' });
    await symlink('b', project.path('a'));
    await symlink('a', project.path('b'));
    await symlink('self', project.path('self'));
    await symlink('..', project.path('sub/up'));

    const { entries } = await scanProject({ root: project.root });

    expect(find(entries, 'a')?.symlink).toEqual({ target: 'b', escapes: false, targetKind: 'loop' });
    expect(find(entries, 'b')?.symlink).toEqual({ target: 'a', escapes: false, targetKind: 'loop' });
    expect(find(entries, 'self')?.symlink?.targetKind).toBe('loop');
    const up = find(entries, 'sub/up');
    expect(up?.kind).toBe('symlink');
    expect(up?.symlink).toEqual({ target: '..', escapes: false, targetKind: 'directory' });
    expect(entries.some((entry) => entry.path.startsWith('sub/up/'))).toBe(false);
    expect(paths(entries)).toEqual(['a', 'b', 'self', 'sub', 'sub/file.txt', 'sub/up']);
  });

  it("describes a dangling symlink as 'missing'", async () => {
    await symlink('nowhere.txt', project.path('dangling'));
    await symlink('../../definitely-not-here', project.path('dangling-out'));

    const { entries } = await scanProject({ root: project.root });

    expect(find(entries, 'dangling')?.symlink).toEqual({ target: 'nowhere.txt', escapes: false, targetKind: 'missing' });
    expect(find(entries, 'dangling-out')?.symlink).toEqual({
      target: '../../definitely-not-here',
      escapes: true,
      targetKind: 'missing',
    });
  });

  it("marks a folder it may not read as unlisted 'permission-denied' and scans the rest", async () => {
    await project.write({
      'private/secret.txt': '',
      'private/nested/deeper.txt': '',
      'public/readme.md': '',
      'top.txt': '',
    });

    const { entries } = await scanProject({
      root: project.root,
      fileSystem: denyingFileSystem([project.path('private')]),
    });

    expect(find(entries, 'private')).toEqual({ path: 'private', kind: 'directory', unlisted: 'permission-denied' });
    expect(entries.some((entry) => entry.path.startsWith('private/'))).toBe(false);
    expect(paths(entries)).toEqual(['private', 'public', 'public/readme.md', 'top.txt']);
  });

  it("marks a folder whose listing fails for another reason as unlisted 'error'", async () => {
    await project.write({ 'flaky/a.txt': '', 'ok/b.txt': '' });
    const flaky = project.path('flaky');
    const fileSystem: ScanFileSystem = {
      readdir: async (path) => {
        if (path === flaky) throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
        return nodeScanFileSystem.readdir(path);
      },
    };

    const { entries } = await scanProject({ root: project.root, fileSystem });

    expect(find(entries, 'flaky')?.unlisted).toBe('error');
    expect(find(entries, 'ok/b.txt')).toBeDefined();
  });

  it("fails with 'permission-denied' when the root itself cannot be read", async () => {
    await project.write({ 'a.txt': '' });

    const scan = scanProject({ root: project.root, fileSystem: denyingFileSystem([project.root]) });

    await expect(scan).rejects.toBeInstanceOf(FlintFailure);
    await expect(scan).rejects.toMatchObject({ code: 'permission-denied' });
  });

  it("fails with 'not-found' when the root does not exist", async () => {
    await expect(scanProject({ root: project.path('gone') })).rejects.toMatchObject({ code: 'not-found' });
  });

  it('reports progress, ending with the final number of entries', async () => {
    const files: Record<string, string> = {};
    for (let folder = 0; folder < 20; folder += 1) {
      for (let file = 0; file < 5; file += 1) files[`f${folder}/n${file}.txt`] = '';
    }
    await project.write(files);
    const counts: number[] = [];

    const { entries } = await scanProject({ root: project.root, onProgress: (count) => counts.push(count), progressIntervalMs: 0 });

    expect(entries).toHaveLength(120);
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.at(-1)).toBe(entries.length);
    for (let index = 1; index < counts.length; index += 1) expect(counts[index]).toBeGreaterThanOrEqual(counts[index - 1]!);
  });

  it('stops reading folders once cancelled (a project closed while its scan runs), keeping what it found', async () => {
    const files: Record<string, string> = {};
    for (let folder = 0; folder < 40; folder += 1) files[`f${folder}/deep/n.txt`] = '';
    await project.write(files);
    let reads = 0;
    const counting: ScanFileSystem = { readdir: (path) => ((reads += 1), nodeScanFileSystem.readdir(path)) };

    const { entries } = await scanProject({ root: project.root, fileSystem: counting, isCancelled: () => reads >= 3 });

    // The root and at most the reads already under way (16 at once), of 81 folders.
    expect(reads).toBeLessThanOrEqual(3 + 16);
    expect(entries.length).toBeLessThan(120);
    expect(entries.length).toBeGreaterThanOrEqual(40);
  });

  it('reports a final progress count of zero for an empty project', async () => {
    const counts: number[] = [];
    await scanProject({ root: project.root, onProgress: (count) => counts.push(count) });
    expect(counts.at(-1)).toBe(0);
  });
});
