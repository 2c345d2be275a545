/**
 * The tree's active row (the keyboard cursor, `aria-activedescendant`) and its keys.
 * The active row is kept by path, so it survives rows coming and going.
 */
import { useCallback, useState, type KeyboardEvent, type RefObject } from 'react';
import type { TreeRow } from './tree-model';
import { pageRows, treeKeyCommand } from './tree-navigation';
import type { TreeExpansion } from './use-tree-expansion';

export interface TreeNavigationOptions {
  rows: readonly TreeRow[];
  /** The scrolling tree element: its height sets the page size. */
  scrollRef: RefObject<HTMLDivElement | null>;
  toggle: TreeExpansion['toggle'];
  onOpenFile: (path: string) => void;
}

export interface TreeNavigation {
  /** The active row's index in `rows`, or -1. */
  activeIndex: number;
  /** What a click on a row does: make it active, and open the file or open or close the folder. */
  open: (row: TreeRow) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  /** Makes the first row active when none is (the tree takes focus). */
  ensureActiveRow: () => void;
}

export function useTreeNavigation({ rows, scrollRef, toggle, onOpenFile }: TreeNavigationOptions): TreeNavigation {
  const [activePath, setActivePath] = useState<string | null>(null);
  const activeIndex = rows.findIndex((row) => row.entry.path === activePath);

  const open = useCallback(
    (row: TreeRow) => {
      setActivePath(row.entry.path);
      if (row.entry.kind === 'directory') void toggle(row.entry);
      else onOpenFile(row.entry.path);
    },
    [onOpenFile, toggle],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    const command = treeKeyCommand(event.key, rows, activeIndex, () => pageRows(scrollRef.current?.clientHeight));
    if (command === null) return;
    switch (command.type) {
      case 'move':
        setActivePath(command.path);
        break;
      case 'expand':
      case 'collapse':
        void toggle(command.entry, command.type === 'expand');
        break;
      case 'open':
        open(command.row);
        break;
      case 'none':
        break;
      default: {
        const exhaustive: never = command;
        return exhaustive;
      }
    }
    event.preventDefault();
  };

  const ensureActiveRow = (): void => {
    if (activeIndex < 0 && rows[0]) setActivePath(rows[0].entry.path);
  };
  return { activeIndex, open, onKeyDown, ensureActiveRow };
}
