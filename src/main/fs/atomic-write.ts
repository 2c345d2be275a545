/**
 * Replaces a file's bytes atomically: readers see the old file or the new one, never half.
 *
 * Temp file in the same folder (so rename stays on one file system), fsync, rename,
 * then fsync the folder so the rename itself survives a power cut.
 */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** The file's mode (an existing file's mode is the caller's to pass on; umask does not apply). */
  mode?: number;
  /**
   * The bytes the file must still hold just before it is replaced (null: it must not
   * exist). If another program wrote it meanwhile, nothing is replaced and
   * `FileChangedError` is thrown: the user's save wins.
   */
  unchangedFrom?: Uint8Array | null;
}

/** The file changed between reading it and replacing it; it was left as it is. */
export class FileChangedError extends Error {
  constructor(readonly path: string) {
    super(`${path} changed while Flint was writing it; your version was kept.`);
    this.name = 'FileChangedError';
  }
}

export async function writeFileAtomic(path: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const folder = dirname(path);
  const temporary = join(folder, `.${basename(path)}.flint-${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', options.mode ?? 0o644);
  try {
    // open() applies the umask; chmod makes the mode exactly the original's.
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await handle.close();
  try {
    if (options.unchangedFrom !== undefined) {
      const current = await readFile(path).catch((error: { code?: string }) => {
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      const same = current === null || options.unchangedFrom === null ? current === options.unchangedFrom : Buffer.from(current).equals(Buffer.from(options.unchangedFrom));
      if (!same) throw new FileChangedError(path);
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  await syncFolder(folder);
}

/** Best effort: some platforms (Windows) cannot open a folder for fsync. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Not supported here; the rename is still atomic.
  }
}
