/**
 * Reads a regular file, never more than a limit: opened non-blocking and checked on the
 * open handle, so a FIFO or a device is refused rather than waited on, and a file that
 * grows between stat and read is still caught.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { FlintFailure } from '../../shared/result';
import { toFlintFailure } from './fs-errors';

/** O_NONBLOCK so opening a FIFO returns at once instead of waiting for a writer. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export type BoundedRead = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'too-large'; size: number };

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
    const bytes = await handle.readFile();
    return bytes.length > limit ? { kind: 'too-large', size: bytes.length } : { kind: 'bytes', bytes };
  } catch (error) {
    throw toFlintFailure(error, displayPath);
  } finally {
    await handle.close();
  }
}
