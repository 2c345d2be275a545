/**
 * Which project file a path the model wrote means.
 *
 * Models often name a file by its bare name (`file3.py` for `dir/file3.py`). When exactly
 * one file of the project has that name, that file is meant, and the card says so; when
 * several do, Flint refuses and lists them rather than pick one. A path with a folder,
 * or one that exists as written, is taken as written.
 */
import type { FileOperation } from '../../shared/edits/edit-types';

/** What the edits may ask of the project's index of files (kept live by the watcher). */
export interface ProjectFileNames {
  /** Whether `path` (relative to the root) is a file of the index. */
  hasFile(path: string): boolean;
  /** The indexed files called `name` (a name, no folder), wherever they are. */
  filesNamed(name: string): readonly string[];
}

export type ModelPath =
  /** The project path meant; `note` when it is not the path as written. */
  | { path: string; note?: string; writtenAs?: string }
  | { refusal: string };

/** At most this many candidates are listed in a refusal. */
const LISTED = 8;

export function resolveModelPath(named: string, operation: FileOperation, names: ProjectFileNames | undefined): ModelPath {
  // Adding a file names a new one: a bare name means the root. A delete is never of a guessed file.
  if (!names || operation !== 'update' || named.includes('/') || names.hasFile(named)) return { path: named };
  const candidates = names.filesNamed(named);
  if (candidates.length === 0) return { path: named };
  if (candidates.length === 1) {
    const [path] = candidates as [string];
    return { path, writtenAs: named, note: `The model wrote "${named}"; it is ${path}, the only file of that name in the project.` };
  }
  const listed = candidates.slice(0, LISTED).join(', ');
  const more = candidates.length > LISTED ? ` and ${candidates.length - LISTED} more` : '';
  return { refusal: `Refused: "${named}" could be any of ${candidates.length} files (${listed}${more}); Flint will not guess which. Ask again naming the folder.` };
}

/** Whether a line names a project file (as a path, or as the bare name of one or more files): for the parser's path lines. */
export function namesProjectFile(candidate: string, names: ProjectFileNames | undefined): boolean {
  if (!names) return false;
  return names.hasFile(candidate) || (!candidate.includes('/') && names.filesNamed(candidate).length > 0);
}
