/**
 * The files of one open project: every path a request or a model names is resolved
 * here, under one policy, and every read of a file's contents is bounded.
 *
 * The policy has two layers. The lexical one needs no file system, so it runs on every
 * token while a model streams: no `..`, no absolute, UNC or drive-letter path, no NUL
 * or backslash. The real one resolves the deepest entry that exists, symlinks and all,
 * and the result must still be inside the root. What a path is for (its purpose) only
 * adds rules: the model's paths are untrusted, so they are held to more.
 */
import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { formatBytes } from '../../shared/format-bytes';
import { normalizeRelativePath, touchesGitFolder } from '../../shared/paths';
import type { FileContent, TextEncoding } from '../../shared/project-types';
import { FlintFailure } from '../../shared/result';
import { decodeFileText, type FileText } from './file-text';
import { errorCode, toFlintFailure } from './fs-errors';
import { readRegularFile } from './read-regular-file';
import { isInsideRoot, toPosixRelative } from './root-paths';

/** Whose path it is, which decides the rules it is held to. */
export type PathPurpose =
  /** An entry the user picked in Flint (the tree, the file view): it must exist. */
  | 'user'
  /**
   * A path whose text the model sees or changes: named in its output, or read to be
   * sent to it. It may not exist yet (a file to create), and never reaches into `.git`.
   */
  | 'model';

export interface ResolvedPath {
  /** Normalized project-relative POSIX path, as named (a symlink keeps its own name). */
  relativePath: string;
  /** Where to read and write: symlinks resolved, so a link is never replaced by a file. */
  absolutePath: string;
  /** False only for the model's paths: the tail of the path does not exist yet. */
  exists: boolean;
}

/** Files above this are described, not loaded: the view is for reading code, not logs. */
export const VIEW_SIZE_LIMIT = 2 * 1024 * 1024;

/** Files up to this size are read as text; a 10 MB file is sent as a window around the focus. */
export const TEXT_READ_LIMIT = 32 * 1024 * 1024;

/**
 * Longer model paths are refused outright: no file system takes one (Linux's PATH_MAX
 * is 4,096 bytes), and a huge path would ride along with every update of its hunks.
 */
export const MAX_MODEL_PATH_LENGTH = 4096;

/** Git's heuristic: a NUL byte in the first 8,000 bytes means binary. */
const BINARY_SNIFF_BYTES = 8000;

/** What each purpose adds to the policy. */
interface PathRules {
  /** Model output may pad a path with spaces; a user's file may really start with one. */
  trim: boolean;
  /** Longest path taken, in UTF-16 code units. */
  maxLength: number;
  /** Whether `.git` is off limits, named (however spelled) or reached through a symlink. */
  refuseGit: boolean;
  /**
   * Whether the tail of the path may be missing (a file to create). A broken or looping
   * symlink on the way is then refused: a write would go wherever it points.
   */
  mayBeMissing: boolean;
}

const RULES: Readonly<Record<PathPurpose, PathRules>> = {
  user: { trim: false, maxLength: Number.POSITIVE_INFINITY, refuseGit: false, mayBeMissing: false },
  model: { trim: true, maxLength: MAX_MODEL_PATH_LENGTH, refuseGit: true, mayBeMissing: true },
};

/** A path as shown beside a refusal: never more than 200 characters. */
export function shownPath(path: string): string {
  return path.length <= 200 ? path : `${path.slice(0, 200)}…`;
}

/**
 * The lexical part of the policy, known as soon as a path is named: the refusal in
 * words, or null. Symlinks are checked when the path is resolved.
 *
 * `.git` is recognised however Windows or macOS would spell it (`.GIT`, `.git.`,
 * `GIT~1`, `.git::$INDEX_ALLOCATION`, with zero-width characters or lookalike letters):
 * see namesGitFolder.
 */
export function lexicalRefusal(path: string, purpose: PathPurpose): string | null {
  const checked = checkLexically(path, RULES[purpose]);
  return 'refusal' in checked ? checked.refusal : null;
}

/** The normalized relative path, or a FlintFailure `outside-project` naming the refusal. */
export function relativePathOf(path: string, purpose: PathPurpose): string {
  const checked = checkLexically(path, RULES[purpose]);
  if ('refusal' in checked) throw new FlintFailure('outside-project', checked.refusal);
  return checked.relativePath;
}

