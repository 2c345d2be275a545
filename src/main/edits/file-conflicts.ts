/**
 * What each kind of hunk needs of its files' existence, in one place: checked when a hunk
 * settles (against the text the model saw) and again inside the write queue (the file may
 * have changed since). Both say the same words.
 */
import type { FileOperation } from '../../shared/edits/edit-types';

export interface FileState {
  path: string;
  exists: boolean;
}

/** Why the operation cannot go ahead on these files (a conflict, never an overwrite), or null. */
export function fileConflict(kind: FileOperation | 'move', source: FileState, destination?: FileState): string | null {
  switch (kind) {
    case 'add':
      return source.exists ? alreadyExists(source.path) : null;
    case 'delete':
    case 'update':
      return source.exists ? null : missing(source.path);
    case 'move':
      if (!source.exists) return missing(source.path);
      return destination?.exists ? alreadyExists(destination.path) : null;
    default: {
      const exhaustive: never = kind;
      return exhaustive;
    }
  }
}

function alreadyExists(path: string): string {
  return `${path} already exists; Flint will not overwrite it.`;
}

function missing(path: string): string {
  return `${path} does not exist (any more).`;
}
