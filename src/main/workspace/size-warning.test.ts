/**
 * Opening a home folder (a fake one: a temp folder given as the home; the real home is
 * never scanned) or a folder past the size limit: real folders, the real scan and watcher.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SizeWarning } from '../../shared/project-types';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createMemoryLogger } from '../logger';
import type { OpenProject } from './open-project';
import { Workspace } from './workspace';

/** 3 folders and 12 files: 15 entries. */
const FILES = Object.fromEntries(['a', 'b', 'c'].flatMap((folder) => [1, 2, 3, 4].map((index) => [`${folder}/file${index}.ts`, `export const x = ${index};\n`])));

describe('the size warning', () => {
  let home: TempProject;
  let config: string;
  let workspace: Workspace;
  /** Every warning the open project said, in order (null: answered). */
  let said: Array<SizeWarning | null>;
  let closed: string[];
  /** How many times a tree was loaded (shown). */
  let trees: number;
  /** Each top level shown while the first index ran, its paths sorted. */
  let earlyTops: string[][];

  const open = (root: string, options: { largeFolderEntries?: number } = {}): Promise<OpenProject> => {
    workspace = new Workspace({ journalFolder: join(config, 'journals'), logger: createMemoryLogger(), home: home.root, ...options });
    // Subscribed as the core does: when the project opens, before its scan starts.
    workspace.onDidOpen((project) => {
      project.onDidChangeSizeWarning((warning) => said.push(warning));
      project.onDidLoadTree(() => (trees += 1));
      project.onDidShowTopLevel((entries) => earlyTops.push(entries.map((entry) => entry.path).sort()));
    });
    workspace.onDidClose(({ message }) => closed.push(message));
    return workspace.open(root);
  };

  beforeEach(async () => {
    home = await createTempProject({ ...FILES, 'code/flint/src/app.ts': 'export {};\n' });
    config = await mkdtemp(join(tmpdir(), 'flint-size-warning-'));
    said = [];
    closed = [];
    trees = 0;
    earlyTops = [];
  });

  afterEach(async () => {
    await workspace.close('closed', 'test over');
    workspace.dispose();
    await home.remove();
    await rm(config, { recursive: true, force: true });
  });

  it('warns about the home folder before indexing it, counts on, and shows and watches nothing until Open anyway', async () => {
    const project = await open(home.root);
    await waitFor(() => said.at(-1)?.scanDone, 'the scan to end, held');
    expect(said[0]).toEqual({ reason: 'home', entriesFound: 0, scanDone: false });
    // a, b, c, their 12 files, code, code/flint, code/flint/src and app.ts.
    expect(said.at(-1)).toEqual({ reason: 'home', entriesFound: 19, scanDone: true });
    expect(project.sizeWarning).toEqual({ reason: 'home', entriesFound: 19, scanDone: true });
    // Not even the top level shows before the answer.
    expect(earlyTops).toEqual([]);
    expect(project.entries).toBeNull();
    expect(trees).toBe(0);

    project.openAnyway();
    expect(said.at(-1)).toBeNull();
    await waitFor(() => project.entries !== null, 'the tree');
    expect(project.entries).toHaveLength(19);
    await project.whenWatching();
    await writeFile(home.path('a/file1.ts'), 'export const x = 10;\n');
    await waitFor(() => project.currentFile.value.path === 'a/file1.ts', 'the save seen by the watcher');
  });

  it('closes the home folder on Cancel, while its scan is held', async () => {
    const project = await open(home.root);
    await waitFor(() => said.at(-1)?.scanDone, 'the scan to end, held');
    await workspace.close('closed', 'Project closed.');
    expect(workspace.project).toBeNull();
    expect(closed).toEqual(['Project closed.']);
    expect(trees).toBe(0);
    expect(project.sizeWarning).toEqual({ reason: 'home', entriesFound: 19, scanDone: true });
  });

  it('opens a folder inside the home folder without asking', async () => {
    const project = await open(home.path('code/flint'));
    await waitFor(() => project.entries !== null, 'the tree');
    expect(said).toEqual([]);
    expect(project.sizeWarning).toBeNull();
  });

  it('warns about a folder whose scan passes the limit, with the count it found, and opens it anyway when asked', async () => {
    await open(home.path('code'), { largeFolderEntries: 10 });
    await waitFor(() => trees === 1, 'a small folder’s tree, at once');
    said = [];
    const other = await createTempProject(FILES);
    try {
      const large = await workspace.open(other.root);
      await waitFor(() => said.at(-1)?.scanDone, 'the scan to end, held');
      expect(said[0]).toMatchObject({ reason: 'large', scanDone: false });
      expect(said[0]!.entriesFound).toBeGreaterThan(10);
      expect(said.at(-1)).toEqual({ reason: 'large', entriesFound: 15, scanDone: true });
      large.openAnyway();
      await waitFor(() => large.entries?.length === 15, 'the tree');
    } finally {
      await workspace.close('closed', 'test over');
      await other.remove();
    }
  });

  it('opens a repository past the limit at once, top level first (a monorepo is what its user meant to open)', async () => {
    const repository = await createTempProject({ ...FILES, '.git/HEAD': 'ref: refs/heads/main\n' });
    try {
      const project = await open(repository.root, { largeFolderEntries: 10 });
      await waitFor(() => project.entries !== null, 'the tree');
      expect(said).toEqual([]);
      // .git is an entry, hidden, and not gone into.
      expect(project.entryCount).toBe(16);
      expect(earlyTops).toEqual([['.git', 'a', 'b', 'c']]);
      expect(project.topLevel?.map((entry) => entry.path).sort()).toEqual(['.git', 'a', 'b', 'c']);
    } finally {
      await workspace.close('closed', 'test over');
      await repository.remove();
    }
  });
});
