/**
 * A project folder opened for writing, openat-style: every name Flint writes is resolved
 * through a handle on the folder it checked, never through the path again.
 *
 * Why: a path checked and then used can be swapped in between — `sub/` replaced by a
 * symlink to a folder outside the project sends a write there. On Linux each step opens
 * the next folder relative to the previous handle (`/proc/self/fd/N/name`) with
 * O_NOFOLLOW, so a link put anywhere on the way is refused, and the writes land in the
 * folder that was checked. Where the OS has no /proc (macOS, Windows) the same walk is
 * done with lstat on paths, and the folder's real path is re-checked after the write:
 * a swap in that instant is detected afterwards instead of prevented.
 */
import { constants, existsSync } from 'node:fs';
import { lstat, mkdir, open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { touchesGitFolder } from '../../shared/paths';
import { FlintFailure } from '../../shared/result';
import { errorCode } from './fs-errors';
import { isInsideRoot, toPosixRelative } from './root-paths';

const PROC_FD = '/proc/self/fd';
const HAS_PROC_FD = process.platform === 'linux' && existsSync(PROC_FD);
const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0);

export class ProjectFolder {
  private constructor(
    private readonly root: string,
    /** The folder's project-relative POSIX path ('' for the root). */
    readonly relativePath: string,
    private readonly handle: FileHandle | null,
  ) {}

  /**
   * Opens `relativePath` (a real path: no symlinks in it) under the real `root`,
   * creating missing folders when `create` is set. A link or a file where a folder was
   * is refused as `outside-project`.
   */
  static async open(root: string, relativePath: string, options: { create: boolean; mode?: number }): Promise<ProjectFolder> {
    const segments = relativePath === '' ? [] : relativePath.split('/');
    const mode = options.mode ?? 0o777;
    if (!HAS_PROC_FD) return ProjectFolder.openByPath(root, relativePath, segments, options.create, mode);
    let handle = await open(root, FOLDER_FLAGS).catch((error: unknown) => {
      throw refusal(relativePath, error);
    });
    try {
      for (const segment of segments) {
        const next: string = `${PROC_FD}/${handle.fd}/${segment}`;
        const child = await openFolder(next, options.create, relativePath, mode);
        await handle.close();
        handle = child;
      }
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new ProjectFolder(root, relativePath, handle);
  }

  private static async openByPath(root: string, relativePath: string, segments: string[], create: boolean, mode: number): Promise<ProjectFolder> {
    let path = root;
    for (const segment of segments) {
      path = join(path, segment);
      const stats = await lstat(path).catch(async (error: unknown) => {
        if (!create || errorCode(error) !== 'ENOENT') throw refusal(relativePath, error);
        await mkdir(path, mode);
        return lstat(path);
      });
      if (!stats.isDirectory()) throw refusal(relativePath, null);
    }
    return new ProjectFolder(root, relativePath, null);
  }

  /** The path to use for `name` inside this folder: through the handle where the OS allows. */
  entry(name: string): string {
    return this.handle ? `${PROC_FD}/${this.handle.fd}/${name}` : join(this.root, ...this.relativePath.split('/').filter(Boolean), name);
  }

  /** Project-relative path of `name` in this folder, for messages. */
  display(name: string): string {
    return this.relativePath === '' ? name : `${this.relativePath}/${name}`;
  }

  /**
   * Whether the folder is still inside the project, outside .git. Checked after a write:
   * a folder moved out of the project while Flint wrote into it is caught here.
   */
  async isStillInside(): Promise<boolean> {
    let where: string;
    try {
      where = this.handle ? await readlink(`${PROC_FD}/${this.handle.fd}`) : await realpath(this.entry(''));
    } catch {
      return false;
    }
    if (!isInsideRoot(this.root, where)) return false;
    return !touchesGitFolder(toPosixRelative(this.root, where));
  }

  /** The device the folder is on (a rename or link works only within one). */
  async device(): Promise<bigint> {
    const stats = this.handle ? await this.handle.stat({ bigint: true }) : await stat(this.entry(''), { bigint: true });
    return stats.dev;
  }

  /** Makes the folder's new entries durable (best effort: not every platform can fsync a folder). */
  async sync(): Promise<void> {
    try {
      if (this.handle) await this.handle.sync();
      else {
        const handle = await open(this.entry(''), 'r');
        await handle.sync().finally(() => handle.close());
      }
    } catch {
      // Not supported here; the rename itself is still atomic.
    }
  }

  async close(): Promise<void> {
    await this.handle?.close();
  }
}

async function openFolder(path: string, create: boolean, relativePath: string, mode: number): Promise<FileHandle> {
  try {
    return await open(path, FOLDER_FLAGS);
  } catch (error) {
    if (!create || errorCode(error) !== 'ENOENT') throw refusal(relativePath, error);
  }
  await mkdir(path, mode).catch((error: unknown) => {
    if (errorCode(error) !== 'EEXIST') throw refusal(relativePath, error);
  });
  return open(path, FOLDER_FLAGS).catch((error: unknown) => {
    throw refusal(relativePath, error);
  });
}

/** ELOOP / ENOTDIR: a link or a file stands where a folder was. Anything else is an I/O failure. */
function refusal(relativePath: string, error: unknown): FlintFailure {
  const code = error === null ? 'ENOTDIR' : errorCode(error);
  const where = relativePath === '' ? 'the project folder' : relativePath;
  if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'EMLINK') {
    return new FlintFailure('outside-project', `Refused: ${where} is no longer a folder inside the project (a link or a file took its place).`);
  }
  if (code === 'ENOENT') return new FlintFailure('not-found', `${where} no longer exists.`);
  return new FlintFailure('io-error', `Cannot open ${where}: ${error instanceof Error ? error.message : String(error)}`);
}
