/**
 * A file inside a hidden folder never becomes the current file: real folders, the real
 * watcher, writes the way tools make them (a cache folder and its `.gitignore` in one
 * burst). Each test ends with a save the user makes, so "nothing else became current" is
 * read after the watcher has reported everything written before it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createMemoryLogger } from '../logger';
import type { OpenProject } from './open-project';
import { Workspace } from './workspace';

describe('saves inside hidden folders', () => {
  let folder: TempProject;
  let config: string;
  let workspace: Workspace;
  let project: OpenProject;
  /** Every file that became current, in order. */
  let current: string[];

  /** The user saves `src/app.ts`; resolves once it is current, with every file that became current in the test. */
  const userSaves = async (text: string): Promise<string[]> => {
    await writeFile(folder.path('src/app.ts'), text);
    await waitFor(() => current.includes('src/app.ts'), 'the user’s save of src/app.ts');
    return current;
  };

  beforeEach(async () => {
    folder = await createTempProject({
      'src/app.ts': 'export const app = 1;\n',
      '.gitignore': 'dist/\n',
      'dist/bundle.js': 'built\n',
      'generated/api.ts': 'export {};\n',
      'node_modules/left-pad/index.js': 'module.exports = 1;\n',
      '.cache/tool/state.json': '{}\n',
    });
    config = await mkdtemp(join(tmpdir(), 'flint-ignored-saves-'));
    workspace = new Workspace({ journalFolder: join(config, 'journals'), logger: createMemoryLogger() });
    current = [];
    project = await workspace.open(folder.root);
    project.onDidChangeCurrentFile((file) => file.path !== null && current.push(file.path));
    await project.whenWatching();
  });

  afterEach(async () => {
    await workspace.close('closed', 'test over');
    workspace.dispose();
    await folder.remove();
    await rm(config, { recursive: true, force: true });
  });

  it('never makes a file in node_modules, .cache or a folder .gitignore excludes the current file', async () => {
    await writeFile(folder.path('node_modules/left-pad/index.js'), 'module.exports = 2;\n');
    await writeFile(folder.path('.cache/tool/state.json'), '{"runs":2}\n');
    await writeFile(folder.path('dist/bundle.js'), 'built again\n');
    expect(await userSaves('export const app = 2;\n')).toEqual(['src/app.ts']);
    expect(project.entries?.find((entry) => entry.path === '.cache')).toMatchObject({ ignored: true, unlisted: 'ignored' });
  });

  it('never makes a file of a cache folder the current file when the tool writes its .gitignore and its files in one burst', async () => {
    // What pytest, mypy and ruff do: the folder, a `.gitignore` of `*`, then the cache.
    await mkdir(folder.path('.pytest_cache/v/cache'), { recursive: true });
    await writeFile(folder.path('.pytest_cache/.gitignore'), '# Created by pytest automatically.\n*\n');
    await writeFile(folder.path('.pytest_cache/README.md'), '# pytest cache directory #\n');
    await writeFile(folder.path('.pytest_cache/v/cache/nodeids'), '[]\n');
    await waitFor(() => project.entries?.find((entry) => entry.path === '.pytest_cache/README.md')?.ignored, 'the cache hidden by its own .gitignore');
    // The rules changed: the watcher started again, and saves are seen once it covers every folder.
    await project.whenWatching();
    expect(await userSaves('export const app = 2;\n')).toEqual(['src/app.ts']);
  });

  it('never makes a file the current file once .gitignore excludes its folder, even saved right after that change', async () => {
    await writeFile(folder.path('.gitignore'), 'dist/\ngenerated/\n');
    await writeFile(folder.path('generated/api.ts'), 'export const api = 2;\n');
    await waitFor(() => project.entries?.find((entry) => entry.path === 'generated')?.ignored, 'generated/ hidden by the new rule');
    await project.whenWatching();
    // The .gitignore itself is a file the user saved.
    expect(await userSaves('export const app = 2;\n')).toEqual(['.gitignore', 'src/app.ts']);
    // A save in a folder that is not hidden still counts.
    await writeFile(folder.path('src/other.ts'), 'export const other = 1;\n');
    await waitFor(() => current.at(-1) === 'src/other.ts', 'the save of src/other.ts');
  });
});
