/**
 * Which folders of the tree are open, kept across a reload of the tab (per project), and
 * their listings: main sends a folder's children as it opens. An open folder the model
 * has not listed (after a reload, a new tree, or a folder shown again) is asked for as
 * soon as it is on view.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { isStringList, recall, remember } from '../../lib/tab-memory';
import type { TreeEntry } from '../../../../shared/project-types';
import { flint } from '../../lib/flint';
import type { TreeModel } from './tree-model';

export interface TreeExpansion {
  expanded: ReadonlySet<string>;
  /** Opens or closes a folder (`open` omitted: the other way round); other entries are left alone. */
  toggle: (entry: TreeEntry, open?: boolean) => Promise<void>;
  /** Ticks when a listing came in: the rows must be drawn again. */
  listings: number;
}

export function useTreeExpansion(model: TreeModel, version: number, onError: (message: string) => void, projectRoot: string): TreeExpansion {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(recall('expanded', projectRoot, isStringList)));
  // Another project: its own folders, as this tab last left them.
  const [root, setRoot] = useState(projectRoot);
  if (root !== projectRoot) {
    setRoot(projectRoot);
    setExpanded(new Set(recall('expanded', projectRoot, isStringList)));
  }
  useEffect(() => remember('expanded', root, [...expanded]), [root, expanded]);
  const [listings, setListings] = useState(0);
  const listed = useCallback(() => setListings((count) => count + 1), []);
  const list = useFolderListing(model, onError, listed);
  useEffect(() => {
    // Open folders whose parent is listed and open (or the top level): on view, so listed now
    // (quietly: one gone meanwhile just stays closed).
    for (const path of expanded) {
      const entry = model.get(path);
      if (entry && model.needsListing(entry) && isOnView(path, expanded)) void list(entry, false);
    }
  }, [model, version, listings, expanded, list]);
  const toggle = useCallback(
    async (entry: TreeEntry, open?: boolean) => {
      if (entry.kind !== 'directory' || entry.unlisted === 'permission-denied' || entry.unlisted === 'error') return;
      const willOpen = open ?? !expanded.has(entry.path);
      if (willOpen && model.needsListing(entry) && !(await list(entry, true))) return;
      setExpanded((current) => {
        const next = new Set(current);
        if (willOpen) next.add(entry.path);
        else next.delete(entry.path);
        return next;
      });
    },
    [expanded, model, list],
  );
  return { expanded, toggle, listings };
}

/** Lists a folder, one request at a time per folder; false if main could not (said through `onError` if `report`). */
function useFolderListing(model: TreeModel, onError: (message: string) => void, onListed: () => void): (entry: TreeEntry, report: boolean) => Promise<boolean> {
  const asked = useRef(new Map<string, Promise<string | null>>());
  return useCallback(
    async (entry: TreeEntry, report: boolean) => {
      const key = `${model.generation}:${entry.path}`;
      let listing = asked.current.get(key);
      if (!listing) {
        const generation = model.generation;
        listing = flint.listDirectory({ path: entry.path }).then((result) => {
          asked.current.delete(key);
          if (!result.ok) return result.error.message;
          model.addListed(entry.path, result.value, generation);
          onListed();
          return null;
        });
        asked.current.set(key, listing);
      }
      const failure = await listing;
      if (failure !== null && report) onError(failure);
      return failure === null;
    },
    [model, onError, onListed],
  );
}

/** Whether every folder above `path` is open (the top level always is on view). */
function isOnView(path: string, expanded: ReadonlySet<string>): boolean {
  for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
    if (!expanded.has(path.slice(0, slash))) return false;
  }
  return true;
}
