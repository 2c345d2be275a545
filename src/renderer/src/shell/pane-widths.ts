/**
 * The project view's column widths: the file tree and the Flint pane are sized by the
 * user (splitters); the file view takes the rest. Pure, so the rules are tested alone.
 *
 * The file view is what the user reads: it never goes below FILE_MIN while the window
 * has room. When the window is too narrow for every minimum (Electron allows 640 px),
 * the Flint pane gives way first, then the tree.
 */

/** The user-sized columns, in CSS pixels. */
export interface PaneWidths {
  tree: number;
  edit: number;
}

/** One of the user-sized columns. */
export type Pane = keyof PaneWidths;

export const TREE_MIN = 160;
export const EDIT_MIN = 260;
export const FILE_MIN = 240;
/** Each splitter's width between the columns (two of them). */
export const SPLITTER_WIDTH = 6;
/** How far one arrow key moves a splitter. */
export const KEY_STEP = 16;

/** Widths for a first run: a share of the window, within the bounds the fixed layout had. */
export function defaultPaneWidths(windowWidth: number): PaneWidths {
  const bounded = (share: number, min: number, max: number) => Math.round(Math.min(max, Math.max(min, windowWidth * share)));
  return clampPaneWidths({ tree: bounded(0.2, TREE_MIN, 280), edit: bounded(0.32, EDIT_MIN, 440) }, windowWidth);
}

/** The widths to show for the user's `wanted` widths in a window `windowWidth` wide. */
export function clampPaneWidths(wanted: PaneWidths, windowWidth: number): PaneWidths {
  let tree = Math.max(TREE_MIN, Math.round(wanted.tree));
  let edit = Math.max(EDIT_MIN, Math.round(wanted.edit));
  let overflow = tree + edit - (columnsWidth(windowWidth) - FILE_MIN);
  // Give way in order: the Flint pane to its minimum, the tree to its minimum, then the
  // Flint pane below it, then the tree below it (a window narrower than any layout).
  const giveWay = (width: number, floor: number): number => {
    const cut = Math.max(0, Math.min(overflow, width - floor));
    overflow -= cut;
    return width - cut;
  };
  edit = giveWay(edit, EDIT_MIN);
  tree = giveWay(tree, TREE_MIN);
  edit = giveWay(edit, 0);
  tree = giveWay(tree, 0);
  return { tree, edit };
}

/** How far `pane` can be sized with the other column as shown: the splitter's aria-valuemin/max. */
export function paneRange(pane: Pane, shown: PaneWidths, windowWidth: number): { min: number; max: number } {
  const floor = Math.min(pane === 'tree' ? TREE_MIN : EDIT_MIN, shown[pane]);
  const other = pane === 'tree' ? shown.edit : shown.tree;
  return { min: floor, max: Math.max(floor, columnsWidth(windowWidth) - FILE_MIN - other) };
}

/** `pane` resized to `width` (kept within its range); the other column stays as shown. */
export function resizePane(pane: Pane, width: number, shown: PaneWidths, windowWidth: number): PaneWidths {
  const { min, max } = paneRange(pane, shown, windowWidth);
  return { ...shown, [pane]: Math.round(Math.min(max, Math.max(min, width))) };
}

/**
 * A splitter's pane width after `key`, or null for a key it leaves alone. Arrows move
 * the splitter itself: Right widens a pane on its left and narrows one on its right.
 */
export function splitterKeyWidth(key: string, width: number, range: { min: number; max: number }, side: 'left' | 'right'): number | null {
  const towardRight = side === 'left' ? KEY_STEP : -KEY_STEP;
  switch (key) {
    case 'ArrowLeft':
      return width - towardRight;
    case 'ArrowRight':
      return width + towardRight;
    case 'Home':
      return range.min;
    case 'End':
      return range.max;
    default:
      return null;
  }
}

/** Stored widths read back: both finite numbers, else nothing (a first run's defaults). */
export function parsePaneWidths(stored: string | null): PaneWidths | null {
  if (stored === null) return null;
  try {
    const value = JSON.parse(stored) as Partial<Record<Pane, unknown>>;
    const isWidth = (width: unknown): width is number => typeof width === 'number' && Number.isFinite(width) && width >= 0;
    return isWidth(value.tree) && isWidth(value.edit) ? { tree: value.tree, edit: value.edit } : null;
  } catch {
    return null;
  }
}

/** The room for the three columns: the window less the two splitters. */
function columnsWidth(windowWidth: number): number {
  return Math.max(0, windowWidth - 2 * SPLITTER_WIDTH);
}
