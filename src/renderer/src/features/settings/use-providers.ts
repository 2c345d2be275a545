/**
 * Providers and keys for the settings screen. Keys only go in (set); nothing brings them back.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ConnectionTestResult, KeyWithheldReason, ModelSlot, ProviderDraft, ProvidersState } from '../../../../shared/inference-types';
import { flint } from '../../lib/flint';

export interface ProvidersHandle {
  state: ProvidersState | null;
  /** Per provider: the last test result, or 'testing'. */
  tests: Record<string, ConnectionTestResult | 'testing'>;
  error: string | null;
  saveKey(providerId: string, key: string): Promise<boolean>;
  removeKey(providerId: string): Promise<void>;
  /** Lets a held-back key go to the provider's address, for the reason it was held back. */
  allowKey(providerId: string, reason: KeyWithheldReason, origin: string): Promise<void>;
  activate(providerId: string): Promise<void>;
  test(providerId: string): Promise<void>;
  /** Adds (no id) or edits a provider; resolves to main's refusal in words, or null when saved. */
  saveProvider(providerId: string | null, draft: ProviderDraft): Promise<string | null>;
  removeProvider(providerId: string): Promise<void>;
  /** Sets the fast or deep model; resolves to the refusal in words, or null. */
  setModel(providerId: string, slot: ModelSlot, model: string): Promise<string | null>;
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

  /** A change whose refusal belongs next to the form that made it, not at the top of Settings. */
  const applyOrRefusal = useCallback((result: Awaited<ReturnType<typeof flint.getProviders>>): string | null => {
    if (!result.ok) return result.error.message;
    apply(result);
    return null;
  }, [apply]);

  useEffect(() => {
    void flint.getProviders({}).then(apply);
  }, [apply]);

  return {
    state,
    tests,
    error,
    saveKey: async (providerId, key) => apply(await flint.setApiKey({ providerId, key })),
    removeKey: async (providerId) => void apply(await flint.deleteApiKey({ providerId })),
    allowKey: async (providerId, reason, origin) => void apply(await flint.allowProviderKey({ providerId, reason, origin })),
    activate: async (providerId) => void apply(await flint.setActiveProvider({ providerId })),
    test: async (providerId) => {
      setTests((current) => ({ ...current, [providerId]: 'testing' }));
      const result = await flint.testConnection({ providerId });
      const outcome: ConnectionTestResult = result.ok ? result.value : { ok: false, message: result.error.message };
      setTests((current) => ({ ...current, [providerId]: outcome }));
      void flint.getProviders({}).then(apply);
    },
    saveProvider: async (providerId, draft) => applyOrRefusal(await flint.saveProvider({ ...(providerId ? { providerId } : {}), draft })),
    removeProvider: async (providerId) => void apply(await flint.removeProvider({ providerId })),
    setModel: async (providerId, slot, model) => applyOrRefusal(await flint.setProviderModel({ providerId, slot, model })),
  };
}
