/**
 * Settings: the ask bar's shortcut; choose the provider, add / replace / remove its
 * key, test the connection.
 */
import { useRef, useState, type FormEvent } from 'react';
import type { HotkeyStatus } from '../../../../shared/ask-types';
import type { ProviderView } from '../../../../shared/inference-types';
import { useFocusTrap } from '../../lib/use-focus-trap';
import { ShortcutSettings } from './ShortcutSettings';
import { useProviders, type ProvidersHandle } from './use-providers';

export interface SettingsDialogProps {
  onClose: () => void;
  shortcut: string;
  hotkey: HotkeyStatus | null;
  onChangeShortcut: (shortcut: string) => void;
}

export function SettingsDialog({ onClose, shortcut, hotkey, onChangeShortcut }: SettingsDialogProps) {
  const providers = useProviders();
  const dialogRef = useRef<HTMLDivElement>(null);
  // Focus starts on the dialog, stays in it (Test connection disables itself), and goes back on close.
  useFocusTrap(dialogRef);

  const { state } = providers;
  const active = state?.providers.find((provider) => provider.id === state.activeProviderId);
  const others = state?.providers.filter((provider) => provider.id !== state.activeProviderId) ?? [];

  return (
    <div className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={dialogRef}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-label="Settings"
        tabIndex={-1}
        onKeyDown={(event) => {
          // Handled here: Esc closes Settings and does not also stop a streaming answer.
          if (event.key !== 'Escape') return;
          event.preventDefault();
          onClose();
        }}
      >
        <header className="modal-header">
          <h2>Settings</h2>
          <button type="button" className="icon" aria-label="Close settings" onClick={onClose}>
            ×
          </button>
        </header>
        <h3>Ask bar shortcut</h3>
        <ShortcutSettings shortcut={shortcut} status={hotkey} onChange={onChangeShortcut} />
        {providers.error && <p role="alert" className="form-error">{providers.error}</p>}
        {state && !state.keychain.available && (
          <p role="alert" className="banner-warning">
            {state.keychain.message}
          </p>
        )}
        {state?.problems.map((problem) => (
          <p key={problem} className="banner-warning">
            {problem}
          </p>
        ))}
        {!state ? (
          <p>Loading providers…</p>
        ) : (
          <>
            <h3>Model provider in use</h3>
            {active && <ProviderCard provider={active} isActive handle={providers} />}
            <h3>Other providers</h3>
            {others.map((provider) => (
              <ProviderCard key={provider.id} provider={provider} isActive={false} handle={providers} />
            ))}
          </>
        )}
      </div>
    </div>
  );
}

function ProviderCard({ provider, isActive, handle }: { provider: ProviderView; isActive: boolean; handle: ProvidersHandle }) {
  const [key, setKey] = useState('');
  const [saving, setSaving] = useState(false);
  const test = handle.tests[provider.id];
  const hasStoredKey = provider.keySource === 'keychain';

  const save = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!key.trim()) return;
    setSaving(true);
    if (await handle.saveKey(provider.id, key)) setKey('');
    setSaving(false);
  };

  return (
    <section className={`provider-card${isActive ? ' is-active' : ''}`} aria-label={provider.label}>
      <div className="provider-title">
        <strong>{provider.label}</strong>
        <span className="provider-meta">
          {provider.model}
          {provider.deepModel ? ` · deep: ${provider.deepModel}` : ''} · {provider.kind === 'openai-responses' ? 'Responses WebSocket' : 'Chat completions (SSE)'}
        </span>
        {!isActive && (
          <button type="button" onClick={() => void handle.activate(provider.id)}>
            Use this provider
          </button>
        )}
      </div>
      <p className="provider-key" aria-label={`Key status for ${provider.label}`}>
        {describeKey(provider)}
      </p>
      <form className="key-form" onSubmit={(event) => void save(event)}>
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          aria-label={`API key for ${provider.label}`}
          placeholder={hasStoredKey ? 'Paste a new key to replace it' : 'Paste an API key'}
          value={key}
          onChange={(event) => setKey(event.target.value)}
        />
        <button type="submit" disabled={saving || !key.trim()}>
          {hasStoredKey ? 'Replace key' : 'Save key'}
        </button>
        {hasStoredKey && (
          <button type="button" onClick={() => void handle.removeKey(provider.id)}>
            Remove key
          </button>
        )}
        <button type="button" onClick={() => void handle.test(provider.id)} disabled={test === 'testing'}>
          Test connection
        </button>
      </form>
      {test && (
        <p role="status" className={test === 'testing' ? 'test-pending' : test.ok ? 'test-ok' : 'test-failed'}>
          {test === 'testing' ? 'Testing…' : test.message}
        </p>
      )}
    </section>
  );
}

function describeKey(provider: ProviderView): string {
  switch (provider.keySource) {
    case 'keychain':
      return 'Key stored in the OS keychain.';
    case 'environment':
      return `Key from the environment variable ${provider.keyFromVariable ?? ''} (not stored).`;
    case 'not-needed':
      return 'No key needed (local server).';
    case 'none':
      return `No key yet${provider.keyVariable ? ` (or set ${provider.keyVariable})` : ''}.`;
    default: {
      const exhaustive: never = provider.keySource;
      return exhaustive;
    }
  }
}
