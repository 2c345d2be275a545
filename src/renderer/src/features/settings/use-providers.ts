/**
 * Providers and keys for the settings screen. Keys only go in (set); nothing brings them back.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ConnectionTestResult, ProvidersState } from '../../../../shared/inference-types';
import { flint } from '../../lib/flint';

export interface ProvidersHandle {
  state: ProvidersState | null;
  /** Per provider: the last test result, or 'testing'. */
  tests: Record<string, ConnectionTestResult | 'testing'>;
  error: string | null;
  saveKey(providerId: string, key: string): Promise<boolean>;
  removeKey(providerId: string): Promise<void>;
  activate(providerId: string): Promise<void>;
  test(providerId: string): Promise<void>;
}

export function useProviders(): ProvidersHandle {
  const [state, setState] = useState<ProvidersState | null>(null);
  const [tests, setTests] = useState<Record<string, ConnectionTestResult | 'testing'>>({});
  const [error, setError] = useState<string | null>(null);

  const apply = useCallback((result: Awaited<ReturnType<typeof flint.getProviders>>): boolean => {
    if (result.ok) {
      setState(result.value);
      setError(null);
    } else {
      setError(result.error.message);
    }
    return result.ok;
  }, []);

  useEffect(() => {
    void flint.getProviders({}).then(apply);
  }, [apply]);

  return {
    state,
    tests,
    error,
    saveKey: async (providerId, key) => apply(await flint.setApiKey({ providerId, key })),
    removeKey: async (providerId) => void apply(await flint.deleteApiKey({ providerId })),
    activate: async (providerId) => void apply(await flint.setActiveProvider({ providerId })),
    test: async (providerId) => {
      setTests((current) => ({ ...current, [providerId]: 'testing' }));
      const result = await flint.testConnection({ providerId });
      const outcome: ConnectionTestResult = result.ok ? result.value : { ok: false, message: result.error.message };
      setTests((current) => ({ ...current, [providerId]: outcome }));
      void flint.getProviders({}).then(apply);
    },
  };
}
