/**
 * Which folders of the tree are open, kept across a reload of the tab (per project).
 * Opening a folder whose children were never listed (a hidden one, listed on demand)
 * asks main for them first.
 */
import { useCallback, useEffect, useState } from 'react';
import { isStringList, recall, remember } from '../../lib/tab-memory';
import type { TreeEntry } from '../../../../shared/project-types';
import { flint } from '../../lib/flint';
import type { TreeModel } from './tree-model';

export interface TreeExpansion {
  expanded: ReadonlySet<string>;
  /** Opens or closes a folder (`open` omitted: the other way round); other entries are left alone. */
  toggle: (entry: TreeEntry, open?: boolean) => Promise<void>;
}

export function useTreeExpansion(model: TreeModel, onError: (message: string) => void, projectRoot: string): TreeExpansion {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(recall('expanded', projectRoot, isStringList)));
  // Another project: its own folders, as this tab last left them.
  const [root, setRoot] = useState(projectRoot);
  if (root !== projectRoot) {
    setRoot(projectRoot);
    setExpanded(new Set(recall('expanded', projectRoot, isStringList)));
  }
  useEffect(() => remember('expanded', root, [...expanded]), [root, expanded]);
  const toggle = useCallback(
    async (entry: TreeEntry, open?: boolean) => {
      if (entry.kind !== 'directory' || entry.unlisted === 'permission-denied' || entry.unlisted === 'error') return;
      const willOpen = open ?? !expanded.has(entry.path);
      if (willOpen && model.needsListing(entry)) {
        const result = await flint.listDirectory({ path: entry.path });
        if (!result.ok) return onError(result.error.message);
        model.addListed(entry.path, result.value);
      }
      setExpanded((current) => {
        const next = new Set(current);
        if (willOpen) next.add(entry.path);
        else next.delete(entry.path);
        return next;
      });
    },
    [expanded, model, onError],
  );
  return { expanded, toggle };
}
