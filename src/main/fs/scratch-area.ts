/**
 * Where Flint keeps the scratch files of a write — its next version being written, the
 * user's file taken aside, the replaced file kept for the grace period — so that none of
 * them sits in the user's project, where `git status`, `git add -A`, a build watcher or
 * rsync would pick it up.
 *
 * A rename or a link needs source and target on one file system, so the area must be on
 * the device of the folder written. In order of preference:
 * 1. inside the repository's git folder (`.git/flint/<project>/`; `.git` may also be a
 *    `gitdir:` file, as in worktrees): git never lists it, and it is near the files;
 * 2. Flint's folder in the OS cache directory (`~/.cache/Flint/scratch/<project>/`), which
 *    survives a restart (a crash mid-write leaves the user's file there, taken aside);
 * 3. Flint's folder in the OS temp directory, only if it is the user's own and private;
 * 4. a hidden `.flint-scratch/` at the project's root holding a `.gitignore` of `*`.
 * A folder of the project on another device (a mount inside it) gets a `.flint-scratch/`
 * at the top of that mount, also with its `.gitignore`.
 *
 * Inside an area, scratch files live in a mirror of the project's folders
 * (`<area>/src/app/.main.ts.flint-<hex>.aside` for `src/app/main.ts`), so that recovery
 * after a crash knows each one's place without a manifest. Mirror folders are opened like
 * project folders (no symlink followed) and made private (0700).
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { errorCode } from './fs-errors';
import { ProjectFolder } from './project-folder';

/** The hidden fallback folder's name (at the project root, or at the top of a mount inside it). */
export const FALLBACK_FOLDER = '.flint-scratch';

export interface ScratchAreaOptions {
  /** Flint's scratch folder in the OS cache directory (settings/config-directory.ts decides it; tests pass their own). */
  cacheFolder?: string;
}

/** Where scratch files go for folders on one device, and how folders there are named in it. */
interface DeviceArea {
  /** The area's folder (absolute, real). */
  base: string;
  /** The project-relative folder the mirror starts at ('' at the root; a mount's top otherwise). */
  top: string;
}

export class ScratchArea {
  private readonly byDevice = new Map<bigint, Promise<DeviceArea>>();

  private constructor(
    /** The project's real root. */
    readonly root: string,
    private readonly options: ScratchAreaOptions,
  ) {}

  /** The area of the project at `root`; folders are created when first written into. */
  static for(root: string, options: ScratchAreaOptions = {}): ScratchArea {
    return new ScratchArea(root, options);
  }

  /**
   * The scratch folder for the project folder `relativePath`, opened (created if missing),
   * on the same device as `folder` (that folder, opened).
   */
  async mirror(relativePath: string, folder: ProjectFolder): Promise<ProjectFolder> {
    const device = await folder.device();
    let area = this.byDevice.get(device);
    if (!area) this.byDevice.set(device, (area = this.locate(relativePath, device)));
    const { base, top } = await area.catch((error: unknown) => {
      this.byDevice.delete(device);
      throw error;
    });
    const inside = top === '' ? relativePath : relativePath.slice(top.length + 1);
    return ProjectFolder.open(base, inside, { create: true, mode: 0o700 });
  }

  /**
   * Every existing mirror of `relativePath`, in any area this project may have used (the
   * preferred one can change between runs: a `git init`, a cache moved), without creating
   * any: for recovery after a crash.
   */
  async existingMirrors(relativePath: string): Promise<ProjectFolder[]> {
    const folder = await ProjectFolder.open(this.root, relativePath, { create: false }).catch(() => null);
    if (folder === null) return [];
    const mirrors: ProjectFolder[] = [];
    try {
      const device = await folder.device();
      for (const { base, top } of await this.candidates(relativePath, device)) {
        if (!(await usableOn(base, device, false))) continue;
        const inside = top === '' ? relativePath : relativePath.slice(top.length + 1);
        const mirror = await ProjectFolder.open(base, inside, { create: false }).catch(() => null);
        if (mirror !== null) mirrors.push(mirror);
      }
      return mirrors;
    } finally {
      await folder.close();
    }
  }

