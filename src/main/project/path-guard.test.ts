import { mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { FlintFailure } from '../../shared/result';
import { isInsideRoot, toPosixRelative } from '../fs/root-paths';
import { checkRelativePath, resolveExistingInProject } from './path-guard';

/** Runs `action` and returns the FlintFailure it threw (fails the test if it did not). */
async function failureOf(action: () => Promise<unknown>): Promise<FlintFailure> {
  try {
    await action();
  } catch (error) {
    expect(error).toBeInstanceOf(FlintFailure);
    return error as FlintFailure;
  }
  throw new Error('expected a FlintFailure, but the call succeeded');
}

describe('resolveExistingInProject', () => {
  let project: TempProject;
  let outside: string;

  beforeEach(async () => {
    project = await createTempProject({
      'src/app.ts': 'export {};\n',
      'README.md': '# demo\n',
    });
    outside = await realpath(await mkdtemp(join(tmpdir(), 'flint-outside-')));
    await writeFile(join(outside, 'secret.txt'), 'secret');
  });

  afterEach(async () => {
    await project.remove();
    await rm(outside, { recursive: true, force: true });
  });

  it('resolves a normal file to its relative and real path', async () => {
    const resolved = await resolveExistingInProject(project.root, 'src/app.ts');
    expect(resolved).toEqual({ relativePath: 'src/app.ts', realPath: project.path('src/app.ts') });
  });

  it('normalizes the relative path it returns', async () => {
    const resolved = await resolveExistingInProject(project.root, './src//app.ts');
    expect(resolved.relativePath).toBe('src/app.ts');
  });

  it('resolves a folder too', async () => {
    const resolved = await resolveExistingInProject(project.root, 'src');
    expect(resolved.realPath).toBe(project.path('src'));
  });

  it("refuses a path with a .. segment as 'outside-project'", async () => {
    const failure = await failureOf(() => resolveExistingInProject(project.root, '../secret.txt'));
    expect(failure.code).toBe('outside-project');
  });

  it("refuses a .. segment that would land back inside as 'outside-project'", async () => {
    const failure = await failureOf(() => resolveExistingInProject(project.root, 'src/../README.md'));
    expect(failure.code).toBe('outside-project');
  });

  it('refuses an absolute path, even one inside the root', async () => {
    expect((await failureOf(() => resolveExistingInProject(project.root, project.path('README.md')))).code).toBe(
      'outside-project',
    );
    expect((await failureOf(() => resolveExistingInProject(project.root, join(outside, 'secret.txt')))).code).toBe(
      'outside-project',
    );
  });

  it('refuses a symlink inside the project whose target is outside', async () => {
    await symlink(join(outside, 'secret.txt'), project.path('leak.txt'));
    const failure = await failureOf(() => resolveExistingInProject(project.root, 'leak.txt'));
    expect(failure.code).toBe('outside-project');
    expect(failure.message).not.toContain('secret');
  });

  it('refuses a path that passes through a symlinked folder leading outside', async () => {
    await symlink(outside, project.path('elsewhere'));
    const failure = await failureOf(() => resolveExistingInProject(project.root, 'elsewhere/secret.txt'));
    expect(failure.code).toBe('outside-project');
  });

  it('follows a symlink whose target is inside the project', async () => {
    await symlink('src/app.ts', project.path('shortcut.ts'));
    const resolved = await resolveExistingInProject(project.root, 'shortcut.ts');
    expect(resolved).toEqual({ relativePath: 'shortcut.ts', realPath: project.path('src/app.ts') });
  });

  it("reports a missing file as 'not-found'", async () => {
    const failure = await failureOf(() => resolveExistingInProject(project.root, 'src/missing.ts'));
    expect(failure.code).toBe('not-found');
  });

  it("reports a dangling symlink as 'not-found'", async () => {
    await symlink('nowhere.ts', project.path('dangling.ts'));
    const failure = await failureOf(() => resolveExistingInProject(project.root, 'dangling.ts'));
    expect(failure.code).toBe('not-found');
  });

  it('resolves a file whose name starts with two dots', async () => {
    await project.write({ '..notes': 'a file, not a parent reference' });
    const resolved = await resolveExistingInProject(project.root, '..notes');
    expect(resolved.realPath).toBe(project.path('..notes'));
  });
});

describe('checkRelativePath', () => {
  it('returns the normalized path', () => {
    expect(checkRelativePath('a/./b')).toBe('a/b');
  });

  it("throws 'outside-project' for a path that could leave the root", () => {
    expect(() => checkRelativePath('../x')).toThrow(FlintFailure);
    expect(() => checkRelativePath('/etc/passwd')).toThrow(expect.objectContaining({ code: 'outside-project' }));
  });
});

describe('isInsideRoot', () => {
  it('is true for the root itself', () => {
    expect(isInsideRoot('/work/project', '/work/project')).toBe(true);
  });

  it('is true for a path below the root', () => {
    expect(isInsideRoot('/work/project', '/work/project/src/app.ts')).toBe(true);
  });

  it('is false for the parent of the root', () => {
    expect(isInsideRoot('/work/project', '/work')).toBe(false);
  });

  it('is false for a sibling folder that shares the name prefix', () => {
    expect(isInsideRoot('/work/project', '/work/project-other/x')).toBe(false);
  });

  it('is false for an unrelated absolute path', () => {
    expect(isInsideRoot('/work/project', '/etc/passwd')).toBe(false);
  });

  it('is true for an entry whose name starts with two dots', () => {
    expect(isInsideRoot('/work/project', '/work/project/..notes')).toBe(true);
  });
});

describe('toPosixRelative', () => {
  it('turns an absolute path below the root into a POSIX relative path', () => {
    expect(toPosixRelative('/work/project', '/work/project/src/app.ts')).toBe('src/app.ts');
  });
});

