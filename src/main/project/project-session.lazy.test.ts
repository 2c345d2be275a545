/**
 * The session's side of the lazy tree: the top level shown before the rest is indexed,
 * folders listed on demand (from disk while the first scan runs, from the index after),
 * and the filter and `@` answered over the whole index. Real folders, the real scan.
 */
import { readdir, rm, symlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../shared/project-types';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createMemoryLogger } from '../logger';
import { ProjectSession } from './project-session';
import type { ScanFileSystem } from './tree-scanner';

const pathsOf = (entries: readonly TreeEntry[]): string[] => entries.map((entry) => entry.path).sort();

describe('ProjectSession, lazily', () => {
  let project: TempProject;
  let session: ProjectSession | undefined;

  beforeEach(async () => {
    project = await createTempProject({
      'src/app.ts': 'export const app = 1;\n',
      'src/util/strings.ts': 'export {};\n',
      'lib/.gitignore': 'secret.ts\n',
      'lib/secret.ts': 'x',
      'lib/open.ts': 'x',
      'README.md': '# demo\n',
      '.gitignore': 'dist/\n',
      'dist/bundle.js': 'built',
    });
  });

  afterEach(async () => {
    await session?.close();
    session = undefined;
    await project.remove();
  });

  it('shows the top level while the rest is indexed, and lists an opened folder from disk meanwhile, nested .gitignore applied', async () => {
    // The scan stops at src/util until released: the first index is still running.
    const held = Promise.withResolvers<void>();
    const fileSystem: ScanFileSystem = { readdir: async (path) => (path.endsWith('util') && (await held.promise), readdir(path, { withFileTypes: true })) };
    session = new ProjectSession({ root: project.root, logger: createMemoryLogger(), fileSystem });
    const shown: TreeEntry[][] = [];
    session.onDidShowTopLevel((entries) => shown.push(entries));
    const started = session.start();
    await waitFor(() => shown.length === 1, 'the top level');

    expect(pathsOf(shown[0]!)).toEqual(['.gitignore', 'README.md', 'dist', 'lib', 'src']);
    expect(session.tree.isIndexed).toBe(false);
    expect(session.tree.entryCount).toBeNull();
    expect(pathsOf(session.tree.topLevel!)).toEqual(pathsOf(shown[0]!));
    const lib = await session.tree.list('lib');
    expect(lib.find((entry) => entry.path === 'lib/secret.ts')).toMatchObject({ ignored: true });
    expect(lib.find((entry) => entry.path === 'lib/open.ts')?.ignored).toBeUndefined();
    await expect(session.tree.list('README.md')).rejects.toMatchObject({ code: 'not-a-directory' });
    // Nothing is searched before the index is whole, and that is said.
    expect(session.tree.findFiles('app', false, 10)).toEqual({ entries: [], more: false, indexing: true });

    held.resolve();
    await started;
    expect(session.tree.isIndexed).toBe(true);
    expect(session.tree.entryCount).toBe(11);
    expect(shown).toHaveLength(1);
  });

  it('lists a folder from the index once it is built, and refuses what is not a folder of the project', async () => {
    session = new ProjectSession({ root: project.root, logger: createMemoryLogger() });
    await session.start();
    expect(pathsOf(await session.tree.list('src'))).toEqual(['src/app.ts', 'src/util']);
    // A hidden folder is read from disk: the index does not go into it.
    expect(await session.tree.list('dist')).toEqual([{ path: 'dist/bundle.js', kind: 'file', ignored: true }]);
    await expect(session.tree.list('src/app.ts')).rejects.toMatchObject({ code: 'not-found' });
    await expect(session.tree.list('../outside')).rejects.toMatchObject({ code: 'outside-project' });
  });

  it('filters and offers files over the whole index, and follows it as files come and go', async () => {
    session = new ProjectSession({ root: project.root, logger: createMemoryLogger() });
    await session.start();
    await session.whenWatching();
    expect(pathsOf(session.tree.findFiles('STR', false, 10).entries)).toEqual(['src/util/strings.ts']);
    expect(session.tree.suggestFiles('strings')).toEqual(['src/util/strings.ts']);
    // Ignored files are offered to neither unless the filter asks for them.
    expect(session.tree.suggestFiles('secret')).toEqual([]);
    expect(pathsOf(session.tree.findFiles('secret', true, 10).entries)).toEqual(['lib/secret.ts']);

    await project.write({ 'src/util/strings2.ts': 'export {};\n' });
    await waitFor(() => session!.tree.suggestFiles('strings').length === 2, 'the new file offered');
    expect(session.tree.suggestFiles('strings')).toEqual(['src/util/strings.ts', 'src/util/strings2.ts']);
    expect(session.tree.entryCount).toBe(12);
  });

  it('lists a folder inside a hidden one from disk, and never lists through a link, before or after the index is whole', async () => {
    await project.write({ 'dist/assets/logo.svg': '<svg/>' });
    await symlink(project.path('src'), project.path('linked-src'));
    await symlink(project.path('src'), project.path('dist/linked'));
    const held = Promise.withResolvers<void>();
    const fileSystem: ScanFileSystem = { readdir: async (path) => (path.endsWith('util') && (await held.promise), readdir(path, { withFileTypes: true })) };
    session = new ProjectSession({ root: project.root, logger: createMemoryLogger(), fileSystem });
    const shown = Promise.withResolvers<void>();
    session.onDidShowTopLevel(() => shown.resolve());
    const started = session.start();
    await shown.promise;
    await expect(session.tree.list('linked-src')).rejects.toMatchObject({ code: 'not-a-directory', message: expect.stringContaining('link') });
    held.resolve();
    await started;
    expect(await session.tree.list('dist/assets')).toEqual([{ path: 'dist/assets/logo.svg', kind: 'file', ignored: true }]);
    await expect(session.tree.list('dist/linked')).rejects.toMatchObject({ code: 'not-a-directory' });
    await expect(session.tree.list('linked-src')).rejects.toMatchObject({ code: 'not-found' });
  });

  it('reports changes while the first index runs, and the scan’s older read of a folder never undoes them', async () => {
    // The scan reads src/util, then waits with that listing: what it read is old by the time it goes on.
    const read = Promise.withResolvers<void>();
    const held = Promise.withResolvers<void>();
    const fileSystem: ScanFileSystem = {
      readdir: async (path) => {
        const dirents = await readdir(path, { withFileTypes: true });
        if (path === project.path('src/util')) {
          read.resolve();
          await held.promise;
        }
        return dirents;
      },
    };
    session = new ProjectSession({ root: project.root, logger: createMemoryLogger(), fileSystem });
    const added: string[] = [];
    const removed: string[] = [];
    session.onDidChangeTree((changes) => {
      for (const change of changes) change.type === 'added' ? added.push(change.entry.path) : change.type === 'removed' && removed.push(change.path);
    });
    const started = session.start();
    await read.promise;

    // A folder read already (src), one whose read is held (src/util), and the root.
    await project.write({ 'src/during.ts': 'export {};\n', 'src/util/new.ts': 'export {};\n', 'ROOT.md': '#\n' });
    await rm(project.path('src/app.ts'));
    await rm(project.path('src/util/strings.ts'));
    await waitFor(() => ['src/during.ts', 'src/util/new.ts', 'ROOT.md'].every((path) => added.includes(path)) && removed.includes('src/app.ts'), 'the changes reported while the index is built');
    expect(session.tree.isIndexed).toBe(false);
    expect(session.hasFile('src/during.ts')).toBe(true);
    expect(session.hasFile('src/app.ts')).toBe(false);

    held.resolve();
    await started;
    await session.whenWatching();
    // The held read listed strings.ts and not new.ts: the watcher's newer word stands.
    expect(session.hasFile('src/util/strings.ts')).toBe(false);
    expect(session.hasFile('src/util/new.ts')).toBe(true);
    expect(pathsOf(await session.tree.list('src'))).toEqual(['src/during.ts', 'src/util']);
    expect(session.tree.entryCount).toBe(12);
  });
});
