/**
 * The project view's column widths: the user's (remembered in localStorage, across
 * reloads and projects) fitted to the window as it is now.
 *
 * The widths are also set as CSS variables on the root element (`--tree-width`,
 * `--edit-width`): the workspace grid uses them, and so does the ask bar, which is
 * outside the workspace and sits over the file view.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { clampPaneWidths, defaultPaneWidths, paneRange, parsePaneWidths, resizePane, type Pane, type PaneWidths } from './pane-widths';

const STORAGE_KEY = 'flint.pane-widths';

export interface PaneWidthsHandle {
  shown: PaneWidths;
  rangeOf: (pane: Pane) => { min: number; max: number };
  /** Resizes a pane as shown (while dragging); `shouldRemember` stores the result. */
  resize: (pane: Pane, width: number, shouldRemember: boolean) => void;
}

export function usePaneWidths(): PaneWidthsHandle {
  const windowWidth = useWindowWidth();
  const [wanted, setWanted] = useState<PaneWidths | null>(() => parsePaneWidths(readStored()));
  const shown = useMemo(() => (wanted ? clampPaneWidths(wanted, windowWidth) : defaultPaneWidths(windowWidth)), [wanted, windowWidth]);

  useLayoutEffect(() => {
    const root = document.documentElement.style;
    root.setProperty('--tree-width', `${shown.tree}px`);
    root.setProperty('--edit-width', `${shown.edit}px`);
  }, [shown.tree, shown.edit]);
  useEffect(
    () => () => {
      document.documentElement.style.removeProperty('--tree-width');
      document.documentElement.style.removeProperty('--edit-width');
    },
    [],
  );

  const resize = useCallback(
    (pane: Pane, width: number, shouldRemember: boolean) => {
      // What the user sees becomes what they want: both columns, so a later wider window keeps them.
      const next = resizePane(pane, width, shown, windowWidth);
      setWanted(next);
      if (shouldRemember) writeStored(JSON.stringify(next));
    },
    [shown, windowWidth],
  );
  const rangeOf = useCallback((pane: Pane) => paneRange(pane, shown, windowWidth), [shown, windowWidth]);
  return { shown, rangeOf, resize };
}

function useWindowWidth(): number {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = (): void => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
}

/** Storage may be disabled or full: then the widths last until the tab closes. */
function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

function writeStored(value: string): void {
  try {
    localStorage.setItem(STORAGE_KEY, value);
  } catch {
    // Not remembered: the next start uses the defaults.
  }
}
