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
 * 2. Flint's folder in the OS cache directory (`~/.cache/Flint/scratch/<project>/`);
 * 3. Flint's folder in the OS temp directory kept across restarts (`/var/tmp`; `/tmp` is
 *    emptied at boot on many systems, and a crash mid-write leaves the user's file here,
 *    taken aside), only if it is the user's own and private;
 * 4. a hidden `.flint-scratch/` at the project's root holding a `.gitignore` of `*`.
 * A candidate inside the project (a home folder opened as one) is used only below a folder
 * the project never shows (`.cache`, `.git`). A folder of the project on another device (a
 * mount inside it) gets a `.flint-scratch/` at the top of that mount. Two mounts of one file
 * system share a device number but refuse renames between them (EXDEV): the writer then
 * tells the area (`refuse`), and the next candidate is used.
 *
 * Inside an area, scratch files live in a mirror of the project's folders
 * (`<area>/src/app/.main.ts.flint-<hex>.aside` for `src/app/main.ts`), so that recovery
 * after a crash knows each one's place without a manifest. Mirror folders are opened like
 * project folders (no symlink followed) and made private (0700).
 */
import { createHash } from 'node:crypto';
import { lstat, mkdir, open, readdir, readFile, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ALWAYS_HIDDEN_NAMES, SCRATCH_FOLDER_NAME } from '../../shared/paths';
import { errorCode } from './fs-errors';
import { ProjectFolder } from './project-folder';
import { isInsideRoot } from './root-paths';

/** The hidden fallback folder's name (at the project root, or at the top of a mount inside it). */
export const FALLBACK_FOLDER = SCRATCH_FOLDER_NAME;

export interface ScratchAreaOptions {
  /** Flint's scratch folder in the OS cache directory (settings/config-directory.ts decides it; tests pass their own). */
  cacheFolder?: string;
  /** The temp folder that survives a restart (default `/var/tmp`, or the OS temp folder on Windows; tests pass their own). */
  tempFolder?: string;
}

/** Where scratch files go for folders on one device, and how folders there are named in it. */
interface DeviceArea {
  /** The area's folder (absolute). */
  base: string;
  /** The project-relative folder the mirror starts at ('' at the root; a mount's top otherwise). */
  top: string;
  /** The hidden fallback inside the project: checked as a folder of the project, not as a private one. */
  fallback: boolean;
}

