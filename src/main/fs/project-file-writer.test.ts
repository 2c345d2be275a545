import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { isScratchName } from './captured-file';
import { ProjectFileWriter, type WriteStep } from './project-file-writer';
import { realClock } from './read-settled';

// link(2) fails where a file system has no hard links (exFAT, FAT32, some network mounts:
// EPERM) and anywhere on an I/O error: the next link onto `name` fails with `code`.
const linkFault = vi.hoisted(() => ({ name: null as string | null, code: 'EPERM' }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    link: async (from: string, to: string) => {
      if (linkFault.name !== null && to.endsWith(`/${linkFault.name}`)) {
        linkFault.name = null;
        throw Object.assign(new Error(`${linkFault.code}: link '${from}' -> '${to}'`), { code: linkFault.code });
      }
      return actual.link(from, to);
    },
  };
});

const openHandles = () => readdirSync('/proc/self/fd').length;

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
  /** The OS cache folder the writers keep their scratch files in (the project has no .git). */
  let cache: string;
  const path = () => project.path('src/app.ts');

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': ORIGINAL });
    outside = await createTempProject();
    cache = await mkdtemp(join(tmpdir(), 'flint-writer-cache-'));
  });

  afterEach(async () => {
    linkFault.name = null;
    await project.remove();
    await outside.remove();
    await rm(cache, { recursive: true, force: true });
  });

  /** Scratch files left anywhere: beside the file (never, any more) or in the scratch area. */
  const scratchLeft = async () => {
    const inArea = (await readdir(cache, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile()).map((entry) => entry.name);
    return [...(await readdir(project.path('src'))).filter(isScratchName), ...inArea];
  };

  it('replaces, creates and deletes when the file holds what was expected, keeping the mode and leaving no scratch files', async () => {
    const writer = new ProjectFileWriter(project.root, { cacheFolder: cache, quietMs: 0 });
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
    const writer = new ProjectFileWriter(project.root, { cacheFolder: cache, quietMs: 0 });
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
          const writer = new ProjectFileWriter(project.root, { cacheFolder: cache, quietMs: 0, atStep: async (at) => (at === step ? saveAs(kind, path(), USERS) : undefined) });
          const outcome = await writer.replace('src/app.ts', ORIGINAL, operation === 'replace' ? FLINTS : null, 0o644);
          expect(outcome).toEqual({ status: 'changed' });
          expect(await readFile(path())).toEqual(USERS);
          await writer.dispose();
          expect(await scratchLeft()).toEqual([]);
        });
      }
      it(`leaves an ${kind} save that lands after Flint's file is linked on disk (the user's save is the newer) on a ${operation}`, async () => {
        const writer = new ProjectFileWriter(project.root, { cacheFolder: cache, quietMs: 0, atStep: async (at) => (at === 'linked' ? saveAs(kind, path(), USERS) : undefined) });
        await writer.replace('src/app.ts', ORIGINAL, operation === 'replace' ? FLINTS : null, 0o644);
        expect(await readFile(path())).toEqual(USERS);
        await writer.dispose();
        expect(await scratchLeft()).toEqual([]);
      });
    }
  }

  it('puts back a save of the same size that lands just before the capture (compared after Flint’s file is in place)', async () => {
    const sameSize = Buffer.from('ORIGINAL\n');
    const writer = new ProjectFileWriter(project.root, { cacheFolder: cache, quietMs: 0, atStep: async (at) => (at === 'before-capture' ? writeFile(path(), sameSize) : undefined) });
    expect(await writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644)).toEqual({ status: 'changed' });
    expect(await readFile(path())).toEqual(sameSize);
    await writer.dispose();
    expect(await scratchLeft()).toEqual([]);
  });

  for (const step of ['linked', 'verified'] as const satisfies WriteStep[]) {
    it(`puts back what a writer that opened the file earlier wrote at "${step}", and reports it`, async () => {
      const reports: unknown[] = [];
      const early = await open(path(), 'r+');
      const writer = new ProjectFileWriter(project.root, { cacheFolder: cache,
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
    const writer = new ProjectFileWriter(project.root, { cacheFolder: cache, quietMs: 0, graceMs: 60_000, onLateWriter: (report) => reports.push(report) });
    expect(await writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644)).toEqual({ status: 'written' });
    await early.write(USERS, 0, USERS.length, 0);
    await early.close();
    await saveAs('atomic', path(), Buffer.from('a newer save\n'));
    await writer.dispose();
    expect(await readFile(path(), 'utf8')).toBe('a newer save\n');
    expect(reports).toHaveLength(1);
    expect(await readFile(project.path(reports[0]!.keptAs!), 'utf8')).toBe(USERS.toString());
  });

  it('writes where the file system has no hard links, by a rename once the name is checked free', async () => {
    const writer = new ProjectFileWriter(project.root, { cacheFolder: cache, quietMs: 0 });
    linkFault.name = 'app.ts';
    expect(await writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644)).toEqual({ status: 'written' });
    expect(await readFile(path())).toEqual(FLINTS);
    await writer.dispose();
    expect(await scratchLeft()).toEqual([]);
  });

  it('moves to the next scratch folder when a link between the file’s folder and the area crosses mounts (EXDEV)', async () => {
    const temp = await mkdtemp(join(tmpdir(), 'flint-writer-temp-'));
    try {
      const inTemp: string[] = [];
      const writer = new ProjectFileWriter(project.root, {
        quietMs: 0,
        cacheFolder: cache,
        tempFolder: temp,
        atStep: async () => void inTemp.push(...(await readdir(temp, { recursive: true }))),
      });
      // Another mount of the same device: the cache refuses the link, the temp folder takes it.
      linkFault.name = 'new.ts';
      linkFault.code = 'EXDEV';
      expect(await writer.replace('src/new.ts', null, FLINTS, 0o644)).toEqual({ status: 'written' });
      linkFault.code = 'EPERM';
      expect(await readFile(project.path('src/new.ts'))).toEqual(FLINTS);
      expect(inTemp.some((name) => name.endsWith('.tmp'))).toBe(true);
      // The refused area is not tried again.
      inTemp.length = 0;
      expect(await writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644)).toEqual({ status: 'written' });
      expect(inTemp.some((name) => name.endsWith('.aside'))).toBe(true);
      await writer.dispose();
      expect(await scratchLeft()).toEqual([]);
    } finally {
      await rm(temp, { recursive: true, force: true });
    }
  });

  it('puts the user’s file back under its name when a step after the capture fails', async () => {
    const writer = new ProjectFileWriter(project.root, { cacheFolder: cache, quietMs: 0 });
    linkFault.name = 'app.ts';
    linkFault.code = 'EIO';
    await expect(writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644)).rejects.toMatchObject({ code: 'EIO' });
    linkFault.code = 'EPERM';
    expect(await readFile(path())).toEqual(ORIGINAL);
    expect(await scratchLeft()).toEqual([]);
  });

  it('never reads a file swapped for a huge one whole, puts it back, and leaves no handle open', async () => {
    const writer = new ProjectFileWriter(project.root, { cacheFolder: cache,
      quietMs: 0,
      atStep: async (step) => {
        if (step !== 'before-capture') return;
        await writeFile(`${path()}~save`, '');
        await truncate(`${path()}~save`, 2 ** 40);
        await rename(`${path()}~save`, path());
      },
    });
    const before = openHandles();
    expect(await writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644)).toEqual({ status: 'changed' });
    expect((await stat(path())).size).toBe(2 ** 40);
    expect(openHandles()).toBe(before);
    expect(await scratchLeft()).toEqual([]);
  });

  it('puts back what an editor that opened Flint’s own last write wrote into it after the next write', async () => {
    const reports: unknown[] = [];
    let editor: Awaited<ReturnType<typeof open>> | null = null;
    const writer = new ProjectFileWriter(project.root, { cacheFolder: cache,
      quietMs: 0,
      graceMs: 60_000,
      onLateWriter: (report) => reports.push(report),
      atStep: async (step) => {
        if (step === 'verified' && editor !== null) await editor.write(USERS, 0, USERS.length, 0);
      },
    });
    expect(await writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644)).toEqual({ status: 'written' });
    editor = await open(path(), 'r+');
    expect(await writer.replace('src/app.ts', FLINTS, Buffer.from('flint wrote this again\n'), 0o644)).toEqual({ status: 'written' });
    await editor.close();
    await writer.dispose();
    expect((await readFile(path(), 'utf8')).startsWith(USERS.toString())).toBe(true);
    expect(reports).toHaveLength(1);
  });

  it('waits for a file still being saved before letting its bytes be read, and never for its own write', async () => {
    // The waits are counted, not timed.
    let waits = 0;
    const clock = { now: realClock.now, sleep: (ms: number) => ((waits += 1), realClock.sleep(ms)) };
    const writer = new ProjectFileWriter(project.root, { cacheFolder: cache, quietMs: 200, clock });
    await writeFile(path(), USERS);
    // Modified "just now" however long this machine takes to get to the next line: a minute ahead.
    const ahead = new Date(Date.now() + 60_000);
    await utimes(path(), ahead, ahead);
    await writer.settle('src/app.ts');
    expect(waits).toBeGreaterThan(0);
    // Flint's own write is known: no wait for it.
    await writer.replace('src/app.ts', USERS, FLINTS, 0o644);
    waits = 0;
    await writer.settle('src/app.ts');
    expect(waits).toBe(0);
  });

  describe('symlinks swapped under a write', () => {
    for (const step of ['before-capture', 'captured'] as const) {
      it(`refuses when the folder becomes a link out of the project at "${step}", writing nothing outside`, async () => {
        const writer = new ProjectFileWriter(project.root, { cacheFolder: cache,
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

    it('refuses without /proc (macOS, Windows) too: nothing outside is renamed, written or left hidden', async () => {
      await project.write({ 'src-copy/app.ts': ORIGINAL });
      const copy = await createTempProject({ 'src/app.ts': ORIGINAL });
      const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
      try {
        Object.defineProperty(process, 'platform', { value: 'darwin' });
        vi.resetModules();
        const { ProjectFileWriter: WriterWithoutProc } = await import('./project-file-writer');
        const writer = new WriterWithoutProc(project.root, {
          quietMs: 0,
          atStep: async (step) => {
            if (step !== 'before-capture') return;
            await rename(project.path('src'), project.path('src-moved'));
            await symlink(copy.path('src'), project.path('src'));
          },
        });
        await expect(writer.replace('src/app.ts', ORIGINAL, FLINTS, 0o644)).rejects.toMatchObject({ code: 'outside-project' });
        expect(await readdir(copy.path('src'))).toEqual(['app.ts']);
        expect(await readFile(copy.path('src/app.ts'))).toEqual(ORIGINAL);
      } finally {
        Object.defineProperty(process, 'platform', platform);
        vi.resetModules();
        await copy.remove();
      }
    });

    it('refuses a path whose folder is a link now, though it was a folder when checked', async () => {
      await rename(project.path('src'), project.path('src-moved'));
      await symlink(outside.root, project.path('src'));
      const writer = new ProjectFileWriter(project.root, { cacheFolder: cache, quietMs: 0 });
      await expect(writer.replace('src/new.ts', null, FLINTS, 0o644)).rejects.toMatchObject({ code: 'outside-project' });
      await expect(writer.replace('src/deeper/new.ts', null, FLINTS, 0o644)).rejects.toMatchObject({ code: 'outside-project' });
      expect(await readdir(outside.root)).toEqual([]);
    });

    it('takes its file back when the folder is moved out of the project during the write', async () => {
      await mkdir(join(outside.root, 'landing'));
      const writer = new ProjectFileWriter(project.root, { cacheFolder: cache,
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
