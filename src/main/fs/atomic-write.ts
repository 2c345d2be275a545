/**
 * Replaces a file's bytes atomically: readers see the old file or the new one, never half.
 * For Flint's own files (settings); project files another program may be saving go
 * through `ProjectFileWriter`, which never replaces a save it has not seen.
 *
 * Temp file in the same folder (so rename stays on one file system), fsync, rename,
 * then fsync the folder so the rename itself survives a power cut.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** The file's mode (an existing file's mode is the caller's to pass on; umask does not apply). */
  mode?: number;
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
