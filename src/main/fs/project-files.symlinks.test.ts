/**
 * ProjectFiles against real symlinks: followed only while they stay inside the project
 * (and, for the model, outside .git), and judged as they are now, not as they were.
 */
import { rename, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failureOf } from '../../../test/helpers/failure-of';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { ProjectFiles, type PathPurpose } from './project-files';

const PURPOSES: PathPurpose[] = ['user', 'model'];

describe('ProjectFiles with symlinks', () => {
  let project: TempProject;
  let outside: TempProject;
  let files: ProjectFiles;

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': 'export {};\n', 'sub/util.ts': 'inside\n', '.git/config': '[core]\n' });
    outside = await createTempProject({ 'secret.txt': 'top secret\n' });
    files = new ProjectFiles(project.root);
  });

  afterEach(async () => {
    await project.remove();
    await outside.remove();
  });

  it.each(PURPOSES)('refuses a link to a file outside the project without naming its target, for the %s', async (purpose) => {
    await symlink(outside.path('secret.txt'), project.path('leak.txt'));
    const failure = await failureOf(() => files.resolve('leak.txt', purpose));
    expect(failure).toMatchObject({ code: 'outside-project', message: 'Refused: leak.txt leads outside the project through a symlink.' });
    expect(failure.message).not.toContain('secret');
  });

  it.each(PURPOSES)('refuses a path through a linked folder leading outside, for the %s', async (purpose) => {
    await symlink(outside.root, project.path('elsewhere'));
    expect((await failureOf(() => files.resolve('elsewhere/secret.txt', purpose))).code).toBe('outside-project');
  });

  it('refuses a file the model would create through a linked folder leading outside', async () => {
    await symlink(outside.root, project.path('elsewhere'));
    expect((await failureOf(() => files.resolve('elsewhere/new/file.ts', 'model'))).code).toBe('outside-project');
  });

  it.each(PURPOSES)('follows a link whose target is inside, keeping the name asked for, for the %s', async (purpose) => {
    await symlink('src/app.ts', project.path('shortcut.ts'));
    expect(await files.resolve('shortcut.ts', purpose)).toEqual({ relativePath: 'shortcut.ts', absolutePath: project.path('src/app.ts'), exists: true });
  });

  it('resolves a file the model would create under a linked folder inside, in the real folder', async () => {
    await symlink('sub', project.path('alias'));
    expect(await files.resolve('alias/new.ts', 'model')).toEqual({ relativePath: 'alias/new.ts', absolutePath: project.path('sub/new.ts'), exists: false });
  });

  it('refuses the model a link into .git, to the folder or to a file in it, existing or to be created', async () => {
    await symlink('.git', project.path('sneaky'));
    await symlink('.git/config', project.path('config-link'));
    for (const path of ['sneaky/config', 'sneaky/hooks/pre-commit', 'config-link']) {
      expect(await failureOf(() => files.resolve(path, 'model')), path).toMatchObject({ code: 'outside-project', message: `Refused: ${path} leads into .git through a symlink.` });
    }
    expect((await files.resolve('sneaky/config', 'user')).absolutePath).toBe(project.path('.git/config'));
  });

  it("reports a dangling link to the user as 'not-found', and refuses it to the model, which would write through it", async () => {
    await symlink('nowhere.ts', project.path('dangling.ts'));
    await symlink(join(outside.root, 'missing'), project.path('dangling-folder'));
    expect((await failureOf(() => files.resolve('dangling.ts', 'user'))).code).toBe('not-found');
    for (const path of ['dangling.ts', 'dangling-folder/new.ts']) {
      expect(await failureOf(() => files.resolve(path, 'model')), path).toMatchObject({ code: 'outside-project', message: `Refused: ${path} goes through a broken or looping symlink.` });
    }
  });

  it('refuses a link that loops, whoever names it', async () => {
    await symlink('loop-b', project.path('loop-a'));
    await symlink('loop-a', project.path('loop-b'));
    expect((await failureOf(() => files.resolve('loop-a', 'user'))).code).toBe('io-error');
    expect((await failureOf(() => files.resolve('loop-a', 'model'))).code).toBe('outside-project');
  });

  it.each(PURPOSES)('judges a folder as it is now: swapped for a link leading outside, it is refused at the next resolve, for the %s', async (purpose) => {
    expect((await files.resolve('sub/util.ts', purpose)).absolutePath).toBe(project.path('sub/util.ts'));
    await rename(project.path('sub'), project.path('sub-moved'));
    await symlink(outside.root, project.path('sub'));
    expect((await failureOf(() => files.resolve('sub/secret.txt', purpose))).code).toBe('outside-project');
    expect((await failureOf(() => files.resolve('sub/util.ts', purpose))).code).toBe(purpose === 'user' ? 'not-found' : 'outside-project');
  });

  it('shows a file through a link inside, under the name asked for, and never one outside', async () => {
    await symlink('src/app.ts', project.path('alias.ts'));
    await symlink(outside.path('secret.txt'), project.path('leak.txt'));
    expect(await files.readForView('alias.ts')).toMatchObject({ kind: 'text', path: 'alias.ts', text: 'export {};\n' });
    await expect(files.readForView('leak.txt')).rejects.toMatchObject({ code: 'outside-project' });
  });

  it('never reads for the model a file that leads outside the project or into .git through a link', async () => {
    await symlink(outside.path('secret.txt'), project.path('leak.txt'));
    await symlink('.git/config', project.path('config-link'));
    await expect(files.readText('leak.txt')).rejects.toMatchObject({ code: 'outside-project' });
    await expect(files.readText('config-link')).rejects.toMatchObject({ code: 'outside-project' });
  });
});