  /** Picks the area for folders on `device`: the first candidate usable there (see the header for the order). */
  private async locate(relativePath: string, device: bigint): Promise<DeviceArea> {
    const candidates = await this.candidates(relativePath, device);
    for (const candidate of candidates.slice(0, -1)) {
      if (await usableOn(candidate.base, device, true)) return candidate;
    }
    const last = candidates.at(-1)!;
    await this.makeFallback(last.base);
    return last;
  }

  /** The areas folders on `device` may use, in order; the last is the hidden fallback in the project. */
  private async candidates(relativePath: string, device: bigint): Promise<DeviceArea[]> {
    const rootDevice = (await stat(this.root, { bigint: true })).dev;
    if (device !== rootDevice) {
      const top = await this.mountTop(relativePath, device);
      return [{ base: join(this.root, top, FALLBACK_FOLDER), top }];
    }
    const key = createHash('sha256').update(this.root).digest('hex').slice(0, 16);
    const git = await gitFolder(this.root);
    const bases = [git && join(git, 'flint', key), this.options.cacheFolder && join(this.options.cacheFolder, key), join(privateTempFolder(), key), join(this.root, FALLBACK_FOLDER)];
    return bases.filter((base): base is string => Boolean(base)).map((base) => ({ base, top: '' }));
  }

  /** The top folder of the mount `relativePath` is on, inside the project ('' if none is higher). */
  private async mountTop(relativePath: string, device: bigint): Promise<string> {
    const segments = relativePath === '' ? [] : relativePath.split('/');
    let top = relativePath;
    for (let length = segments.length - 1; length >= 0; length -= 1) {
      const candidate = segments.slice(0, length).join('/');
      const stats = await lstat(join(this.root, candidate), { bigint: true }).catch(() => null);
      if (stats === null || stats.dev !== device) break;
      top = candidate;
    }
    return top;
  }

  /** Makes the hidden fallback folder, with a `.gitignore` of `*` so that git never lists it. */
  private async makeFallback(base: string): Promise<void> {
    await mkdir(base, { recursive: true, mode: 0o700 });
    await writeFile(join(base, '.gitignore'), "# Flint's scratch files (see Flint's README).\n*\n", { flag: 'wx' }).catch((error: unknown) => {
      if (errorCode(error) !== 'EEXIST') throw error;
    });
  }
}

/** The project's git folder (its own, or the enclosing repository's), if it is a real folder. */
async function gitFolder(root: string): Promise<string | null> {
  for (let folder = root; ; folder = dirname(folder)) {
    const dotGit = join(folder, '.git');
    const stats = await lstat(dotGit).catch(() => null);
    if (stats?.isDirectory()) return dotGit;
    if (stats?.isFile()) {
      // A worktree or submodule: `gitdir: <path>`.
      const pointer = /^gitdir: (.+)$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''))?.[1]?.trim();
      if (!pointer) return null;
      const target = isAbsolute(pointer) ? pointer : resolve(folder, pointer);
      return (await lstat(target).catch(() => null))?.isDirectory() ? target : null;
    }
    if (dirname(folder) === folder) return null;
  }
}

/** `flint-scratch-<uid>` in the temp directory: another user could create it first, so it is checked before use. */
function privateTempFolder(): string {
  return join(tmpdir(), `flint-scratch-${process.getuid?.() ?? 'user'}`);
}

/**
 * Whether `base` is (or can be made) a private folder of this user's on `device`: its last
 * two levels are real folders (no link another user put there), the user's own, and
 * writable by no one else (a shared temp folder is checked like any other).
 */
async function usableOn(base: string, device: bigint, create: boolean): Promise<boolean> {
  try {
    if (create) await mkdir(base, { recursive: true, mode: 0o700 });
    for (const folder of [dirname(base), base]) {
      const stats = await lstat(folder, { bigint: true });
      if (!stats.isDirectory() || stats.dev !== device) return false;
      const uid = process.getuid?.();
      if (uid !== undefined && (Number(stats.uid) !== uid || (Number(stats.mode) & 0o022) !== 0)) return false;
    }
    return true;
  } catch {
    return false;
  }
}
