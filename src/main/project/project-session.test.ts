import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TreeChange, TreeEntry } from '../../shared/project-types';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createMemoryLogger } from '../logger';
import { ProjectSession } from './project-session';

/** A session over a real folder with a real watcher, and everything it reported. */
async function openSession(project: TempProject) {
  const session = new ProjectSession({ root: project.root, logger: createMemoryLogger(), livenessIntervalMs: 50 });
  const seen = { trees: [] as TreeEntry[][], changes: [] as TreeChange[], saves: [] as string[], lost: [] as string[] };
  session.onDidLoadTree((entries) => seen.trees.push(entries));
  session.onDidChangeTree((changes) => seen.changes.push(...changes));
  session.onDidSaveFile((save) => seen.saves.push(save.path));
  session.onDidLoseRoot((message) => seen.lost.push(message));
  await session.start();
  // The watcher reconciles once it covers every folder: from then on saves are seen as they happen.
  await session.whenWatching();
  return { session, seen };
}

const added = (changes: TreeChange[], path: string) => changes.find((c) => c.type === 'added' && c.entry.path === path);
const removed = (changes: TreeChange[], path: string) => changes.find((c) => c.type === 'removed' && c.path === path);

describe('ProjectSession', () => {
  let project: TempProject;
  let session: ProjectSession | undefined;

  beforeEach(async () => {
    project = await createTempProject({
      'src/app.ts': 'export const app = 1;\n',
      'src/util/strings.ts': 'export {};\n',
      'README.md': '# demo\n',
      '.gitignore': 'dist/\n*.log\n',
      'dist/bundle.js': 'built',
    });
  });

  afterEach(async () => {
    await session?.close();
    session = undefined;
    await project.remove();
  });

  it('loads the full tree on start, with hidden folders listed once and unlisted', async () => {
    const opened = await openSession(project);
    session = opened.session;
    const paths = opened.seen.trees[0]!.map((entry) => entry.path).sort();
    expect(paths).toEqual(['.gitignore', 'README.md', 'dist', 'src', 'src/app.ts', 'src/util', 'src/util/strings.ts']);
    expect(session.entries?.find((entry) => entry.path === 'dist')).toMatchObject({ ignored: true, unlisted: 'ignored' });
  });

  it('finds files by name, links included, and keeps that up to date as files come and go', async () => {
    const opened = await openSession(project);
    session = opened.session;
    expect(session.filesNamed('app.ts')).toEqual(['src/app.ts']);
    expect(session.hasFile('src/app.ts')).toBe(true);
    expect(session.hasFile('src')).toBe(false);
    await project.write({ 'lib/app.ts': 'export {};\n' });
    await symlink('src/app.ts', project.path('linked.ts'));
    await waitFor(() => session!.filesNamed('app.ts').length === 2 && session!.hasFile('linked.ts'), 'the new file and link');
    await rm(project.path('src'), { recursive: true });
    await waitFor(() => session!.filesNamed('app.ts').length === 1, 'the removed folder');
    expect(session.filesNamed('app.ts')).toEqual(['lib/app.ts']);
    expect(session.filesNamed('strings.ts')).toEqual([]);
  });

  it('reports files added, modified and removed by another program', async () => {
    const opened = await openSession(project);
    session = opened.session;
    const { seen } = opened;

    await project.write({ 'src/new.ts': 'export const fresh = true;\n' });
    await waitFor(() => added(seen.changes, 'src/new.ts'), 'the new file');

    await writeFile(project.path('src/app.ts'), 'export const app = 2;\n');
    await waitFor(() => seen.changes.find((c) => c.type === 'modified' && c.path === 'src/app.ts'), 'the modification');

    await rm(project.path('README.md'));
    await waitFor(() => removed(seen.changes, 'README.md'), 'the removal');
    expect(session.entries?.some((entry) => entry.path === 'README.md')).toBe(false);
  });

  it('reports a renamed folder as the old path removed and the new subtree added', async () => {
    const opened = await openSession(project);
    session = opened.session;
    const { seen } = opened;

    await rename(project.path('src/util'), project.path('src/helpers'));
    await waitFor(() => removed(seen.changes, 'src/util'), 'the old folder removed');
    await waitFor(() => added(seen.changes, 'src/helpers/strings.ts'), 'the moved file added');
    const paths = session.entries!.map((entry) => entry.path);
    expect(paths).toContain('src/helpers');
    expect(paths.some((path) => path.startsWith('src/util'))).toBe(false);
  });

  it('treats writes to visible files as saves, but not writes to hidden or editor temporary files', async () => {
    const opened = await openSession(project);
    session = opened.session;
    const { seen } = opened;

    await project.write({ 'debug.log': 'noise', 'src/.app.ts.swp': 'vim', 'src/app.ts': 'export const app = 3;\n' });
    await waitFor(() => seen.saves.includes('src/app.ts'), 'the save of src/app.ts');
    await waitFor(() => added(seen.changes, 'debug.log'), 'the log file to be listed');
    expect(seen.saves).not.toContain('debug.log');
    expect(seen.saves).not.toContain('src/.app.ts.swp');
  });

  it('does not watch inside hidden folders', async () => {
    const opened = await openSession(project);
    session = opened.session;
    const { seen } = opened;

    await project.write({ 'dist/chunk.js': 'built again', 'src/marker.ts': '' });
    await waitFor(() => added(seen.changes, 'src/marker.ts'), 'the marker file');
    expect(seen.changes.some((c) => c.type === 'added' && c.entry.path.startsWith('dist/'))).toBe(false);
  });

  it('reloads the tree when a .gitignore changes, hiding what it now excludes', async () => {
    const opened = await openSession(project);
    session = opened.session;
    const { seen } = opened;

    await writeFile(project.path('.gitignore'), 'dist/\n*.log\nsrc/util/\n');
    await waitFor(() => seen.trees.length >= 2, 'a reloaded tree');
    const util = seen.trees.at(-1)!.find((entry) => entry.path === 'src/util');
    expect(util).toMatchObject({ ignored: true, unlisted: 'ignored' });
    expect(seen.trees.at(-1)!.some((entry) => entry.path === 'src/util/strings.ts')).toBe(false);
  });

  it('lists symlinks without following them, including loops and links out of the project', async () => {
    await symlink('/etc', project.path('etc-link'));
    await symlink(project.root, project.path('src/loop'));
    const opened = await openSession(project);
    session = opened.session;
    const entries = session.entries!;
    expect(entries.find((entry) => entry.path === 'etc-link')).toMatchObject({ kind: 'symlink', symlink: { escapes: true } });
    expect(entries.find((entry) => entry.path === 'src/loop')).toMatchObject({ kind: 'symlink', symlink: { escapes: false } });
    expect(entries.some((entry) => entry.path.startsWith('etc-link/') || entry.path.startsWith('src/loop/'))).toBe(false);
  });

  it('lists a hidden folder on demand, flagged hidden', async () => {
    const opened = await openSession(project);
    session = opened.session;
    const listed = await session.tree.list('dist');
    expect(listed).toEqual([{ path: 'dist/bundle.js', kind: 'file', ignored: true }]);
    await expect(session.tree.list('../etc')).rejects.toMatchObject({ code: 'outside-project' });
  });

  it('reports the root as lost when the folder is deleted while open', async () => {
    const opened = await openSession(project);
    session = opened.session;
    await rm(project.root, { recursive: true, force: true });
    const [message] = await waitFor(() => opened.seen.lost.length > 0 && opened.seen.lost, 'the root to be lost');
    expect(message).toContain('was deleted or moved');
  });

  it('reports the root as lost when the folder is renamed while open', async () => {
    const opened = await openSession(project);
    session = opened.session;
    const movedTo = `${project.root}-moved`;
    await rename(project.root, movedTo);
    try {
      await waitFor(() => opened.seen.lost.length > 0, 'the root to be lost');
    } finally {
      await rm(movedTo, { recursive: true, force: true });
    }
  });

  it('releases every watch handle when closed', async () => {
    await mkdir(project.path('deep/a/b/c'), { recursive: true });
    const before = countWatchHandles();
    const opened = await openSession(project);
    expect(countWatchHandles()).toBeGreaterThan(before);
    await opened.session.close();
    // Handle teardown completes on a later turn of the event loop (later still on a busy machine).
    await waitFor(() => countWatchHandles() === before, 'every watch handle to be released');
    expect(countWatchHandles()).toBe(before);
  });
});

function countWatchHandles(): number {
  return process.getActiveResourcesInfo().filter((name) => name === 'FSEventWrap').length;
}
