import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { isScratchName } from './captured-file';
import { recoverScratchFiles } from './scratch-recovery';

const tsx = join(import.meta.dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');

/** Runs a replace in a child process that dies (exit 137) at `step`, as a crash or a kill -9 would. */
function crashDuringReplace(root: string, step: string, next: string | null = 'flint\n'): void {
  const script = `
    import(${JSON.stringify(join(import.meta.dirname, 'project-file-writer.ts'))}).then(async ({ ProjectFileWriter }) => {
      const writer = new ProjectFileWriter(${JSON.stringify(root)}, { quietMs: 0, atStep: async (at) => { if (at === ${JSON.stringify(step)}) process.exit(137); } });
      const outcome = await writer.replace('src/app.ts', Buffer.from('original\\n'), ${next === null ? 'null' : `Buffer.from(${JSON.stringify(next)})`}, 0o644);
      // Done and reported: the app dies within the grace period.
      if (outcome.status === 'written') process.exit(137);
    });
  `;
  try {
    execFileSync(process.execPath, [tsx, '-e', script], { stdio: 'pipe' });
  } catch (error) {
    if ((error as { status?: number }).status === 137) return;
    throw error;
  }
  throw new Error('the child did not crash');
}

describe('recoverScratchFiles', () => {
  let project: TempProject;
  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': 'original\n' });
  });
  afterEach(() => project.remove());

  it('puts back a file that a crash left taken aside while its name was free', async () => {
    crashDuringReplace(project.root, 'captured');
    expect(await readdir(project.path('src'))).not.toContain('app.ts');
    const report = await recoverScratchFiles(project.root, ['src'], () => false);
    expect(report.restored).toEqual(['src/app.ts']);
    expect(await readFile(project.path('src/app.ts'), 'utf8')).toBe('original\n');
    expect((await readdir(project.path('src'))).filter(isScratchName)).toEqual([]);
  });

  it('drops leftovers whose bytes the journal knows, and keeps unknown ones under a visible name', async () => {
    crashDuringReplace(project.root, 'linked');
    expect(await readFile(project.path('src/app.ts'), 'utf8')).toBe('flint\n');
    const known = await recoverScratchFiles(project.root, ['src'], (bytes) => Buffer.from(bytes).toString() === 'original\n');
    expect(known).toEqual({ restored: [], kept: [] });
    expect((await readdir(project.path('src'))).sort()).toEqual(['app.ts']);

    await writeFile(project.path('src/.app.ts.flint-0123456789ab.aside'), 'bytes no journal knows\n');
    const unknown = await recoverScratchFiles(project.root, ['src'], () => false);
    expect(unknown.kept).toHaveLength(1);
    expect(await readFile(project.path(unknown.kept[0]!), 'utf8')).toBe('bytes no journal knows\n');
  });

  it('never brings back a file whose delete was done, when the app died during the grace period', async () => {
    crashDuringReplace(project.root, 'never', null);
    const report = await recoverScratchFiles(project.root, ['src'], (bytes) => Buffer.from(bytes).toString() === 'original\n');
    expect(report).toEqual({ restored: [], kept: [] });
    expect(await readdir(project.path('src'))).toEqual([]);
  });
});
