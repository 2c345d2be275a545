/**
 * Reads a project file as text for the model: inside the project only (symlinks
 * checked), UTF-8 only, and never more than a size limit.
 */
import { open } from 'node:fs/promises';
import { FlintFailure } from '../../shared/result';
import { decodeFileText, type FileText } from '../edits/file-text';
import { resolveModelPath } from '../edits/model-path';
import { errorCode } from '../project/fs-errors';

/** Files up to this size are read; a 10 MB file is sent as a window around the focus. */
export const TEXT_READ_LIMIT = 32 * 1024 * 1024;

/** The file's text, or null when it does not exist. Refusals are FlintFailures with a message. */
export async function readProjectText(root: string, path: string, limit = TEXT_READ_LIMIT): Promise<FileText | null> {
  const target = await resolveModelPath(root, path);
  if (!target.exists) return null;
  let handle;
  try {
    handle = await open(target.absolutePath, 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    if (errorCode(error) === 'EISDIR') throw new FlintFailure('not-a-file', `${target.relativePath} is a folder.`);
    throw new FlintFailure('io-error', `Cannot read ${target.relativePath}: ${errorCode(error) ?? String(error)}.`);
  }
  try {
    const { size } = await handle.stat();
    if (size > limit) {
      throw new FlintFailure('too-large', `${target.relativePath} is ${formatBytes(size)}; Flint reads files up to ${formatBytes(limit)}.`);
    }
    // Read what is there now: the file may grow between stat and read.
    const bytes = await handle.readFile();
    if (bytes.length > limit) throw new FlintFailure('too-large', `${target.relativePath} is over ${formatBytes(limit)}.`);
    return decodeFileText(bytes, target.relativePath);
  } finally {
    await handle.close();
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} MB`;
}
