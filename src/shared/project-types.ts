/**
 * What the renderer knows about an open project: entries, changes, file content.
 *
 * Paths are project-relative and POSIX-style (`src/app.ts`) everywhere outside
 * main's file-system layer, so the same tree works on every OS.
 */

/** An opened project. `id` changes on every open, so late events from a closed one are dropped. */
export interface ProjectInfo {
  id: number;
  /** Absolute path of the root folder, as the OS spells it. */
  root: string;
  /** The root folder's name, for titles. */
  name: string;
}

/** The kind of a tree entry, from `lstat`: symlinks are never followed. */
export type EntryKind = 'file' | 'directory' | 'symlink';

/** Why a directory's children are not in the tree. */
export type UnlistedReason =
  /** Hidden by default (.gitignore, .git, node_modules): listed on demand, not watched. */
  | 'ignored'
  /** The OS refused to list it. */
  | 'permission-denied'
  /** Listing failed for another reason (the folder vanished, an I/O error). */
  | 'error';

/** Where a symlink points. Flint lists symlinks and never follows them. */
export interface SymlinkInfo {
  /** The link's text, as `readlink` returns it. */
  target: string;
  /** The resolved target is outside the project root. */
  escapes: boolean;
  /** What the target is: `loop` for a cycle, `missing` for a dangling link. */
  targetKind: 'file' | 'directory' | 'missing' | 'loop' | 'other';
}

export interface TreeEntry {
  /** Project-relative POSIX path; the root itself is never an entry. */
  path: string;
  kind: EntryKind;
  /** Hidden by default: excluded by a .gitignore, or inside .git / node_modules. */
  ignored?: true;
  /** Set on directories whose children are not in the tree, with the reason. */
  unlisted?: UnlistedReason;
  symlink?: SymlinkInfo;
}

/** What the tree's filter found in the whole index: the first matches in path order. */
export interface FileMatches {
  entries: TreeEntry[];
  /** More files matched than were sent: the query should be narrower. */
  more: boolean;
  /** The index is still being built: nothing is searched yet. */
  indexing: boolean;
}

/** One change to the tree, in the order it happened. Renames arrive as removed + added. */
export type TreeChange =
  /** A new entry (file, folder, or symlink). */
  | { type: 'added'; entry: TreeEntry }
  /** An entry and, for a folder, everything below it. */
  | { type: 'removed'; path: string }
  /** A file's bytes changed (saved by another program). */
  | { type: 'modified'; path: string };

/** How a text file's bytes were decoded for display. */
export type TextEncoding = 'utf-8' | 'utf-8-bom' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** A file as the read-only view shows it. Binary and oversized files are described, not loaded. */
export type FileContent =
  /** Decoded text. `notice` explains a fallback decoding. */
  | { kind: 'text'; path: string; size: number; text: string; encoding: TextEncoding; notice?: string }
  /** Contains NUL bytes (or is otherwise not text). */
  | { kind: 'binary'; path: string; size: number }
  /** Larger than the view's limit; not read. */
  | { kind: 'too-large'; path: string; size: number; limit: number };

/** How a file became the current one. */
export type CurrentFileSource =
  /** Picked in Flint (the tree, a hunk's link, a candidate the ask bar offered). */
  | 'selected'
  /** Last written by another program (the user's editor). */
  | 'saved'
  /** Named by the title of the editor window that had focus when the shortcut was pressed. */
  | 'focused';

/** One candidate for the current file. */
export interface FileCandidate {
  path: string;
  source: CurrentFileSource;
  /** The editor whose window named it (`focused`), e.g. "VS Code". */
  editor?: string;
}

/** What the focused window said, when it gave no project file: why, and the files it may have meant. */
export interface WindowNote {
  message: string;
  /** Files of the project the title could mean (a name found in several folders), to pick one. */
  candidates: string[];
}

/** Which file "the current file" is, and why. The hotkey and the ask bar act on it. */
export interface CurrentFile {
  /** Project-relative path, or null before the user has selected, saved or focused anything. */
  path: string | null;
  source: CurrentFileSource | null;
  /** When it became current (ms since epoch): a save of the same file is a new "current". */
  at: number;
  /** The editor whose focused window named it (source `focused`). */
  editor?: string;
  /** The other candidate (the focused window's file, or the one last saved or selected), which one key switches to. */
  other?: FileCandidate;
  /** The last focused-window lookup gave no file: what it found instead. */
  windowNote?: WindowNote;
}

/** Why Flint asks before it shows and watches a folder. */
export type SizeWarningReason =
  /** The user's home folder: every app's files and caches, which programs write all the time. */
  | 'home'
  /** The file system's root (`/`, `C:\`). */
  | 'root'
  /** Any folder whose first scan passed a very large number of entries. */
  | 'large';

/**
 * The OS would not watch some folders (its limit on watches was reached): they are read by
 * polling instead, the user's own folders often, the rest slowly. A state, shown for as long
 * as it lasts, not a one-time error.
 */
export interface WatchLimit {
  unwatchedFolders: number;
  /** A few of them, shallowest first. */
  examples: string[];
  /** What happened, what Flint does instead and how to raise the limit, in words. */
  message: string;
}

/**
 * A folder too large to open without asking. The scan goes on while the user reads it (its
 * progress is `project:indexing`); the tree and the watcher wait for "Open anyway", and
 * Cancel closes the project.
 */
export interface SizeWarning {
  reason: SizeWarningReason;
  /** Entries found so far (the count when the warning was last said; progress events are newer). */
  entriesFound: number;
  /** The scan is over: only the answer is awaited. */
  scanDone: boolean;
}

/** Why a project stopped being open. */
export type CloseReason =
  /** The user closed it, or opened another. */
  | 'closed'
  /** The root folder was deleted or moved away while open. */
  | 'lost';
