/**
 * Lists a project's entries fast, without following symlinks.
 *
 * The scan reads folders with bounded concurrency and never `stat`s plain files,
 * which is what keeps a 50,000-file open under budget. Hidden folders (.git,
 * node_modules, .gitignore'd) are listed as one entry each and not descended into.
 * Unreadable folders become entries marked `unlisted`, never a failed scan; only
 * an unreadable root fails.
 */
import type { Dirent } from 'node:fs';
import { lstat, readFile, readdir, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { EntryKind, SymlinkInfo, TreeEntry } from '../../shared/project-types';
import { errorCode, toFlintFailure } from '../fs/fs-errors';
import { IgnoreRules } from './ignore-rules';
import { isInsideRoot } from '../fs/root-paths';

/** The file-system calls a scan makes that tests may replace (to simulate EACCES as root). */
export interface ScanFileSystem {
  readdir(path: string): Promise<Dirent[]>;
}

export const nodeScanFileSystem: ScanFileSystem = {
  readdir: (path) => readdir(path, { withFileTypes: true }),
};

export interface ScanOptions {
  /** Real path of the project root. */
  root: string;
  /** Called with the number of entries found so far, at most every `progressIntervalMs`. */
  onProgress?: (entriesFound: number) => void;
  progressIntervalMs?: number;
  fileSystem?: ScanFileSystem;
  /** Checked before each folder is read: a cancelled scan (the project closed) ends early, with what it found. */
  isCancelled?: () => boolean;
  /** Called once the root is read, before anything below it: the top level can be shown at once. */
  onTopLevel?: (entries: TreeEntry[], rules: IgnoreRules) => void;
  /** Where to start ('' for the root, the default): a new folder's contents are scanned alone. Its own entry is not among the entries. */
  folder?: string;
  /** The rules to apply and add each .gitignore to (by default, fresh ones from .git/info/exclude). */
  rules?: IgnoreRules;
  /** Called just before a folder is read (the watcher watches it then: what changes after the read is reported). */
  beforeRead?: (folder: string) => void;
  /** Called with each folder's entries as they are read. */
  onFound?: (folder: string, entries: TreeEntry[]) => void;
}

export interface ScanResult {
  entries: TreeEntry[];
  /** The ignore rules met on the way (every .gitignore read), for the watcher. */
  rules: IgnoreRules;
}

/** How many folders are read at once: enough to hide latency, few enough for 2 cores. */
const CONCURRENT_READS = 16;

/** Scans the whole project. Throws a `FlintFailure` only if the root cannot be read. */
export async function scanProject(options: ScanOptions): Promise<ScanResult> {
  const { root, onProgress, progressIntervalMs = 50, folder: start = '', beforeRead, onFound } = options;
  const fileSystem = options.fileSystem ?? nodeScanFileSystem;
  const rules = options.rules ?? (await loadRootRules(root));
  const entries: TreeEntry[] = [];
  let lastProgress = Date.now();
  const read = (folder: string): Promise<TreeEntry[]> => {
    beforeRead?.(folder);
    return listFolder(root, folder, rules, fileSystem);
  };

  const topEntries = await read(start).catch((error: unknown) => {
    throw toFlintFailure(error, start === '' ? root : start);
  });
  options.onTopLevel?.(topEntries, rules);
  const pending: TreeEntry[] = [];
  const collect = (folder: string, found: TreeEntry[]): void => {
    onFound?.(folder, found);
    for (const entry of found) {
      entries.push(entry);
      if (entry.kind === 'directory' && entry.unlisted === undefined) pending.push(entry);
    }
  };
  collect(start, topEntries);

  await new Promise<void>((done, failed) => {
    let active = 0;
    const pump = (): void => {
      // A closed project stops reading (`/` would otherwise be read to the end).
      if (options.isCancelled?.()) pending.length = 0;
      if (active === 0 && pending.length === 0) return done();
      while (active < CONCURRENT_READS && pending.length > 0) {
        const folder = pending.pop()!;
        active += 1;
        read(folder.path)
          .then((found) => collect(folder.path, found), (error: unknown) => {
            folder.unlisted = errorCode(error) === 'EACCES' || errorCode(error) === 'EPERM' ? 'permission-denied' : 'error';
          })
          .then(() => {
            active -= 1;
            if (onProgress && Date.now() - lastProgress >= progressIntervalMs) {
              lastProgress = Date.now();
              onProgress(entries.length);
            }
            pump();
          })
          .catch(failed);
      }
    };
    pump();
  });
  onProgress?.(entries.length);
  return { entries, rules };
}

/**
 * Lists one folder's children (reading its .gitignore first, so its rules apply).
 *
 * Used by the scan, by the watcher for new folders, and on demand for hidden folders.
 */
export async function listFolder(
  root: string,
  folder: string,
  rules: IgnoreRules,
  fileSystem: ScanFileSystem = nodeScanFileSystem,
): Promise<TreeEntry[]> {
  const absoluteFolder = folder === '' ? root : join(root, folder);
  const dirents = await fileSystem.readdir(absoluteFolder);
  if (dirents.some((dirent) => dirent.name === '.gitignore' && dirent.isFile())) {
    const text = await readFile(join(absoluteFolder, '.gitignore'), 'utf8').catch(() => '');
    rules.add(folder, text);
  }
  const entries: TreeEntry[] = [];
  const symlinks: Promise<void>[] = [];
  for (const dirent of dirents) {
    const path = folder === '' ? dirent.name : `${folder}/${dirent.name}`;
    const entry = classifyEntry(path, kindOf(dirent), rules);
    if (entry.kind === 'symlink') {
      symlinks.push(
        describeSymlink(root, join(absoluteFolder, dirent.name)).then((info) => {
          entry.symlink = info;
        }),
      );
    }
    entries.push(entry);
  }
  await Promise.all(symlinks);
  return entries;
}

/**
 * Describes one existing path from `lstat`, for entries the watcher reports.
 *
 * Returns null if it vanished before it could be described.
 */
export async function describeEntry(root: string, path: string, rules: IgnoreRules): Promise<TreeEntry | null> {
  const absolutePath = join(root, ...path.split('/'));
  let stats;
  try {
    stats = await lstat(absolutePath);
  } catch {
    return null;
  }
  const entry = classifyEntry(path, kindOf(stats), rules);
  if (entry.kind === 'symlink') entry.symlink = await describeSymlink(root, absolutePath);
  return entry;
}

/** The one place that decides how an entry is marked hidden. */
function classifyEntry(path: string, kind: EntryKind, rules: IgnoreRules): TreeEntry {
  const entry: TreeEntry = { path, kind };
  if (rules.isInsideIgnoredDirectory(path) || rules.isIgnored(path, kind === 'directory')) {
    entry.ignored = true;
    if (kind === 'directory') entry.unlisted = 'ignored';
  }
  return entry;
}

function kindOf(item: { isSymbolicLink(): boolean; isDirectory(): boolean }): EntryKind {
  return item.isSymbolicLink() ? 'symlink' : item.isDirectory() ? 'directory' : 'file';
}

/** Where a symlink points, without following it for listing. */
export async function describeSymlink(root: string, absolutePath: string): Promise<SymlinkInfo> {
  let target = '';
  try {
    target = await readlink(absolutePath);
    const real = await realpath(absolutePath);
    const targetStats = await stat(real);
    return {
      target,
      escapes: !isInsideRoot(root, real),
      targetKind: targetStats.isDirectory() ? 'directory' : targetStats.isFile() ? 'file' : 'other',
    };
  } catch (error) {
    const lexical = resolve(dirname(absolutePath), target);
    return {
      target,
      escapes: !isInsideRoot(root, lexical),
      targetKind: errorCode(error) === 'ELOOP' ? 'loop' : 'missing',
    };
  }
}

/** The rules before any .gitignore: the `exclude` setting's patterns, then .git/info/exclude (the lowest-precedence source git reads). */
export async function loadRootRules(root: string, patterns: readonly string[] = []): Promise<IgnoreRules> {
  const rules = new IgnoreRules();
  if (patterns.length > 0) rules.add('', patterns.join('\n'));
  const exclude = await readFile(join(root, '.git', 'info', 'exclude'), 'utf8').catch(() => '');
  if (exclude) rules.add('', exclude);
  return rules;
}
