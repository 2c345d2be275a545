/**
 * Where the streaming edit parser is, and what an open hunk's unfinished line will be
 * (the preview the screen shows before the line is whole).
 */
import { countWork } from '../work-meter';
import type { HunkLine } from './edit-types';

/** Where the parser is. */
export type ParserMode =
  /** Outside any edit: lines are prose. */
  | 'prose'
  /** Inside a V4A envelope, between file sections. */
  | 'patch'
  /** Inside `*** Update File:`; hunks follow. */
  | 'update'
  /** Inside `*** Add File:`; `+` lines follow. */
  | 'add'
  /** In a search/replace block, before `=======`. */
  | 'search'
  /** In a search/replace block, after `=======`. */
  | 'replace';

/**
 * The line a hunk's unfinished text will be, if it can already tell: a prefixed line of a
 * patch section, or a line of a search/replace block. Never what could still turn out to be
 * a marker (`***`, `@@`, `=======`, `>>>>>>>`, `<<<<<<<`) or a code fence.
 */
export function previewLine(mode: ParserMode, text: string): HunkLine | null {
  countWork(text.length);
  const trimmed = text.trimStart();
  // Only spaces so far may still be a padded marker.
  if (trimmed === '') return null;
  if (mode === 'search' || mode === 'replace') {
    if (/^[=<>`~]/.test(trimmed)) return null;
    return { kind: mode === 'search' ? 'remove' : 'add', text };
  }
  if (trimmed.startsWith('*') || trimmed.startsWith('`') || trimmed.startsWith('~')) return null;
  const prefix = text[0];
  if (mode === 'add') return prefix === '+' ? { kind: 'add', text: text.slice(1) } : null;
  if (mode !== 'update') return null;
  if (prefix === ' ') return { kind: 'context', text: text.slice(1) };
  if (prefix === '-') return { kind: 'remove', text: text.slice(1) };
  if (prefix === '+') return { kind: 'add', text: text.slice(1) };
  return null;
}