export class ScratchArea {
  /** The chosen area by `device:top`. */
  private readonly chosen = new Map<string, Promise<DeviceArea>>();
  /** Areas a rename into them failed with EXDEV (another mount of the same device): never chosen again. */
  private readonly refused = new Set<string>();

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
   * on the same device as `folder` (that folder, opened). An area that went away since it
   * was chosen (a cleared cache, a new `.git`) is chosen anew.
   */
  async mirror(relativePath: string, folder: ProjectFolder): Promise<ProjectFolder> {
    const device = await folder.device();
    for (let attempt = 0; ; attempt += 1) {
      const area = await this.areaFor(relativePath, device);
      try {
        return await ProjectFolder.open(area.base, insideOf(area, relativePath), { create: true, mode: 0o700 });
      } catch (error) {
        this.chosen.delete(await this.keyOf(relativePath, device));
        if (attempt > 0) throw new Error(`Flint's scratch folder ${area.base} cannot be used: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** A rename between `relativePath`'s folder and its mirror failed with EXDEV: that area is never used again. */
  async refuse(relativePath: string, folder: ProjectFolder): Promise<void> {
    const key = await this.keyOf(relativePath, await folder.device());
    const area = await this.chosen.get(key)?.catch(() => null);
    if (area) this.refused.add(area.base);
    this.chosen.delete(key);
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
      for (const area of await this.candidates(relativePath, device)) {
        if (!(await isUsable(area, device, false))) continue;
        const mirror = await ProjectFolder.open(area.base, insideOf(area, relativePath), { create: false }).catch(() => null);
        if (mirror !== null) mirrors.push(mirror);
      }
      return mirrors;
    } finally {
      await folder.close();
    }
  }

  /** Removes the empty folders of this project's mirrors (a writer closing): nothing of Flint's stays behind. */
  async prune(): Promise<void> {
    for (const pending of this.chosen.values()) {
      const area = await pending.catch(() => null);
      if (area !== null) await removeEmptyFolders(area.base);
    }
  }

  private async areaFor(relativePath: string, device: bigint): Promise<DeviceArea> {
    const key = await this.keyOf(relativePath, device);
    let area = this.chosen.get(key);
    if (!area) this.chosen.set(key, (area = this.locate(relativePath, device)));
    return area.catch((error: unknown) => {
      this.chosen.delete(key);
      throw error;
    });
  }

  /** The root's device needs no walk; a folder on another device is keyed by its mount's top too. */
  private async keyOf(relativePath: string, device: bigint): Promise<string> {
    return device === (await this.rootDevice()) ? `${device}` : `${device}:${await this.mountTop(relativePath, device)}`;
  }

  /** Picks the area for folders on `device`: the first candidate usable there (see the header for the order). */
  private async locate(relativePath: string, device: bigint): Promise<DeviceArea> {
    for (const area of await this.candidates(relativePath, device)) {
      if (!this.refused.has(area.base) && (await isUsable(area, device, true))) return area;
    }
    throw new Error(`Flint found no folder for its scratch files on the device of ${relativePath || 'the project'} (not even ${SCRATCH_FOLDER_NAME} in it).`);
  }

  /** The areas folders on `device` may use, in order; the last is the hidden fallback in the project. */
  private async candidates(relativePath: string, device: bigint): Promise<DeviceArea[]> {
    if (device !== (await this.rootDevice())) {
      const top = await this.mountTop(relativePath, device);
      return [{ base: join(this.root, top, SCRATCH_FOLDER_NAME), top, fallback: true }];
    }
    const key = createHash('sha256').update(this.root).digest('hex').slice(0, 16);
    const git = await gitFolder(this.root);
    const temp = this.options.tempFolder ?? (process.platform === 'win32' ? tmpdir() : '/var/tmp');
    const bases = [git && join(git, 'flint', key), this.options.cacheFolder && join(this.options.cacheFolder, key), join(temp, `flint-scratch-${process.getuid?.() ?? 'user'}`, key)];
    const outside = bases.filter((base): base is string => Boolean(base) && this.isOutOfSight(base as string));
    return [...outside.map((base) => ({ base, top: '', fallback: false })), { base: join(this.root, SCRATCH_FOLDER_NAME), top: '', fallback: true }];
  }

  /** Outside the project, or inside it only below a folder the project never shows. */
  private isOutOfSight(base: string): boolean {
    if (!isInsideRoot(this.root, base)) return true;
    return relative(this.root, base).split(sep).some((segment) => ALWAYS_HIDDEN_NAMES.has(segment));
  }

  private rootDevice(): Promise<bigint> {
    return stat(this.root, { bigint: true }).then((stats) => stats.dev);
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
}

/** Where `relativePath`'s mirror is inside an area. */
function insideOf(area: DeviceArea, relativePath: string): string {
  return area.top === '' ? relativePath : relativePath.slice(area.top.length + 1);
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

/** Whether an area is (or, with `create`, can be made) usable on `device`. */
async function isUsable(area: DeviceArea, device: bigint, create: boolean): Promise<boolean> {
  try {
    return area.fallback ? await fallbackUsable(area.base, device, create) : await privateUsable(area.base, device, create);
  } catch {
    return false;
  }
}

/**
 * A private folder of this user's on `device`: its last two levels are real folders (no link
 * another user put there), the user's own, and writable by no one else (a shared temp
 * folder is checked like any other).
 */
async function privateUsable(base: string, device: bigint, create: boolean): Promise<boolean> {
  if (create) await mkdir(base, { recursive: true, mode: 0o700 });
  for (const folder of [dirname(base), base]) {
    const stats = await lstat(folder, { bigint: true });
    if (!stats.isDirectory() || stats.dev !== device || !isOwnPrivate(stats)) return false;
  }
  return true;
}

/**
 * The hidden folder in the project: a real folder on `device` that is the user's (the
 * project folder around it may well be group-writable). Made without following a link a
 * cloned repository could ship under that name, with a `.gitignore` of `*` made the same way.
 */
async function fallbackUsable(base: string, device: bigint, create: boolean): Promise<boolean> {
  if (create) {
    await mkdir(base, { mode: 0o700 }).catch((error: unknown) => {
      if (errorCode(error) !== 'EEXIST') throw error;
    });
  }
  const stats = await lstat(base, { bigint: true });
  const uid = process.getuid?.();
  if (!stats.isDirectory() || stats.dev !== device || (uid !== undefined && Number(stats.uid) !== uid)) return false;
  if (create) {
    // O_CREAT | O_EXCL never follows a link: an existing name (a file, or a link planted there) is left alone.
    const handle = await open(join(base, '.gitignore'), 'wx', 0o600).catch((error: unknown) => {
      if (errorCode(error) === 'EEXIST') return null;
      throw error;
    });
    await handle?.writeFile("# Flint's scratch files (see Flint's README).\n*\n").finally(() => handle.close());
  }
  return true;
}

function isOwnPrivate(stats: { uid: bigint; mode: bigint }): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (Number(stats.uid) === uid && (Number(stats.mode) & 0o022) === 0);
}

/** Removes `folder`'s empty subfolders, and `folder` itself if it ends up empty. */
async function removeEmptyFolders(folder: string): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) if (entry.isDirectory() && !entry.isSymbolicLink()) await removeEmptyFolders(join(folder, entry.name));
  await rmdir(folder).catch(() => undefined);
}
