/**
 * What a key does in the file tree (the ARIA tree pattern): arrows, Home/End and
 * PageUp/PageDown move the active row, Right opens a folder (or steps into it), Left
 * closes it (or steps out to the parent), Enter and Space do what a click does. Pure:
 * the hook carries the command out.
 */
import { parentPath } from '../../../../shared/paths';
import type { TreeEntry } from '../../../../shared/project-types';
import type { TreeRow } from './tree-model';

/** Every row is this tall (px): the virtual list and paging rely on it. */
export const ROW_HEIGHT = 22;

export type TreeKeyCommand =
  /** Make the row with this path the active one. */
  | { type: 'move'; path: string }
  /** Show the folder's children. */
  | { type: 'expand'; entry: TreeEntry }
  /** Hide the folder's children. */
  | { type: 'collapse'; entry: TreeEntry }
  /** What a click does: open the file, or open or close the folder. */
  | { type: 'open'; row: TreeRow }
  /** The key belongs to the tree but has nothing to do here (the edge, a file on Right). */
  | { type: 'none' };

const NONE: TreeKeyCommand = { type: 'none' };

/**
 * The command for `key` with the row at `activeIndex` active (-1: none yet), or null
 * for a key the tree leaves alone. `pageRows` is read only for PageUp and PageDown.
 */
export function treeKeyCommand(key: string, rows: readonly TreeRow[], activeIndex: number, pageRows: () => number): TreeKeyCommand | null {
  const current = rows[activeIndex];
  const moveTo = (index: number): TreeKeyCommand => {
    const row = rows[Math.max(0, Math.min(rows.length - 1, index))];
    return row ? { type: 'move', path: row.entry.path } : NONE;
  };
  switch (key) {
    case 'ArrowDown':
      return moveTo(activeIndex + 1);
    case 'ArrowUp':
      return moveTo(activeIndex < 0 ? 0 : activeIndex - 1);
    case 'Home':
      return moveTo(0);
    case 'End':
      return moveTo(rows.length - 1);
    case 'PageDown':
      return moveTo(activeIndex + pageRows());
    case 'PageUp':
      return moveTo(activeIndex - pageRows());
    case 'ArrowRight':
      if (current?.entry.kind !== 'directory') return NONE;
      return current.isExpanded ? moveTo(activeIndex + 1) : { type: 'expand', entry: current.entry };
    case 'ArrowLeft':
      if (current?.isExpanded) return { type: 'collapse', entry: current.entry };
      if (current && parentPath(current.entry.path) !== '') return { type: 'move', path: parentPath(current.entry.path) };
      return NONE;
    case 'Enter':
    case ' ':
      return current ? { type: 'open', row: current } : NONE;
    default:
      return null;
  }
}

/** How many rows PageUp/PageDown move: a screenful less one, at least one. */
export function pageRows(clientHeight: number | undefined): number {
  return Math.max(1, Math.floor((clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
}
