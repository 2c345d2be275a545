import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { SaveGate } from './save-gate';

describe('SaveGate', () => {
  let project: TempProject;
  let gate: SaveGate;

  beforeEach(async () => {
    project = await createTempProject({
      '.gitignore': '*.log\nbuild/\n',
      '.git/info/exclude': 'scratch.txt\n',
      'src/app.ts': 'x\n',
      'src/.gitignore': 'generated/\n!keep.log\n',
      'tools/cache/.gitignore': '*\n',
    });
    gate = new SaveGate(project.root, (error) => {
      throw error;
    });
  });

  afterEach(() => project.remove());

  it('reads the rules of every folder above a file from disk, each time: root, nested, .git/info/exclude, always-hidden folders', async () => {
    const hidden = async (path: string) => gate.isHidden(path);
    expect(await hidden('src/app.ts')).toBe(false);
    expect(await hidden('README.md')).toBe(false);
    expect(await hidden('debug.log')).toBe(true);
    expect(await hidden('src/keep.log')).toBe(false);
    expect(await hidden('build/out.js')).toBe(true);
    expect(await hidden('src/generated/api.ts')).toBe(true);
    expect(await hidden('tools/cache/v/nodeids')).toBe(true);
    expect(await hidden('scratch.txt')).toBe(true);
    expect(await hidden('packages/web/node_modules/x/index.js')).toBe(true);
    expect(await hidden('.cache/tool/state.json')).toBe(true);
    // A rule written now counts for the next save.
    await project.write({ 'src/.gitignore': 'generated/\napp.ts\n' });
    expect(await hidden('src/app.ts')).toBe(true);
  });

  it('lets visible saves through in the order they came, and never a hidden one', async () => {
    const admitted: string[] = [];
    for (const path of ['src/app.ts', 'debug.log', 'README.md', 'tools/cache/data', 'src/app.ts']) gate.pass(path, () => admitted.push(path));
    await new Promise<void>((resolve) => gate.pass('src/last.ts', () => resolve()));
    expect(admitted).toEqual(['src/app.ts', 'README.md', 'src/app.ts']);
  });

  it('says when each save was made: the file’s modification time, or undefined once it is gone', async () => {
    const stamp = new Date(Date.UTC(2026, 10, 28, 12));
    await utimes(join(project.root, 'src/app.ts'), stamp, stamp);
    const when = (path: string) => new Promise<number | undefined>((resolve) => gate.pass(path, resolve));
    expect(await when('src/app.ts')).toBe(stamp.getTime());
    expect(await when('src/deleted.ts')).toBeUndefined();
  });
});
