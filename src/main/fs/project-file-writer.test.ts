import { mkdir, open, readdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { isScratchName } from './captured-file';
import { ProjectFileWriter, type WriteStep } from './project-file-writer';

const ORIGINAL = Buffer.from('original\n');
const FLINTS = Buffer.from('flint wrote this\n');
const USERS = Buffer.from('the user saved this\n');

type Save = 'atomic' | 'in-place';

/** Another program's save, the two ways editors write. */
async function saveAs(kind: Save, path: string, bytes: Buffer): Promise<void> {
  if (kind === 'in-place') return writeFile(path, bytes);
  await writeFile(`${path}~save`, bytes);
  await rename(`${path}~save`, path);
}

describe('ProjectFileWriter', () => {
  let project: TempProject;
  let outside: TempProject;
  const path = () => project.path('src/app.ts');

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': ORIGINAL });
    outside = await createTempProject();
  });

  afterEach(async () => {
    await project.remove();
    await outside.remove();
  });

  const scratchLeft = async () => (await readdir(project.path('src'))).filter(isScratchName);

  it('replaces, creates and deletes when the file holds what was expected, keeping the mode and leaving no scratch files', async () => {
    const writer = new ProjectFileWriter(project.root, { quietMs: 0 });
    expect(await writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o640)).toEqual({ status: 'written' });
    expect(await readFile(path())).toEqual(FLINTS);
    expect((await stat(path())).mode & 0o777).toBe(0o640);
    expect(await writer.replace('src/new/deep.ts', null, FLINTS, 0o644)).toEqual({ status: 'written' });
    expect(await readFile(project.path('src/new/deep.ts'))).toEqual(FLINTS);
    expect(await writer.replace('src/app.ts', FLINTS, null, 0o640)).toEqual({ status: 'written' });
    await expect(stat(path())).rejects.toThrow();
    await writer.dispose();
    expect(await scratchLeft()).toEqual([]);
  });

  it('never creates over a file that appeared, and never replaces one that changed', async () => {
    const writer = new ProjectFileWriter(project.root, { quietMs: 0 });
    expect(await writer.replace('src/app.ts', null, FLINTS, 0o644)).toEqual({ status: 'changed' });
    expect(await writer.replace('src/app.ts', Buffer.from('something else\n'), FLINTS, 0o644)).toEqual({ status: 'changed' });
    expect(await readFile(path())).toEqual(ORIGINAL);
    expect(await scratchLeft()).toEqual([]);
  });

  // The windows of the old compare-then-rename: a save placed exactly in each.
  for (const kind of ['atomic', 'in-place'] as const) {
    for (const operation of ['replace', 'delete'] as const) {
      for (const step of ['before-capture', 'captured'] as const) {
        it(`keeps an ${kind} save that lands at "${step}" of a ${operation}, and reports the write as changed`, async () => {
          const writer = new ProjectFileWriter(project.root, { quietMs: 0, atStep: async (at) => (at === step ? saveAs(kind, path(), USERS) : undefined) });
          const outcome = await writer.replace('src/app.ts', ORIGINAL, operation === 'replace' ? FLINTS : null, 0o644);
          expect(outcome).toEqual({ status: 'changed' });
          expect(await readFile(path())).toEqual(USERS);
          await writer.dispose();
          expect(await scratchLeft()).toEqual([]);
        });
      }
      it(`leaves an ${kind} save that lands after Flint's file is linked on disk (the user's save is the newer) on a ${operation}`, async () => {
        const writer = new ProjectFileWriter(project.root, { quietMs: 0, atStep: async (at) => (at === 'linked' ? saveAs(kind, path(), USERS) : undefined) });
        await writer.replace('src/app.ts', ORIGINAL, operation === 'replace' ? FLINTS : null, 0o644);
        expect(await readFile(path())).toEqual(USERS);
        await writer.dispose();
        expect(await scratchLeft()).toEqual([]);
      });
    }
  }

  for (const step of ['linked', 'verified'] as const satisfies WriteStep[]) {
    it(`puts back what a writer that opened the file earlier wrote at "${step}", and reports it`, async () => {
      const reports: unknown[] = [];
      const early = await open(path(), 'r+');
      const writer = new ProjectFileWriter(project.root, {
        quietMs: 0,
        graceMs: 60_000,
        onLateWriter: (report) => reports.push(report),
        atStep: async (at) => {
          if (at === step) await early.write(USERS, 0, USERS.length, 0);
        },
      });
      const outcome = await writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644);
      await early.close();
      await writer.dispose();
      expect(await readFile(path(), 'utf8')).toBe(USERS.toString());
      if (step === 'linked') expect(outcome).toEqual({ status: 'changed' });
      else expect(reports).toEqual([{ path: 'src/app.ts' }]);
      expect(await scratchLeft()).toEqual([]);
    });
  }

  it('keeps a late writer’s bytes beside the file when the name was saved again meanwhile', async () => {
    const reports: Array<{ keptAs?: string }> = [];
    const early = await open(path(), 'r+');
    const writer = new ProjectFileWriter(project.root, { quietMs: 0, graceMs: 60_000, onLateWriter: (report) => reports.push(report) });
    expect(await writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644)).toEqual({ status: 'written' });
    await early.write(USERS, 0, USERS.length, 0);
    await early.close();
    await saveAs('atomic', path(), Buffer.from('a newer save\n'));
    await writer.dispose();
    expect(await readFile(path(), 'utf8')).toBe('a newer save\n');
    expect(reports).toHaveLength(1);
    expect(await readFile(project.path(reports[0]!.keptAs!), 'utf8')).toBe(USERS.toString());
  });

  it('waits for a file still being saved before letting its bytes be read', async () => {
    const writer = new ProjectFileWriter(project.root, { quietMs: 200 });
    await writeFile(path(), USERS);
    const started = Date.now();
    await writer.settle('src/app.ts');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    // Flint's own write is known: no wait for it.
    await writer.replace('src/app.ts', USERS, FLINTS, 0o644);
    const again = Date.now();
    await writer.settle('src/app.ts');
    expect(Date.now() - again).toBeLessThan(150);
  });

  describe('symlinks swapped under a write', () => {
    for (const step of ['before-capture', 'captured'] as const) {
      it(`refuses when the folder becomes a link out of the project at "${step}", writing nothing outside`, async () => {
        const writer = new ProjectFileWriter(project.root, {
          quietMs: 0,
          atStep: async (at) => {
            if (at !== step) return;
            await rename(project.path('src'), project.path('src-moved'));
            await symlink(outside.root, project.path('src'));
          },
        });
        await writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644).catch(() => undefined);
        expect(await readdir(outside.root)).toEqual([]);
      });
    }

    it('refuses a path whose folder is a link now, though it was a folder when checked', async () => {
      await rename(project.path('src'), project.path('src-moved'));
      await symlink(outside.root, project.path('src'));
      const writer = new ProjectFileWriter(project.root, { quietMs: 0 });
      await expect(writer.replace('src/new.ts', null, FLINTS, 0o644)).rejects.toMatchObject({ code: 'outside-project' });
      await expect(writer.replace('src/deeper/new.ts', null, FLINTS, 0o644)).rejects.toMatchObject({ code: 'outside-project' });
      expect(await readdir(outside.root)).toEqual([]);
    });

    it('takes its file back when the folder is moved out of the project during the write', async () => {
      await mkdir(join(outside.root, 'landing'));
      const writer = new ProjectFileWriter(project.root, {
        quietMs: 0,
        atStep: async (at) => (at === 'linked' ? rename(project.path('src'), join(outside.root, 'landing', 'src')) : undefined),
      });
      await expect(writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644)).rejects.toMatchObject({ code: 'outside-project' });
      const moved = join(outside.root, 'landing', 'src');
      expect((await readdir(moved)).filter((name) => name !== 'app.ts')).toEqual([]);
      expect(await readFile(join(moved, 'app.ts'))).toEqual(ORIGINAL);
    });
  });
});
