import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { isScratchName } from './captured-file';
import { ProjectFolder } from './project-folder';
import { ScratchArea } from './scratch-area';
import { recoverScratchFiles } from './scratch-recovery';

/** A folder on another device than the temp folder (tmpfs), where this machine has one. */
const OTHER_DEVICE = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev ? '/dev/shm' : null;

const tsx = join(import.meta.dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');

/** Runs a replace in a child process that dies (exit 137) at `step`, as a crash or a kill -9 would. */
function crashDuringReplace(root: string, cacheFolder: string, step: string, next: string | null = 'flint\n'): void {
  const script = `
    import(${JSON.stringify(join(import.meta.dirname, 'project-file-writer.ts'))}).then(async ({ ProjectFileWriter }) => {
      const writer = new ProjectFileWriter(${JSON.stringify(root)}, { quietMs: 0, cacheFolder: ${JSON.stringify(cacheFolder)}, atStep: async (at) => { if (at === ${JSON.stringify(step)}) process.exit(137); } });
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
  let cache: string;
  let area: ScratchArea;
  /** The scratch files of src/ in the area, out of the project. */
  const scratchOfSrc = async () => {
    const names: string[] = [];
    for (const mirror of await area.existingMirrors('src')) {
      names.push(...(await readdir(mirror.entry(''))).filter(isScratchName));
      await mirror.close();
    }
    return names;
  };
  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': 'original\n' });
    cache = await mkdtemp(join(tmpdir(), 'flint-scratch-cache-'));
    area = ScratchArea.for(project.root, { cacheFolder: cache });
  });
  afterEach(async () => {
    await project.remove();
    await rm(cache, { recursive: true, force: true });
  });

  it('puts back a file that a crash left taken aside (in the scratch area) while its name was free', async () => {
    crashDuringReplace(project.root, cache, 'captured');
    expect(await readdir(project.path('src'))).toEqual([]);
    expect((await scratchOfSrc()).some((name) => name.endsWith('.aside'))).toBe(true);
    const report = await recoverScratchFiles(area, ['src'], () => false);
    expect(report.restored).toEqual(['src/app.ts']);
    expect(await readFile(project.path('src/app.ts'), 'utf8')).toBe('original\n');
    expect(await readdir(project.path('src'))).toEqual(['app.ts']);
    expect(await scratchOfSrc()).toEqual([]);
  });

  it('finds a file a crash left aside in the cache even when the project has since become a git repository', async () => {
    crashDuringReplace(project.root, cache, 'captured');
    await mkdir(project.path('.git'));
    const report = await recoverScratchFiles(area, ['src'], () => false);
    expect(report.restored).toEqual(['src/app.ts']);
    expect(await readFile(project.path('src/app.ts'), 'utf8')).toBe('original\n');
  });

  it('drops leftovers whose bytes the journal knows, and keeps unknown ones under a visible name', async () => {
    crashDuringReplace(project.root, cache, 'linked');
    expect(await readFile(project.path('src/app.ts'), 'utf8')).toBe('flint\n');
    expect(await readdir(project.path('src'))).toEqual(['app.ts']);
    const known = await recoverScratchFiles(area, ['src'], (bytes) => Buffer.from(bytes).toString() === 'original\n');
    expect(known).toEqual({ restored: [], kept: [] });
    expect(await scratchOfSrc()).toEqual([]);

    const src = await ProjectFolder.open(project.root, 'src', { create: false });
    const mirror = await area.mirror('src', src);
    await writeFile(mirror.entry('.app.ts.flint-0123456789ab.aside'), 'bytes no journal knows\n');
    await mirror.close();
    await src.close();
    const unknown = await recoverScratchFiles(area, ['src'], () => false);
    expect(unknown.kept).toHaveLength(1);
    expect(await readFile(project.path(unknown.kept[0]!), 'utf8')).toBe('bytes no journal knows\n');
  });

  it('still settles scratch files an older Flint left beside the file', async () => {
    await writeFile(project.path('src/.app.ts.flint-0123456789ab.grace'), 'original\n');
    await writeFile(project.path('src/.app.ts.flint-ba9876543210.tmp'), 'half a write\n');
    const report = await recoverScratchFiles(area, ['src'], (bytes) => Buffer.from(bytes).toString() === 'original\n');
    expect(report).toEqual({ restored: [], kept: [] });
    expect(await readdir(project.path('src'))).toEqual(['app.ts']);
  });

  it('never brings back a file whose delete was done, when the app died during the grace period', async () => {
    crashDuringReplace(project.root, cache, 'never', null);
    const report = await recoverScratchFiles(area, ['src'], (bytes) => Buffer.from(bytes).toString() === 'original\n');
    expect(report).toEqual({ restored: [], kept: [] });
    expect(await readdir(project.path('src'))).toEqual([]);
    expect(await scratchOfSrc()).toEqual([]);
  });

  it.runIf(OTHER_DEVICE !== null)('finds a file a crash left in the hidden .flint-scratch of a group-writable project', async () => {
    const root = await realpath(await mkdtemp(join(OTHER_DEVICE!, 'flint-project-')));
    try {
      await chmod(root, 0o775);
      await mkdir(join(root, 'src'));
      await mkdir(join(root, '.flint-scratch', 'src'), { recursive: true, mode: 0o700 });
      await writeFile(join(root, '.flint-scratch', 'src', '.app.ts.flint-0123456789ab.aside'), 'original\n');
      const onDisk = ScratchArea.for(root, { cacheFolder: cache, tempFolder: cache });
      const report = await recoverScratchFiles(onDisk, ['src'], () => false);
      expect(report.restored).toEqual(['src/app.ts']);
      expect(await readFile(join(root, 'src', 'app.ts'), 'utf8')).toBe('original\n');
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
