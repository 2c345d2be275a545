/**
 * The tree's filter, answered by main over the whole index (the renderer holds only the
 * folders on screen). A new query asks at once; a tree that changed under the same query
 * asks again after a pause, so a checkout's stream of changes costs a few searches, not one
 * per batch. Only the newest answer is shown; the last one stays while the next is on its way.
 */
import { useEffect, useRef, useState } from 'react';
import { flint } from '../../lib/flint';
import type { TreeRow } from './tree-model';

/** A filter shows at most this many matches; more means the query should be narrower. */
export const FILTER_LIMIT = 5000;
/** How long a changed tree waits before the same query is asked again. */
const REFRESH_DELAY_MS = 200;

export interface FileFilterResult {
  rows: TreeRow[];
  /** More files matched than are shown. */
  more: boolean;
  /** Main's index is still being built: nothing was searched yet. */
  indexing: boolean;
}

/** Matches for `query` (null when it is empty: the tree shows its folders). */
export function useFileFilter(query: string, showIgnored: boolean, version: number, onError: (message: string) => void): FileFilterResult | null {
  const [result, setResult] = useState<FileFilterResult | null>(null);
  const asked = useRef<string | null>(null);
  useEffect(() => {
    if (query === '') {
      asked.current = null;
      return;
    }
    const key = `${showIgnored}:${query}`;
    const delay = asked.current === key ? REFRESH_DELAY_MS : 0;
    asked.current = key;
    let live = true;
    const timer = setTimeout(() => {
      void flint.findFiles({ query, showIgnored, limit: FILTER_LIMIT }).then((answer) => {
        if (!live) return;
        if (!answer.ok) return onError(answer.error.message);
        const { entries, more, indexing } = answer.value;
        setResult({ rows: entries.map((entry) => ({ entry, name: entry.path, depth: 1, isExpanded: false })), more, indexing });
      });
    }, delay);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, showIgnored, version, onError]);
  return query === '' ? null : (result ?? { rows: [], more: false, indexing: false });
}
