import { symlink } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import type { TreeEntry } from '../../shared/project-types';
import { IgnoreRules } from './ignore-rules';
import { describeEntry, listFolder, scanProject } from './tree-scanner';

const find = (entries: TreeEntry[], path: string): TreeEntry | undefined => entries.find((entry) => entry.path === path);

describe('listFolder', () => {
  let project: TempProject;

  beforeEach(async () => {
    project = await createTempProject({
      '.gitignore': 'dist/\n',
      'dist/bundle.js': 'built',
      'dist/assets/logo.svg': '<svg/>',
      'src/app.ts': '',
    });
  });

  afterEach(async () => {
    await project.remove();
  });

  it('lists the children of an ignored folder, each flagged ignored', async () => {
    const { rules } = await scanProject({ root: project.root });

    const children = await listFolder(project.root, 'dist', rules);

    expect(children.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
      { path: 'dist/assets', kind: 'directory', ignored: true, unlisted: 'ignored' },
      { path: 'dist/bundle.js', kind: 'file', ignored: true },
    ]);
  });

  it('lists a visible folder without ignore flags', async () => {
    const { rules } = await scanProject({ root: project.root });
    expect(await listFolder(project.root, 'src', rules)).toEqual([{ path: 'src/app.ts', kind: 'file' }]);
  });

  it("reads the folder's own .gitignore before classifying its children", async () => {
    await project.write({ 'lib/.gitignore': 'gen.js\n', 'lib/gen.js': '', 'lib/main.js': '' });
    const rules = new IgnoreRules();

    const children = await listFolder(project.root, 'lib', rules);

    expect(find(children, 'lib/gen.js')?.ignored).toBe(true);
    expect(find(children, 'lib/main.js')?.ignored).toBeUndefined();
  });

  it('rejects with the fs error when the folder does not exist', async () => {
    await expect(listFolder(project.root, 'nope', new IgnoreRules())).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('describeEntry', () => {
  let project: TempProject;

  beforeEach(async () => {
    project = await createTempProject({ '.gitignore': '*.log\nout/\n', 'src/app.ts': '', 'debug.log': '', 'out/x.js': '' });
  });

  afterEach(async () => {
    await project.remove();
  });

  it('describes a file', async () => {
    expect(await describeEntry(project.root, 'src/app.ts', new IgnoreRules())).toEqual({ path: 'src/app.ts', kind: 'file' });
  });

  it('describes a folder', async () => {
    expect(await describeEntry(project.root, 'src', new IgnoreRules())).toEqual({ path: 'src', kind: 'directory' });
  });

  it('flags ignored files and folders using the rules it is given', async () => {
    const { rules } = await scanProject({ root: project.root });
    expect(await describeEntry(project.root, 'debug.log', rules)).toEqual({ path: 'debug.log', kind: 'file', ignored: true });
    expect(await describeEntry(project.root, 'out', rules)).toEqual({
      path: 'out',
      kind: 'directory',
      ignored: true,
      unlisted: 'ignored',
    });
    expect(await describeEntry(project.root, 'out/x.js', rules)).toEqual({ path: 'out/x.js', kind: 'file', ignored: true });
  });

  it('describes a symlink without following it', async () => {
    await symlink('src', project.path('source'));
    expect(await describeEntry(project.root, 'source', new IgnoreRules())).toEqual({
      path: 'source',
      kind: 'symlink',
      symlink: { target: 'src', escapes: false, targetKind: 'directory' },
    });
  });

  it('returns null for a path that does not exist', async () => {
    expect(await describeEntry(project.root, 'src/vanished.ts', new IgnoreRules())).toBeNull();
  });
});
