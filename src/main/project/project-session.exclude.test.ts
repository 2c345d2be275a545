/**
 * The `exclude` setting (like VS Code's `files.exclude`): what it names is hidden like a
 * .gitignore'd entry — a folder neither read nor watched — and a change to the setting
 * reads the tree again with it. Real folders, the real scan and watcher.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TreeChange } from '../../shared/project-types';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createMemoryLogger } from '../logger';
import { ProjectSession } from './project-session';

const pathOf = (change: TreeChange): string => (change.type === 'added' ? change.entry.path : change.path);

describe('ProjectSession with the exclude setting', () => {
  let project: TempProject;
  let session: ProjectSession | undefined;

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': 'export {};\n', 'generated/big/one.ts': 'x', 'notes.log': 'log\n' });
  });

  afterEach(async () => {
    await session?.close();
    session = undefined;
    await project.remove();
  });

  it('hides what the patterns name, reads and watches nothing inside a hidden folder, and shows it again when the setting changes', async () => {
    session = new ProjectSession({ root: project.root, logger: createMemoryLogger(), exclude: ['generated/', '*.log'] });
    const changes: TreeChange[] = [];
    session.onDidChangeTree((batch) => changes.push(...batch));
    const loads: number[] = [];
    session.onDidLoadTree((entries) => loads.push(entries.length));
    await session.start();
    await session.whenWatching();

    expect(session.entries!.find((entry) => entry.path === 'generated')).toMatchObject({ ignored: true, unlisted: 'ignored' });
    expect(session.entries!.find((entry) => entry.path === 'notes.log')).toMatchObject({ ignored: true });
    expect(session.hasFile('generated/big/one.ts')).toBe(false);
    // Not watched: a file written inside is never heard; one written after it elsewhere is.
    await project.write({ 'generated/big/two.ts': 'x', 'src/after.ts': 'x' });
    await waitFor(() => changes.some((change) => pathOf(change) === 'src/after.ts'), 'the file outside the hidden folder');
    expect(changes.map(pathOf)).not.toContain('generated/big/two.ts');

    session.setExclude([]);
    await waitFor(() => loads.length === 2, 'the tree read again');
    expect(session.hasFile('generated/big/two.ts')).toBe(true);
    expect(session.entries!.find((entry) => entry.path === 'notes.log')?.ignored).toBeUndefined();
    // Watched now.
    await project.write({ 'generated/big/three.ts': 'x' });
    await waitFor(() => changes.some((change) => pathOf(change) === 'generated/big/three.ts'), 'a file in the folder shown again');
  });

  it('reads nothing again when the setting is set to what it was', async () => {
    session = new ProjectSession({ root: project.root, logger: createMemoryLogger(), exclude: ['generated/'] });
    const loads: number[] = [];
    session.onDidLoadTree((entries) => loads.push(entries.length));
    await session.start();
    session.setExclude(['generated/']);
    session.setExclude(['generated/', 'other/']);
    await waitFor(() => loads.length === 2, 'the tree read again once');
    expect(session.hasFile('generated/big/one.ts')).toBe(false);
  });
});
