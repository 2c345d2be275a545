import { describe, expect, it } from 'vitest';
import { clampPaneWidths, defaultPaneWidths, EDIT_MIN, FILE_MIN, KEY_STEP, paneRange, parsePaneWidths, resizePane, SPLITTER_WIDTH, splitterKeyWidth, TREE_MIN } from './pane-widths';

/** What the file view gets: the window less both columns and both splitters. */
const fileWidth = (widths: { tree: number; edit: number }, windowWidth: number) => windowWidth - 2 * SPLITTER_WIDTH - widths.tree - widths.edit;

describe('pane widths', () => {
  it('keeps the user’s widths when the window has room for them', () => {
    expect(clampPaneWidths({ tree: 300, edit: 420 }, 1280)).toEqual({ tree: 300, edit: 420 });
  });

  it('raises a width below its minimum to the minimum', () => {
    expect(clampPaneWidths({ tree: 20, edit: 40 }, 1280)).toEqual({ tree: TREE_MIN, edit: EDIT_MIN });
  });

  it('narrows the Flint pane first when the window shrinks, so the file view keeps its minimum', () => {
    const widths = clampPaneWidths({ tree: 280, edit: 440 }, 800);
    expect(widths.tree).toBe(280);
    expect(widths.edit).toBeGreaterThanOrEqual(EDIT_MIN);
    expect(fileWidth(widths, 800)).toBe(FILE_MIN);
  });

  it('then narrows the tree to its minimum', () => {
    const widths = clampPaneWidths({ tree: 400, edit: 440 }, 700);
    expect(widths).toEqual({ tree: 700 - 2 * SPLITTER_WIDTH - FILE_MIN - EDIT_MIN, edit: EDIT_MIN });
  });

  it('lets the Flint pane go below its minimum in a window too narrow for every minimum', () => {
    const widths = clampPaneWidths({ tree: 280, edit: 440 }, 640);
    expect(widths.tree).toBe(TREE_MIN);
    expect(widths.edit).toBe(640 - 2 * SPLITTER_WIDTH - FILE_MIN - TREE_MIN);
    expect(fileWidth(widths, 640)).toBe(FILE_MIN);
  });

  it('never gives a negative width, however narrow the window', () => {
    const widths = clampPaneWidths({ tree: 280, edit: 440 }, 100);
    expect(widths.tree).toBeGreaterThanOrEqual(0);
    expect(widths.edit).toBe(0);
  });

  it('gives the file view most of the width by default, at 1280 and at 800 wide', () => {
    for (const windowWidth of [1280, 800]) {
      const widths = defaultPaneWidths(windowWidth);
      expect(fileWidth(widths, windowWidth)).toBeGreaterThan(Math.max(widths.tree, widths.edit));
    }
    expect(defaultPaneWidths(800)).toEqual({ tree: TREE_MIN, edit: EDIT_MIN });
  });

  it('lets a splitter move from the pane’s minimum up to where the file view reaches its own', () => {
    const shown = { tree: 200, edit: 300 };
    expect(paneRange('tree', shown, 1000)).toEqual({ min: TREE_MIN, max: 1000 - 2 * SPLITTER_WIDTH - FILE_MIN - 300 });
    expect(paneRange('edit', shown, 1000)).toEqual({ min: EDIT_MIN, max: 1000 - 2 * SPLITTER_WIDTH - FILE_MIN - 200 });
  });

  it('reports a pane that narrow windows pushed below its minimum as the range’s floor', () => {
    expect(paneRange('edit', { tree: TREE_MIN, edit: 200 }, 652).min).toBe(200);
  });

  it('resizes one pane within its range and leaves the other as shown', () => {
    const shown = { tree: 200, edit: 300 };
    expect(resizePane('tree', 250.4, shown, 1000)).toEqual({ tree: 250, edit: 300 });
    expect(resizePane('tree', 10, shown, 1000)).toEqual({ tree: TREE_MIN, edit: 300 });
    expect(resizePane('edit', 5000, shown, 1000)).toEqual({ tree: 200, edit: paneRange('edit', shown, 1000).max });
  });

  it('reads stored widths back, and nothing from damaged storage', () => {
    expect(parsePaneWidths('{"tree":210,"edit":330}')).toEqual({ tree: 210, edit: 330 });
    for (const stored of [null, '', '{', '[]', '{"tree":"210","edit":330}', '{"tree":-1,"edit":330}', '{"tree":210}', 'null']) {
      expect(parsePaneWidths(stored)).toBeNull();
    }
  });

  it('moves a splitter 16 px with the arrows: Right widens a pane on its left and narrows one on its right', () => {
    const range = { min: 160, max: 500 };
    expect(splitterKeyWidth('ArrowRight', 200, range, 'left')).toBe(200 + KEY_STEP);
    expect(splitterKeyWidth('ArrowLeft', 200, range, 'left')).toBe(200 - KEY_STEP);
    expect(splitterKeyWidth('ArrowRight', 300, range, 'right')).toBe(300 - KEY_STEP);
    expect(splitterKeyWidth('ArrowLeft', 300, range, 'right')).toBe(300 + KEY_STEP);
  });

  it('sends a splitter to the pane’s smallest with Home and its largest with End, and ignores other keys', () => {
    const range = { min: 160, max: 500 };
    expect(splitterKeyWidth('Home', 300, range, 'right')).toBe(160);
    expect(splitterKeyWidth('End', 300, range, 'left')).toBe(500);
    expect(splitterKeyWidth('ArrowUp', 300, range, 'left')).toBeNull();
    expect(splitterKeyWidth('a', 300, range, 'left')).toBeNull();
  });
});
