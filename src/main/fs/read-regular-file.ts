/**
 * Reads a regular file, never more than a limit: opened non-blocking and checked on the
 * open handle, so a FIFO or a device is refused rather than waited on, and a file that
 * grows between stat and read is still caught, having read no more than the limit.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { FlintFailure } from '../../shared/result';
import { toFlintFailure } from './fs-errors';

/** O_NONBLOCK so opening a FIFO returns at once instead of waiting for a writer. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export type BoundedRead =
  /** The whole file, and its permission bits (a rewrite keeps them). */
  | { kind: 'bytes'; bytes: Uint8Array; mode: number }
  /** Over the limit: `size` is the file's size as last seen; its contents were not kept. */
  | { kind: 'too-large'; size: number };

/** `displayPath` names the file in messages (project-relative). Failures are FlintFailures. */
export async function readRegularFile(absolutePath: string, displayPath: string, limit: number): Promise<BoundedRead> {
  let handle;
  try {
    handle = await open(absolutePath, OPEN_FLAGS);
  } catch (error) {
    throw toFlintFailure(error, displayPath);
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new FlintFailure('not-a-file', `${displayPath} is a folder, not a file.`);
    if (!stats.isFile()) throw new FlintFailure('not-a-file', `${displayPath} is not a regular file (a device, socket or pipe).`);
    if (stats.size > limit) return { kind: 'too-large', size: stats.size };
    const bytes = await readAtMost(handle, limit + 1, stats.size);
    if (bytes.length > limit) return { kind: 'too-large', size: Math.max(bytes.length, (await handle.stat()).size) };
    return { kind: 'bytes', bytes, mode: stats.mode & 0o7777 };
  } catch (error) {
    throw toFlintFailure(error, displayPath);
  } finally {
    await handle.close();
  }
}

/**
 * Reads up to `max` bytes, sized for the `expected` length first. Not `readFile`: a file
 * appended to after its stat would be read whole, however large it had grown.
 */
async function readAtMost(handle: FileHandle, max: number, expected: number): Promise<Uint8Array> {
  // One byte beyond the expected size: growth shows without a second allocation. Unzeroed:
  // only the bytes read are ever returned.
  let buffer = Buffer.allocUnsafe(Math.min(max, expected + 1));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length >= max) break;
      const bigger = Buffer.allocUnsafe(Math.min(max, buffer.length * 2));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}
