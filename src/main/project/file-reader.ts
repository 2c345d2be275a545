/**
 * Reads a project file for the read-only view: text decoded, binary and huge files described.
 */
import type { FileContent, TextEncoding } from '../../shared/project-types';
import { readRegularFile } from '../fs/read-regular-file';
import { resolveExistingInProject } from './path-guard';

/** Files above this are described, not loaded: the view is for reading code, not logs. */
export const VIEW_SIZE_LIMIT = 2 * 1024 * 1024;

/** Git's heuristic: a NUL byte in the first 8,000 bytes means binary. */
const BINARY_SNIFF_BYTES = 8000;

/** Reads `relativePath` inside the project rooted at the real path `root`. */
export async function readProjectFile(root: string, relativePath: string): Promise<FileContent> {
  const { relativePath: path, realPath } = await resolveExistingInProject(root, relativePath);
  const read = await readRegularFile(realPath, path, VIEW_SIZE_LIMIT);
  if (read.kind === 'too-large') return { kind: 'too-large', path, size: read.size, limit: VIEW_SIZE_LIMIT };
  return decodeForView(path, read.bytes);
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
