/**
 * Which file of the open project an editor's window title names. The title's path-like
 * strings are tried most specific first: an absolute (or `~/`) path inside the project, a
 * relative path the index has (or that ends a single indexed path: JetBrains' `…/src/a.ts`),
 * then a base name. A base name found in several folders is the one the user last saved,
 * selected or focused; if none of them was, Flint does not guess and lists the candidates.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { WindowNote } from '../../shared/project-types';
import type { TitleReading } from '../desktop/editor-titles';
import type { ProjectFileNames } from '../edits/model-paths';

export interface TitleProject {
  root: string;
  names: ProjectFileNames;
  /** When the user last saved, selected or focused `path`, or undefined. */
  lastUsed(path: string): number | undefined;
  /**
   * The real path of an absolute path (links resolved), or null: the root is a real path, and
   * a title shows the path as the editor opened it (often through a linked folder).
   */
  realPath?: (path: string) => Promise<string | null>;
}

export type TitleFile =
  | { kind: 'file'; path: string }
  | { kind: 'ambiguous'; name: string; candidates: string[] }
  | { kind: 'outside'; path: string }
  | { kind: 'none' };

/** At most this many candidates are offered. */
const LISTED = 8;

export async function fileFromTitle(reading: TitleReading, project: TitleProject, home: string): Promise<TitleFile> {
  let fallback: TitleFile = { kind: 'none' };
  for (const named of reading.paths) {
    const found = await fileFor(named, project, home);
    if (found.kind === 'file') return found;
    // Keep the most telling miss: candidates beat "outside", which beats nothing.
    if (found.kind === 'ambiguous' || (found.kind === 'outside' && fallback.kind === 'none')) fallback = found;
  }
  return fallback;
}

/** What the ask bar says when the focused window gave no file (`editor` null: not an editor we know). */
export function windowNoteFor(result: Exclude<TitleFile, { kind: 'file' }>, editor: string | null, title: string): WindowNote {
  const where = editor ? `The focused ${editor} window` : `The focused window (“${shorten(title)}”)`;
  switch (result.kind) {
    case 'ambiguous':
      return { message: `${where} shows ${result.name}, and ${result.candidates.length} files of the project have that name: pick one.`, candidates: result.candidates };
    case 'outside':
      return { message: `${where} shows ${result.path}, which is outside the project.`, candidates: [] };
    case 'none':
      return { message: `${where} names no file of the project.`, candidates: [] };
  }
}

/**
 * What the ask bar says when the focused window belongs to an app that is no editor (a
 * browser…): its title was not read, and the last saved or selected file (`stays`) stays current.
 */
export function notAnEditorNote(app: string, stays: string | null): WindowNote {
  const name = app.charAt(0).toUpperCase() + app.slice(1);
  const message = stays === null ? `${name} is not an editor: save or select a file to ask about it.` : `${name} is not an editor: the current file stays ${stays}.`;
  return { message, candidates: [] };
}

async function fileFor(named: string, project: TitleProject, home: string): Promise<TitleFile> {
  const { names } = project;
  const path = named.replace(/\\/g, '/');
  if (/^(?:~\/|\/|[A-Za-z]:\/)/.test(path)) {
    const absolute = resolve(path.startsWith('~/') ? `${home}/${path.slice(2)}` : path);
    // As written first; then with links resolved (a project opened through a linked folder).
    const inside = insideRoot(project.root, absolute) ?? insideRoot(project.root, (await project.realPath?.(absolute)) ?? null);
    if (inside === null) return { kind: 'outside', path: named };
    return names.hasFile(inside) ? { kind: 'file', path: inside } : { kind: 'none' };
  }
  const clean = path.replace(/^\.\//, '');
  if (clean.split('/').includes('..')) return { kind: 'outside', path: named };
  if (names.hasFile(clean)) return { kind: 'file', path: clean };
  const name = clean.slice(clean.lastIndexOf('/') + 1);
  if (name === '') return { kind: 'none' };
  // A relative path the index lacks may still end one indexed path (a title that drops the first folders).
  const candidates = clean.includes('/') ? names.filesNamed(name).filter((candidate) => candidate.endsWith(`/${clean}`)) : names.filesNamed(name);
  if (candidates.length === 0) return { kind: 'none' };
  if (candidates.length === 1) return { kind: 'file', path: candidates[0]! };
  return mostRecent(candidates, project) ?? { kind: 'ambiguous', name: clean, candidates: [...candidates].sort().slice(0, LISTED) };
}

/** `absolute` relative to `root` ('/'-separated), or null when it is not strictly inside. */
function insideRoot(root: string, absolute: string | null): string | null {
  if (absolute === null) return null;
  const inside = relative(root, absolute);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return null;
  return inside.split(sep).join('/');
}

function mostRecent(candidates: readonly string[], project: TitleProject): TitleFile | null {
  let best: { path: string; at: number } | null = null;
  for (const path of candidates) {
    const at = project.lastUsed(path);
    if (at !== undefined && (best === null || at > best.at)) best = { path, at };
  }
  return best ? { kind: 'file', path: best.path } : null;
}

function shorten(title: string): string {
  return title.length > 60 ? `${title.slice(0, 57)}…` : title;
}
