/**
 * A file taken out of its name for a moment so that Flint knows exactly which bytes it
 * replaces: renamed aside (atomic), then read through a handle that stays open, so a
 * writer that still holds the file open is seen if it writes again.
 */
import { constants } from 'node:fs';
import { link, lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { errorCode } from '../project/fs-errors';
import type { ProjectFolder } from './project-folder';

/** O_NOFOLLOW: a symlink put under the name is captured as a link, never read through. */
const CAPTURE_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Identity and content stamp of a file: inode, size, modification time in ns. */
export type FileStamp = string;

export function stampOf(stats: BigIntStats): FileStamp {
  return `${stats.ino}:${stats.size}:${stats.mtimeNs}`;
}

export interface CapturedFile {
  /** Its name while aside, in the same folder. */
  readonly aside: string;
  /** A regular file (not a link, folder or device put under the name). */
  readonly isFile: boolean;
  readonly bytes: Uint8Array;
  readonly stamp: FileStamp;
  /** Whether anyone wrote into it since it was read: stamp, then bytes (mtime ticks are coarse). */
  changedSinceRead(): Promise<boolean>;
  close(): Promise<void>;
}

/** Renames `name` aside and reads it; null if there is no such name (any more). */
export async function captureFile(folder: ProjectFolder, name: string): Promise<CapturedFile | null> {
  const aside = scratchName(name, 'aside');
  try {
    await rename(folder.entry(name), folder.entry(aside));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  let handle: FileHandle;
  try {
    handle = await open(folder.entry(aside), CAPTURE_FLAGS);
  } catch (error) {
    if (errorCode(error) !== 'ELOOP') throw error;
    const stats = await lstat(folder.entry(aside), { bigint: true });
    return { aside, isFile: false, bytes: new Uint8Array(), stamp: stampOf(stats), changedSinceRead: async () => false, close: async () => undefined };
  }
  const before = await handle.stat({ bigint: true });
  const bytes = before.isFile() ? await readAll(handle) : new Uint8Array();
  const after = await handle.stat({ bigint: true });
  // A write during the read may have torn it: such a capture never equals what Flint expects.
  const torn = stampOf(before) !== stampOf(after);
  return {
    aside,
    isFile: before.isFile() && !torn,
    bytes,
    stamp: stampOf(after),
    changedSinceRead: async () => {
      const now = await handle.stat({ bigint: true });
      if (stampOf(now) !== stampOf(after)) return true;
      return !Buffer.from(await readAll(handle)).equals(Buffer.from(bytes));
    },
    close: () => handle.close(),
  };
}

/**
 * Puts a captured file back under its name. If something else took the name meanwhile,
 * the captured bytes are kept under a visible name beside it, which is returned.
 */
export async function putBack(folder: ProjectFolder, name: string, captured: CapturedFile): Promise<string | undefined> {
  try {
    await link(folder.entry(captured.aside), folder.entry(name));
  } catch (error) {
    // A folder (put under the name in a race) cannot be hard-linked: rename it back, unless the name was taken again.
    if (errorCode(error) === 'EPERM' && !captured.isFile) return renameBackUnlessTaken(folder, name, captured.aside);
    if (errorCode(error) !== 'EEXIST') throw error;
    return keepBeside(folder, name, captured.aside);
  }
  await unlink(folder.entry(captured.aside));
  return undefined;
}

/**
 * A late writer's bytes are in `captured`, and Flint's file (`ourStamp`; null when Flint
 * deleted it) is under the name: the writer's save wins. Returns where its bytes were
 * kept if they could not go back under the name (someone saved again meanwhile).
 */
export async function restoreOverOurs(folder: ProjectFolder, name: string, captured: CapturedFile, ourStamp: FileStamp | null): Promise<string | undefined> {
  if (ourStamp === null) return putBack(folder, name, captured);
  const ours = scratchName(name, 'aside');
  try {
    await rename(folder.entry(name), folder.entry(ours));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return putBack(folder, name, captured);
    throw error;
  }
  const stats = await lstat(folder.entry(ours), { bigint: true });
  if (stampOf(stats) === ourStamp) {
    await unlink(folder.entry(ours));
    return putBack(folder, name, captured);
  }
  // Not Flint's any more: another save landed. It goes back; the late bytes are kept beside.
  const keptOther = await putBack(folder, name, { ...captured, aside: ours });
  const kept = await keepBeside(folder, name, captured.aside);
  return keptOther ?? kept;
}

async function renameBackUnlessTaken(folder: ProjectFolder, name: string, aside: string): Promise<string | undefined> {
  const taken = await lstat(folder.entry(name)).then(() => true, () => false);
  if (taken) return folder.display(aside);
  await rename(folder.entry(aside), folder.entry(name));
  return undefined;
}

/** Renames a scratch file to a visible `name.flint-kept-<time>[-n]` so the user finds it. */
async function keepBeside(folder: ProjectFolder, name: string, scratch: string): Promise<string> {
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : '';
  const time = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  for (let attempt = 0; ; attempt += 1) {
    const kept = `${stem}.flint-kept-${time}${attempt === 0 ? '' : `-${attempt}`}${extension}`;
    try {
      // link + unlink: never replaces an existing file, unlike rename.
      await link(folder.entry(scratch), folder.entry(kept));
      await unlink(folder.entry(scratch));
      return folder.display(kept);
    } catch (error) {
      if (errorCode(error) !== 'EEXIST' || attempt > 100) throw error;
    }
  }
}

/** A hidden scratch name beside `name` that no one else uses: `.name.flint-<random>.<kind>`. */
export function scratchName(name: string, kind: 'tmp' | 'aside'): string {
  return `.${name}.flint-${randomBytes(6).toString('hex')}.${kind}`;
}

/** Whether a file name is one of Flint's scratch names (hidden from the tree and the watcher's users). */
export function isScratchName(name: string): boolean {
  if (!name.startsWith('.')) return false;
  const kind = name.endsWith('.tmp') ? '.tmp' : name.endsWith('.aside') ? '.aside' : null;
  if (kind === null) return false;
  const marker = name.length - kind.length - 12 - '.flint-'.length;
  return marker > 1 && name.startsWith('.flint-', marker) && /^[0-9a-f]{12}$/.test(name.slice(marker + 7, marker + 19));
}

async function readAll(handle: FileHandle): Promise<Uint8Array> {
  const { size } = await handle.stat();
  const buffer = Buffer.alloc(Number(size));
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  // A file that grew during the read is caught by the stamps around it.
  return buffer.subarray(0, offset);
}

/** Writes `bytes` to a new hidden temp file beside `name` (exclusive create), synced, with `mode`. */
export async function writeTemporary(folder: ProjectFolder, name: string, bytes: Uint8Array, mode: number): Promise<{ name: string; stamp: FileStamp }> {
  const temporary = scratchName(name, 'tmp');
  const handle = await open(folder.entry(temporary), constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
  try {
    // open() applies the umask; chmod makes the mode exactly the original's.
    await handle.chmod(mode);
    await handle.writeFile(bytes);
    await handle.sync();
    return { name: temporary, stamp: stampOf(await handle.stat({ bigint: true })) };
  } catch (error) {
    await handle.close();
    await unlink(folder.entry(temporary)).catch(() => undefined);
    throw error;
  } finally {
    // Closing twice (after the catch) only rejects, and that is ignored.
    await handle.close().catch(() => undefined);
  }
}