function checkLexically(path: string, rules: PathRules): { relativePath: string } | { refusal: string } {
  if (path.length > rules.maxLength) return { refusal: `Refused: ${shownPath(path)} is ${path.length} characters long; no file system takes such a path.` };
  const relativePath = normalizeRelativePath(rules.trim ? path.trim() : path);
  if (relativePath === null) return { refusal: `Refused: ${JSON.stringify(shownPath(path))} is not a path inside the project (Flint refuses absolute paths and "..").` };
  if (rules.refuseGit && touchesGitFolder(relativePath)) {
    const spelledPlainly = relativePath.split('/').some((segment) => segment.toLowerCase() === '.git');
    const how = spelledPlainly ? '' : ' (Windows or macOS read that name as .git)';
    return { refusal: `Refused: ${shownPath(relativePath)} is inside .git${how}; Flint never edits repository internals.` };
  }
  return { relativePath };
}

/** One open project's files, under one path policy. */
export class ProjectFiles {
  /** `root` is the project folder's real path (symlinks resolved): every check compares against it. */
  constructor(readonly root: string) {}

  /**
   * Resolves `path` for `purpose`, or throws a FlintFailure: `outside-project` for
   * every refusal, else what the file system said (`not-found`, `permission-denied`…).
   */
  async resolve(path: string, purpose: PathPurpose): Promise<ResolvedPath> {
    const rules = RULES[purpose];
    const relativePath = relativePathOf(path, purpose);
    const { existing, missingTail } = await this.deepestExisting(relativePath, rules);
    let real: string;
    try {
      real = await realpath(existing);
    } catch (error) {
      if (rules.mayBeMissing) throw new FlintFailure('outside-project', `Refused: ${relativePath} goes through a broken or looping symlink.`);
      throw toFlintFailure(error, relativePath);
    }
    const absolutePath = join(real, ...missingTail);
    if (!isInsideRoot(this.root, absolutePath)) {
      throw new FlintFailure('outside-project', `Refused: ${relativePath} leads outside the project through a symlink.`);
    }
    if (rules.refuseGit && touchesGitFolder(toPosixRelative(this.root, absolutePath))) {
      throw new FlintFailure('outside-project', `Refused: ${relativePath} leads into .git through a symlink.`);
    }
    return { relativePath, absolutePath, exists: missingTail.length === 0 };
  }

  /** A file for the read-only view: text decoded, binary and huge files described (resolved as the user's). */
  async readForView(path: string): Promise<FileContent> {
    const target = await this.resolve(path, 'user');
    const read = await readRegularFile(target.absolutePath, target.relativePath, VIEW_SIZE_LIMIT);
    if (read.kind === 'too-large') return { kind: 'too-large', path: target.relativePath, size: read.size, limit: VIEW_SIZE_LIMIT };
    return decodeForView(target.relativePath, read.bytes);
  }

  /**
   * A file's text for the model (resolved as the model's: what it is shown, it may
   * edit), UTF-8 only; null when the file does not exist. Refusals are FlintFailures.
   */
  async readText(path: string, limit = TEXT_READ_LIMIT): Promise<FileText | null> {
    const target = await this.resolve(path, 'model');
    const read = await this.readBytes(target, limit);
    return read === null ? null : decodeFileText(read.bytes, target.relativePath);
  }

  /**
   * The bytes and mode of a resolved file, never more than `limit`; null when it does
   * not exist (also when it was deleted since it was resolved). Over the limit is a
   * FlintFailure `too-large`, not a regular file `not-a-file`.
   */
  async readBytes(target: ResolvedPath, limit = TEXT_READ_LIMIT): Promise<{ bytes: Uint8Array; mode: number } | null> {
    if (!target.exists) return null;
    let read;
    try {
      read = await readRegularFile(target.absolutePath, target.relativePath, limit);
    } catch (error) {
      if (error instanceof FlintFailure && error.code === 'not-found') return null;
      throw error;
    }
    if (read.kind === 'too-large') {
      throw new FlintFailure('too-large', `${target.relativePath} is ${formatBytes(read.size)}; Flint reads files up to ${formatBytes(limit)}.`);
    }
    return { bytes: read.bytes, mode: read.mode };
  }

  /**
   * The deepest entry on the way to `relativePath` that exists (lstat: a link counts as
   * there), and the names below it that do not. Only a purpose that allows a missing
   * tail walks up; the root itself missing is always an error.
   */
  private async deepestExisting(relativePath: string, rules: PathRules): Promise<{ existing: string; missingTail: string[] }> {
    let existing = join(this.root, ...relativePath.split('/'));
    const missingTail: string[] = [];
    for (;;) {
      try {
        await lstat(existing);
        return { existing, missingTail };
      } catch (error) {
        if (errorCode(error) !== 'ENOENT' || !rules.mayBeMissing || existing === this.root) throw toFlintFailure(error, relativePath);
        missingTail.unshift(basename(existing));
        existing = dirname(existing);
      }
    }
  }
}

/** Decodes bytes for the view: by BOM, then as strict UTF-8, then as Windows-1252 with a notice. */
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
