/**
 * Reads a project file as text for the model: inside the project only (symlinks
 * checked), UTF-8 only, and never more than a size limit.
 */
import { FlintFailure } from '../../shared/result';
import { decodeFileText, type FileText } from '../edits/file-text';
import { resolveModelPath } from '../edits/model-path';
import { formatBytes } from '../../shared/format-bytes';
import { readRegularFile } from '../fs/read-regular-file';

/** Files up to this size are read; a 10 MB file is sent as a window around the focus. */
export const TEXT_READ_LIMIT = 32 * 1024 * 1024;

/** The file's text, or null when it does not exist. Refusals are FlintFailures with a message. */
export async function readProjectText(root: string, path: string, limit = TEXT_READ_LIMIT): Promise<FileText | null> {
  const target = await resolveModelPath(root, path);
  if (!target.exists) return null;
  let read;
  try {
    read = await readRegularFile(target.absolutePath, target.relativePath, limit);
  } catch (error) {
    // Deleted between the check and the read: as missing as if it never was.
    if (error instanceof FlintFailure && error.code === 'not-found') return null;
    throw error;
  }
  if (read.kind === 'too-large') {
    throw new FlintFailure('too-large', `${target.relativePath} is ${formatBytes(read.size)}; Flint reads files up to ${formatBytes(limit)}.`);
  }
  return decodeFileText(read.bytes, target.relativePath);
}
