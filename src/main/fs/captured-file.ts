/**
 * A file taken out of its name for a moment so that Flint knows exactly which bytes it
 * replaces: renamed aside (atomic), then read through a handle that stays open, so a
 * writer that still holds the file open is seen if it writes again.
 *
 * Scratch files live in the file's mirror folder in the scratch area (scratch-area.ts), on
 * the same file system but out of the user's project. Their names, `.name.flint-<12 hex>.<kind>`, by kind:
 * - `tmp`: Flint's next version, being written;
 * - `aside`: the captured file while the name is free (a crash here: put it back);
 * - `grace`: the replaced file after a finished write, watched for a late writer (a crash
 *   here: the write happened; keep the bytes only if no journal knows them);
 * - `ours`: Flint's own file taken back out while a late writer's save is put back.
 */
import { constants } from 'node:fs';
import { link, lstat, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { errorCode } from './fs-errors';
import { sameBytes } from './same-bytes';
import type { ProjectFolder } from './project-folder';

/** O_NOFOLLOW: a symlink put under the name is captured as a link, never read through. */
const CAPTURE_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

export type ScratchKind = 'tmp' | 'aside' | 'grace' | 'ours';
const SCRATCH_KINDS: readonly ScratchKind[] = ['tmp', 'aside', 'grace', 'ours'];
const MARKER = '.flint-';
const HEX_LENGTH = 12;

/**
 * Which file, in which state: inode, size, modification time in ns. Unlike a `FileStamp`
 * of read-settled, it leaves out ctime, which renames and links change: a file taken
 * aside and put back is still the same file in the same state.
 */
export type InodeStamp = string;

export function stampOf(stats: Pick<BigIntStats, 'ino' | 'size' | 'mtimeNs'>): InodeStamp {
  return `${stats.ino}:${stats.size}:${stats.mtimeNs}`;
}

/**
 * Where a write happens: the file's folder, its name there, and the scratch folder (on the
 * same device) that holds the write's scratch files.
 */
export interface SwapPlace {
  folder: ProjectFolder;
  name: string;
  scratch: ProjectFolder;
}

export interface CapturedFile {
  /** Its name in the scratch folder (renamed from `aside` to `grace` once the write is done). */
  aside: string;
  /** A regular file of the expected size: only such a capture can hold the expected bytes. */
  readonly plausible: boolean;
  /**
   * Reads it whole and compares with the expected bytes (a write during the read counts
   * as a difference). Called after Flint's file is in place, so the name is free only
   * for the few calls of the capture itself.
   */
  matches(): Promise<boolean>;
  /** Whether anyone wrote into it since `matches` read it: stamp, then bytes (mtime ticks are coarse). */
  changedSinceRead(): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Renames `name` aside and looks at it (no read yet); null if there is no such name
 * (any more). On any failure after the rename the file is put back before the error is
 * thrown: a capture never leaves the user's file under a hidden name.
 */
export async function captureFile(place: SwapPlace, expected: Uint8Array): Promise<CapturedFile | null> {
  const { folder, name, scratch } = place;
  const aside = scratchName(name, 'aside');
  try {
    await rename(folder.entry(name), scratch.entry(aside));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  let handle: FileHandle | null = null;
  try {
    handle = await open(scratch.entry(aside), CAPTURE_FLAGS).catch((error: unknown) => {
      // ELOOP: a symlink was put under the name. It is captured as what it is, and put back.
      if (errorCode(error) === 'ELOOP') return null;
      throw error;
    });
    if (handle === null) return { aside, plausible: false, matches: async () => false, changedSinceRead: async () => false, close: async () => undefined };
    const opened = handle;
    const first = await opened.stat({ bigint: true });
    // Compared by size first: a file swapped for a huge one is never read whole.
    const plausible = first.isFile() && Number(first.size) === expected.length;
    let read: { bytes: Uint8Array; stamp: InodeStamp } | null = null;
    return {
      aside,
      plausible,
      matches: async () => {
        if (!plausible) return false;
        const before = await opened.stat({ bigint: true });
        const bytes = await readAll(opened);
        const after = await opened.stat({ bigint: true });
        read = { bytes, stamp: stampOf(after) };
        return stampOf(before) === stampOf(after) && sameBytes(bytes, expected);
      },
      changedSinceRead: async () => {
        if (read === null) return true;
        const now = await opened.stat({ bigint: true });
        if (stampOf(now) !== read.stamp) return true;
        return !sameBytes(await readAll(opened), read.bytes);
      },
      close: () => opened.close(),
    };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await putBack(place, aside).catch(() => undefined);
    throw error;
  }
}

/**
 * Puts a scratch file back under the place's name. If something else took the name
 * meanwhile, the scratch file is kept beside it under a visible name, which is returned.
 */
export async function putBack(place: SwapPlace, scratch: string): Promise<string | undefined> {
  if (!(await placeUnlessTaken({ folder: place.scratch, name: scratch }, { folder: place.folder, name: place.name }))) return keepBeside(place, scratch);
  await unlink(place.scratch.entry(scratch)).catch(() => undefined);
  return undefined;
}

/** A name in an opened folder. */
export interface FolderEntry {
  folder: ProjectFolder;
  name: string;
}

/**
 * Gives the file at `from` the name `to` unless `to` exists: link(2), which fails if the
 * name is taken. Where the file system has no hard links (exFAT, FAT32, some network
 * mounts) or `from` is a folder, a rename after checking the name is free: a save landing
 * in between those two calls is the one window left there.
 */
export async function placeUnlessTaken(from: FolderEntry, to: FolderEntry): Promise<boolean> {
  try {
    await link(from.folder.entry(from.name), to.folder.entry(to.name));
    return true;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK' && code !== 'ENOSYS') throw error;
  }
  if (await exists(to.folder.entry(to.name))) return false;
  await rename(from.folder.entry(from.name), to.folder.entry(to.name));
  return true;
}

/**
 * A write is taken back before it was reported done: the captured file (the user's) goes
 * back under the name — over Flint's file (`ourStamp`) if that is still there and still
 * Flint's; if another save took the name meanwhile, that save stays and the captured bytes
 * are kept beside. Returns where bytes were kept beside the name, if anywhere.
 */
export async function rollBack(place: SwapPlace, captured: string, ourStamp: InodeStamp | null): Promise<string | undefined> {
  if (ourStamp === null) return putBack(place, captured);
  const taken = await takeOurs(place, ourStamp);
  return taken === 'absent' || taken === 'ours' ? putBack(place, captured) : keepBoth(place, captured, taken);
}

/**
 * A late writer's bytes, found in the captured file after the write was reported done: they
 * go back under the name only over Flint's own file, unchanged (the writer's save is newer
 * than Flint's write). Anything else under the name is newer than they are — another save,
 * another write — and stays; after a delete (Flint's, or anyone's since) the name stays
 * empty: the bytes never replace a newer state and never bring a deleted file back. They
 * are then kept beside, visibly, and that is returned.
 */
export async function returnLateBytes(place: SwapPlace, captured: string, ourStamp: InodeStamp | null): Promise<string | undefined> {
  if (ourStamp === null) return keepBeside(place, captured);
  const taken = await takeOurs(place, ourStamp);
  if (taken === 'absent') return keepBeside(place, captured);
  if (taken === 'ours') return putBack(place, captured);
  return keepBoth(place, captured, taken);
}

/**
 * Takes the file under the name aside if it is Flint's (`ours`, unlinked: its bytes are
 * in the journal); a file that is not Flint's is left aside under the returned scratch
 * name for the caller to put back; 'absent' when the name holds nothing.
 */
async function takeOurs(place: SwapPlace, ourStamp: InodeStamp): Promise<'absent' | 'ours' | { other: string }> {
  const ours = scratchName(place.name, 'ours');
  try {
    await rename(place.folder.entry(place.name), place.scratch.entry(ours));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 'absent';
    throw error;
  }
  const stats = await lstat(place.scratch.entry(ours), { bigint: true });
  if (stampOf(stats) !== ourStamp) return { other: ours };
  await unlink(place.scratch.entry(ours));
  return 'ours';
}

/** Not Flint's file under the name: it goes back, and the captured bytes are kept beside. */
async function keepBoth(place: SwapPlace, captured: string, taken: { other: string }): Promise<string> {
  const keptOther = await putBack(place, taken.other);
  const kept = await keepBeside(place, captured);
  return keptOther === undefined ? kept : `${kept} and ${keptOther}`;
}

/** Links a scratch file to a visible `stem.flint-kept-<time>[-n].ext` beside the file, so the user finds it. */
export async function keepBeside(place: SwapPlace, scratch: string): Promise<string> {
  const { folder, name } = place;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const extension = dot > 0 ? name.slice(dot) : '';
  const time = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  for (let attempt = 0; ; attempt += 1) {
    const kept = `${stem}.flint-kept-${time}${attempt === 0 ? '' : `-${attempt}`}${extension}`;
    if (await placeUnlessTaken({ folder: place.scratch, name: scratch }, { folder, name: kept })) {
      await unlink(place.scratch.entry(scratch)).catch(() => undefined);
      return folder.display(kept);
    }
    if (attempt > 100) throw new Error(`Could not find a free name beside ${folder.display(name)}.`);
  }
}

/** A hidden scratch name for `name` that no one else uses: `.name.flint-<random>.<kind>`. */
export function scratchName(name: string, kind: ScratchKind): string {
  return `.${name}${MARKER}${randomBytes(HEX_LENGTH / 2).toString('hex')}.${kind}`;
}

/** The same scratch file under another kind (`.aside` → `.grace`): one random part per capture. */
export function renamedKind(scratch: string, kind: ScratchKind): string {
  return `${scratch.slice(0, scratch.lastIndexOf('.'))}.${kind}`;
}

/** The kind and the file's own name, if `name` is one of Flint's scratch names; else null. */
export function parseScratchName(name: string): { kind: ScratchKind; of: string } | null {
  if (!name.startsWith('.')) return null;
  const kind = SCRATCH_KINDS.find((candidate) => name.endsWith(`.${candidate}`));
  if (kind === undefined) return null;
  const markerAt = name.length - kind.length - 1 - HEX_LENGTH - MARKER.length;
  if (markerAt < 2 || !name.startsWith(MARKER, markerAt)) return null;
  const hex = name.slice(markerAt + MARKER.length, markerAt + MARKER.length + HEX_LENGTH);
  return /^[0-9a-f]{12}$/.test(hex) ? { kind, of: name.slice(1, markerAt) } : null;
}

/** Whether a file name is one of Flint's scratch names (hidden from the tree). */
export function isScratchName(name: string): boolean {
  return parseScratchName(name) !== null;
}

export async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

async function readAll(handle: FileHandle): Promise<Uint8Array> {
  const { size } = await handle.stat();
  const buffer = Buffer.alloc(size);
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesRead } = await handle.read(buffer, offset, buffer.length - offset, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  // A file that grew during the read is caught by the stamps around it.
  return buffer.subarray(0, offset);
}

/** Writes `bytes` to a new temp file in the place's scratch folder (exclusive create), synced, with `mode`. */
export async function writeTemporary(place: SwapPlace, bytes: Uint8Array, mode: number): Promise<{ name: string; stamp: InodeStamp }> {
  const temporary = scratchName(place.name, 'tmp');
  const entry = place.scratch.entry(temporary);
  const handle = await open(entry, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
  try {
    // open() applies the umask; chmod makes the mode exactly the original's.
    await handle.chmod(mode);
    await handle.writeFile(bytes);
    await handle.sync();
    return { name: temporary, stamp: stampOf(await handle.stat({ bigint: true })) };
  } catch (error) {
    await unlink(entry).catch(() => undefined);
    throw error;
  } finally {
    await handle.close();
  }
}
