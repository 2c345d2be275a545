/**
 * Reads a project file for the read-only view: text decoded, binary and huge files described.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileContent, TextEncoding } from '../../shared/project-types';
import { FlintFailure } from '../../shared/result';
import { toFlintFailure } from './fs-errors';
import { resolveExistingInProject } from './path-guard';

/** Files above this are described, not loaded: the view is for reading code, not logs. */
export const VIEW_SIZE_LIMIT = 2 * 1024 * 1024;

/** Git's heuristic: a NUL byte in the first 8,000 bytes means binary. */
const BINARY_SNIFF_BYTES = 8000;

/** O_NONBLOCK so opening a FIFO returns at once instead of waiting for a writer. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** Reads `relativePath` inside the project rooted at the real path `root`. */
export async function readProjectFile(root: string, relativePath: string): Promise<FileContent> {
  const { relativePath: path, realPath } = await resolveExistingInProject(root, relativePath);
  let handle;
  try {
    handle = await open(realPath, OPEN_FLAGS);
  } catch (error) {
    throw toFlintFailure(error, path);
  }
  try {
    const stats = await handle.stat();
    // Checked on the open handle (opened non-blocking), so a FIFO or device is refused, never read.
    if (stats.isDirectory()) throw new FlintFailure('not-a-file', `${path} is a folder, not a file.`);
    if (!stats.isFile()) throw new FlintFailure('not-a-file', `${path} is not a regular file (a device, socket or pipe).`);
    if (stats.size > VIEW_SIZE_LIMIT) return { kind: 'too-large', path, size: stats.size, limit: VIEW_SIZE_LIMIT };
    const bytes = await handle.readFile();
    if (bytes.length > VIEW_SIZE_LIMIT) return { kind: 'too-large', path, size: bytes.length, limit: VIEW_SIZE_LIMIT };
    return decodeForView(path, bytes);
  } catch (error) {
    throw toFlintFailure(error, path);
  } finally {
    await handle.close();
  }
}

/** Decodes bytes by BOM, then as strict UTF-8, then as Windows-1252 with a notice. */
export function decodeForView(path: string, bytes: Uint8Array): FileContent {
  const size = bytes.length;
  const bom = detectBom(bytes);
  if (bom) {
    const text = new TextDecoder(bom.label, { ignoreBOM: false }).decode(bytes);
    return { kind: 'text', path, size, text, encoding: bom.encoding };
  }
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { kind: 'binary', path, size };
  try {
    return { kind: 'text', path, size, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return {
      kind: 'text',
      path,
      size,
      text: new TextDecoder('windows-1252').decode(bytes),
      encoding: 'windows-1252',
      notice: 'This file is not valid UTF-8; it is shown decoded as Windows-1252 (Latin-1).',
    };
  }
}

function detectBom(bytes: Uint8Array): { label: string; encoding: TextEncoding } | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { label: 'utf-8', encoding: 'utf-8-bom' };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { label: 'utf-16le', encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { label: 'utf-16be', encoding: 'utf-16be' };
  return null;
}
