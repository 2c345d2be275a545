/**
 * One provider's model list for its pickers: fetched from main (which asks the provider
 * and caches), refreshed on demand, narrowed by a filter that main applies (it may hold
 * thousands of names; at most 500 come over).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ModelListView } from '../../../../shared/inference-types';
import { flint } from '../../lib/flint';

export interface ModelListHandle {
  list: ModelListView | null;
  isLoading: boolean;
  error: string | null;
  filter: string;
  setFilter(filter: string): void;
  /** Asks the provider again. */
  refresh(): void;
}

/** Debounce for the filter: typing a name does not send a request per keystroke. */
const FILTER_DELAY_MS = 150;

export function useModelList(providerId: string, shouldLoad: boolean, revision: string): ModelListHandle {
  const [list, setList] = useState<ModelListView | null>(null);
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const latest = useRef(0);

  const load = useCallback(
    async (refresh: boolean, text: string) => {
      const request = ++latest.current;
      setLoading(true);
      const result = await flint.listModels({ providerId, ...(refresh ? { refresh } : {}), ...(text ? { filter: text } : {}) });
      // An older answer (a slower filter) never replaces a newer one.
      if (request !== latest.current) return;
      setLoading(false);
      if (result.ok) {
        setList(result.value);
        setError(null);
      } else setError(result.error.message);
    },
    [providerId],
  );

  // `revision` changes when the provider's address, models or key change: ask again.
  useEffect(() => {
    if (!shouldLoad) return;
    const timer = setTimeout(() => void load(false, filter), filter ? FILTER_DELAY_MS : 0);
    return () => clearTimeout(timer);
  }, [shouldLoad, filter, load, revision]);

  return { list, isLoading, error, filter, setFilter, refresh: () => void load(true, filter) };
}
