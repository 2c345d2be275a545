/**
 * The tree's filter, answered by main over the whole index (the renderer holds only the
 * folders on screen). A new query asks at once; a tree that changed under the same query
 * asks again after a pause, so a checkout's stream of changes costs a few searches, not one
 * per batch. Only the newest answer is shown; the last one stays while the next is on its way.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
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

interface Question {
  query: string;
  showIgnored: boolean;
}

const keyOf = ({ query, showIgnored }: Question): string => `${showIgnored}:${query}`;

/** Matches for `query` (null when it is empty: the tree shows its folders). */
export function useFileFilter(query: string, showIgnored: boolean, version: number, onError: (message: string) => void): FileFilterResult | null {
  const [result, setResult] = useState<FileFilterResult | null>(null);
  /** The question on screen now: an answer to another is dropped. */
  const latest = useRef<Question>({ query, showIgnored });
  latest.current = { query, showIgnored };
  const refresh = useRef<ReturnType<typeof setTimeout> | null>(null);
  const ask = useCallback(
    (question: Question, report: boolean) => {
      void flint.findFiles({ ...question, limit: FILTER_LIMIT }).then((answer) => {
        if (keyOf(question) !== keyOf(latest.current)) return;
        if (!answer.ok) {
          setResult({ rows: [], more: false, indexing: false });
          if (report) onError(answer.error.message);
          return;
        }
        const { entries, more, indexing } = answer.value;
        setResult({ rows: entries.map((entry) => ({ entry, name: entry.path, depth: 1, isExpanded: false })), more, indexing });
      });
    },
    [onError],
  );
  // A new question is asked at once (and its failure said).
  useEffect(() => {
    if (query !== '') ask({ query, showIgnored }, true);
  }, [query, showIgnored, ask]);
  // A changed tree asks the question on screen again once the pause is over; changes meanwhile ride on that one.
  useEffect(() => {
    if (latest.current.query === '' || refresh.current !== null) return;
    refresh.current = setTimeout(() => {
      refresh.current = null;
      if (latest.current.query !== '') ask(latest.current, false);
    }, REFRESH_DELAY_MS);
  }, [version, ask]);
  useEffect(() => () => void (refresh.current !== null && clearTimeout(refresh.current)), []);
  if (query === '') return null;
  // The last answer stays while the next is on its way (no flash of an empty list per key).
  return result ?? { rows: [], more: false, indexing: false };
}
