/**
 * Property: whatever happens to a project's files while its first index is built (and
 * after), once the watcher has caught up the index holds exactly what is on disk — no
 * path the scan read before it was removed comes back, no path added meanwhile is missed,
 * and a folder made, moved or removed brings everything below it along.
 *
 * Each trial makes a real tree, starts a real session whose scan reads each folder after a
 * seeded random pause (some folders are read, then held: their listing is old when it
 * lands), and meanwhile makes seeded random changes on disk: files added, rewritten,
 * removed and moved, folders made with files, moved and removed. When the changes are done,
 * a last file is written: once the index has it, every event heard before it has been
 * applied, and the index is compared with the disk.
 */
import type { Dirent } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createMemoryLogger } from '../logger';
import { ProjectSession } from './project-session';
import type { ScanFileSystem } from './tree-scanner';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Every path below the root as `path:kind`, read from disk. */
async function onDisk(root: string, folder = ''): Promise<string[]> {
  const found: string[] = [];
  for (const dirent of await readdir(folder === '' ? root : join(root, folder), { withFileTypes: true })) {
    const path = folder === '' ? dirent.name : `${folder}/${dirent.name}`;
    found.push(`${path}:${dirent.isDirectory() ? 'directory' : 'file'}`);
    if (dirent.isDirectory()) found.push(...(await onDisk(root, path)));
  }
  return found.sort();
}

/** The trial's changes: each picks among what is on disk now (the trial's own record of it). */
class Changes {
  private next = 0;
  constructor(
    private readonly project: TempProject,
    private readonly random: () => number,
    private readonly files: Set<string>,
    private readonly folders: Set<string>,
  ) {}

  private pick<T>(items: Iterable<T>): T | undefined {
    const all = [...items];
    return all.length === 0 ? undefined : all[Math.floor(this.random() * all.length)];
  }

  private fresh(prefix: string): string {
    this.next += 1;
    const folder = this.pick(['', ...this.folders])!;
    return folder === '' ? `${prefix}${this.next}` : `${folder}/${prefix}${this.next}`;
  }

  async one(): Promise<void> {
    const roll = this.random();
    const file = this.pick(this.files);
    const folder = this.pick(this.folders);
    if (roll < 0.3 || !file) {
      const path = `${this.fresh('new')}.ts`;
      await writeFile(this.project.path(path), `export const made = ${this.next};\n`);
      this.files.add(path);
    } else if (roll < 0.45) {
      await writeFile(this.project.path(file), `export const again = ${this.random()};\n`);
    } else if (roll < 0.6) {
      await rm(this.project.path(file));
      this.files.delete(file);
    } else if (roll < 0.7) {
      const to = `${this.fresh('moved')}.ts`;
      await rename(this.project.path(file), this.project.path(to));
      this.files.delete(file);
      this.files.add(to);
    } else if (roll < 0.82 || !folder) {
      const made = this.fresh('dir');
      await mkdir(this.project.path(made));
      this.folders.add(made);
      for (let index = 0; index < Math.floor(this.random() * 3); index += 1) {
        await writeFile(this.project.path(`${made}/f${index}.ts`), 'export {};\n');
        this.files.add(`${made}/f${index}.ts`);
      }
    } else if (roll < 0.91) {
      await rm(this.project.path(folder), { recursive: true });
      this.forgetBelow(folder);
    } else {
      const to = this.fresh('movedDir');
      if (to.startsWith(`${folder}/`)) return;
      await rename(this.project.path(folder), this.project.path(to));
      const movedFiles = [...this.files].filter((path) => path.startsWith(`${folder}/`));
      const movedFolders = [...this.folders].filter((path) => path === folder || path.startsWith(`${folder}/`));
      this.forgetBelow(folder);
      for (const path of movedFiles) this.files.add(to + path.slice(folder.length));
      for (const path of movedFolders) this.folders.add(to + path.slice(folder.length));
    }
  }

  private forgetBelow(folder: string): void {
    for (const set of [this.files, this.folders]) for (const path of [...set]) if (path === folder || path.startsWith(`${folder}/`)) set.delete(path);
  }
}

async function trial(seed: number): Promise<void> {
  const random = seededRandom(seed);
  const initial: Record<string, string> = {};
  const folders = new Set<string>();
  for (let a = 0; a < 4; a += 1) {
    for (let b = 0; b < 3; b += 1) {
      folders.add(`p${a}`).add(`p${a}/m${b}`);
      for (let f = 0; f < 4; f += 1) initial[`p${a}/m${b}/f${f}.ts`] = `export const n = ${f};\n`;
    }
  }
  const project = await createTempProject(initial);
  // Each folder is read after a pause, or read and then held: a read that lands late.
  const fileSystem: ScanFileSystem = {
    readdir: async (path) => {
      const delay = Math.floor(random() * (random() < 0.7 ? 10 : 100));
      if (random() < 0.5) {
        await pause(delay);
        return readdir(path, { withFileTypes: true });
      }
      const dirents: Dirent[] = await readdir(path, { withFileTypes: true });
      await pause(delay);
      return dirents;
    },
  };
  const session = new ProjectSession({ root: project.root, logger: createMemoryLogger(), fileSystem });
  try {
    const changes = new Changes(project, random, new Set(Object.keys(initial)), folders);
    const started = session.start();
    for (let step = 0; step < 24; step += 1) {
      await changes.one();
      if (random() < 0.3) await pause(Math.floor(random() * 4));
    }
    await started;
    await session.whenWatching();
    await writeFile(project.path('last.txt'), 'done\n');
    await waitFor(() => session.hasFile('last.txt'), `seed ${seed}: the last file indexed`);
    const indexed = session.entries!.map((entry) => `${entry.path}:${entry.kind}`).sort();
    expect(indexed, `seed ${seed}`).toEqual(await onDisk(project.root));
  } finally {
    await session.close();
    await project.remove();
  }
}

describe('the index while files change under the first scan', () => {
  const first = baseSeed(7301);
  const trials = trialCount(12, 200);
  it(`ends as the disk is, whatever changed while it was built (${trials} seeded trials from ${first})`, async () => {
    for (let index = 0; index < trials; index += 1) await trial(first + index);
  }, 120_000);
});
