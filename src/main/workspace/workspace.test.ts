/**
 * The workspace and its one open project, with real folders, the real watcher and real
 * writes through the project's edits.
 */
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EditStreamParser } from '../../shared/edits/edit-stream-parser';
import type { HunkState } from '../../shared/edits/hunk-types';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createMemoryLogger } from '../logger';
import type { OpenProject } from './open-project';
import { Workspace } from './workspace';
import { isHunkStreamEvent } from '../../shared/edits/edit-types';

const PATCH = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n+uno\n*** End Patch\n';

/** Streams `patch` onto a new board of the project's edits and accepts its first hunk. */
async function acceptPatch(project: OpenProject, patch: string): Promise<HunkState> {
  const states = new Map<string, HunkState>();
  const board = project.edits.openBoard((update) => states.set(update.id, update.state));
  const toBoard = board.beginTurn(1);
  const parser = new EditStreamParser((event) => {
    if (isHunkStreamEvent(event)) toBoard(event);
  });
  parser.push(patch);
  parser.finish(false);
  await waitFor(() => states.get('1.0') === 'pending', 'the hunk to be decidable');
  const state = await board.accept('1.0');
  board.dispose();
  return state;
}

describe('Workspace', () => {
  let folder: TempProject;
  let config: string;
  let workspace: Workspace;
  let notices: string[];

  const open = async (root = folder.root): Promise<OpenProject> => {
    const project = await workspace.open(root);
    await waitFor(() => project.entries !== null, 'the first index');
    return project;
  };

  beforeEach(async () => {
    folder = await createTempProject({ 'src/a.ts': 'one\ntwo\n', 'src/b.ts': 'b\n' });
    config = await mkdtemp(join(tmpdir(), 'flint-workspace-'));
    workspace = new Workspace({ journalFolder: join(config, 'journals'), logger: createMemoryLogger() });
    notices = [];
    // Subscribed when the project opens, as the core does: before its indexing starts.
    workspace.onDidOpen((project) => project.onDidWarn((message) => notices.push(message)));
  });

  afterEach(async () => {
    await workspace.close('closed', 'test over');
    workspace.dispose();
    await folder.remove();
    await rm(config, { recursive: true, force: true });
  });

  it('takes the echo of Flint’s own write for its own, and the user’s save for the current file', async () => {
    const project = await open();
    const current: Array<string | null> = [];
    project.onDidChangeCurrentFile((file) => current.push(file.path));
    let echoed = false;
    project.onDidChangeTree((changes) => (echoed ||= changes.some((change) => (change.type === 'modified' ? change.path : change.type === 'added' ? change.entry.path : null) === 'src/a.ts')));
    expect(await acceptPatch(project, PATCH)).toBe('accepted');
    expect(await readFile(folder.path('src/a.ts'), 'utf8')).toBe('uno\ntwo\n');
    // The watcher's report of Flint's write: it must not make a.ts current.
    await waitFor(() => echoed, 'the watcher to report Flint’s write');
    // The user's save comes after it; the echo was told apart by one small read that began
    // before this file was even written, so a.ts would have been made current first.
    await writeFile(folder.path('src/b.ts'), 'b2\n');
    await waitFor(() => project.currentFile.value.path === 'src/b.ts', 'the user’s save to make b.ts current');
    expect(project.currentFile.value.source).toBe('saved');
    expect(current).toEqual(['src/b.ts']);
  });

  it('takes the user’s save of a file Flint has just written for the user’s (a time window took it for Flint’s echo)', async () => {
    const project = await open();
    expect(await acceptPatch(project, PATCH)).toBe('accepted');
    await writeFile(folder.path('src/a.ts'), 'uno\ntwo\n// mine\n');
    await waitFor(() => project.currentFile.value.path === 'src/a.ts', 'the user’s save to make a.ts current');
    expect(project.currentFile.value.source).toBe('saved');
  });

  it('closes the open project before opening another: its answers go first, then the project, then the news', async () => {
    const other = await createTempProject({ 'x.ts': 'x\n' });
    try {
      const order: string[] = [];
      workspace.onWillClose((project) => order.push(`will close ${project.info.id}`));
      workspace.onDidClose((closed) => order.push(`closed ${closed.projectId}: ${closed.message}`));
      const first = await open();
      const second = await open(other.root);
      expect(order).toEqual([`will close ${first.info.id}`, `closed ${first.info.id}: Another project was opened.`]);
      expect(workspace.project).toBe(second);
      expect(second.info.id).toBeGreaterThan(first.info.id);
    } finally {
      await workspace.close('closed', 'test over');
      await other.remove();
    }
  });

  it('tells what recovering an interrupted write found, once the project is listened to', async () => {
    const project = await open();
    await acceptPatch(project, PATCH);
    await workspace.close('closed', 'before the crash');
    // A crash in the instant a write had taken the file aside: the name is free, the bytes hidden.
    await rename(folder.path('src/a.ts'), folder.path('src/.a.ts.flint-0123456789ab.aside'));
    await open();
    expect(notices).toContain('Flint was interrupted while writing src/a.ts; the file was put back as it was.');
    expect(await readFile(folder.path('src/a.ts'), 'utf8')).toBe('uno\ntwo\n');
  });

  it('refuses what is not a readable folder, with words the UI shows as they are', async () => {
    await expect(workspace.open('relative/path')).rejects.toThrow('Type a full path');
    await expect(workspace.open(folder.path('src/a.ts'))).rejects.toMatchObject({ code: 'not-a-directory' });
    await expect(workspace.open(join(folder.root, 'missing'))).rejects.toMatchObject({ code: 'not-found' });
    expect(workspace.project).toBeNull();
  });

  it('answers "no project" once the project is closed', async () => {
    await open();
    await workspace.close('closed', 'done');
    expect(workspace.project).toBeNull();
    expect(() => workspace.requireProject()).toThrow('No project is open');
  });

  it('takes opens and closes in turn: two quick opens leave one project, the first closed before the second opens', async () => {
    const other = await createTempProject({ 'x.ts': 'x\n' });
    try {
      const order: string[] = [];
      workspace.onDidOpen((project) => order.push(`opened ${project.info.id}`));
      workspace.onDidClose((closed) => order.push(`closed ${closed.projectId}`));
      const [first, second] = await Promise.all([workspace.open(folder.root), workspace.open(other.root)]);
      expect(order).toEqual([`opened ${first.info.id}`, `closed ${first.info.id}`, `opened ${second.info.id}`]);
      expect(workspace.project).toBe(second);
    } finally {
      await workspace.close('closed', 'test over');
      await other.remove();
    }
  });

  it('closes a folder whose Close came while it was still opening, once it is open', async () => {
    const closed: string[] = [];
    workspace.onDidClose((event) => closed.push(event.message));
    const opening = workspace.open(folder.root);
    const closing = workspace.close('closed', 'closed while opening');
    const project = await opening;
    await closing;
    expect(workspace.project).toBeNull();
    expect(closed).toEqual(['closed while opening']);
    expect(project.info.root).toBe(folder.root);
  });

  it('reopens a folder only after its close has finished: recovery never races the closing writes', async () => {
    const order: string[] = [];
    workspace.onWillClose(() => order.push('closing'));
    workspace.onDidClose(() => order.push('closed'));
    workspace.onDidOpen(() => order.push('opened'));
    await open();
    await Promise.all([workspace.close('closed', 'first'), workspace.open(folder.root)]);
    expect(order).toEqual(['opened', 'closing', 'closed', 'opened']);
  });
});
