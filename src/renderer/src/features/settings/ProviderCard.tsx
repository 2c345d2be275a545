/**
 * One provider in Settings: its address, protocol and models, its key, Test connection,
 * and what may be done with it (use, edit, remove a custom one, reset an edited preset).
 */
import { useId, useState, type FormEvent } from 'react';
import type { ProvidersState, ProviderView } from '../../../../shared/inference-types';
import { ModelPicker } from './ModelPicker';
import { ProviderForm } from './ProviderForm';
import { KEY_FOCUS_ATTRIBUTE } from './use-key-focus';
import type { ProvidersHandle } from './use-providers';

export interface ProviderCardProps {
  provider: ProviderView;
  isActive: boolean;
  state: ProvidersState;
  handle: ProvidersHandle;
}

export function ProviderCard({ provider, isActive, state, handle }: ProviderCardProps) {
  const [isEditing, setEditing] = useState(false);
  const test = handle.tests[provider.id];
  if (isEditing) {
    const save = async (draft: Parameters<ProvidersHandle['saveProvider']>[1]) => {
      const refusal = await handle.saveProvider(provider.id, draft);
      if (refusal === null) setEditing(false);
      return refusal;
    };
    return (
      <section className="provider-card is-editing" aria-label={provider.label}>
        <ProviderForm provider={provider} providers={state.providers} onSave={save} onCancel={() => setEditing(false)} />
      </section>
    );
  }
  return (
    <section className={`provider-card${isActive ? ' is-active' : ''}`} aria-label={provider.label}>
      <div className="provider-title">
        <strong>{provider.label}</strong>
        <span className="provider-meta">{provider.kind === 'openai-responses' ? 'Responses WebSocket' : 'Chat completions (SSE)'}</span>
        <UseProvider provider={provider} isActive={isActive} state={state} handle={handle} />
      </div>
      <p className="provider-url">
        Base URL <code>{provider.baseUrl}</code>
        {provider.contextWindow ? ` · context ${provider.contextWindow.toLocaleString()} tokens` : ''}
      </p>
      <ModelPicker provider={provider} handle={handle} />
      <KeyForm provider={provider} handle={handle} isTesting={test === 'testing'} />
      {test && (
        <p role="status" className={test === 'testing' ? 'test-pending' : test.ok ? 'test-ok' : 'test-failed'}>
          {test === 'testing' ? 'Testing…' : test.message}
        </p>
      )}
      <CardActions provider={provider} handle={handle} onEdit={() => setEditing(true)} />
    </section>
  );
}

/**
 * "Use this provider", and the truth about it: while FLINT_* variables define the provider,
 * the choice is saved and takes effect only in a run without them.
 */
function UseProvider({ provider, isActive, state, handle }: ProviderCardProps) {
  const noteId = useId();
  const overridden = state.environmentVariables.length > 0 && provider.origin !== 'environment';
  if (isActive) return <span className="provider-in-use">In use</span>;
  if (overridden && state.chosenProviderId === provider.id && state.providers.some((other) => other.id === provider.id)) {
    return <span className="provider-chosen">Chosen — used once Flint starts without the FLINT_* variables</span>;
  }
  return (
    <>
      <button type="button" onClick={() => void handle.activate(provider.id)} aria-describedby={overridden ? noteId : undefined}>
        Use this provider
      </button>
      {overridden && (
        <span id={noteId} className="provider-note">
          Takes effect when Flint starts without {state.environmentVariables.join(', ')}.
        </span>
      )}
    </>
  );
}

function KeyForm({ provider, handle, isTesting }: { provider: ProviderView; handle: ProvidersHandle; isTesting: boolean }) {
  const [key, setKey] = useState('');
  const [saving, setSaving] = useState(false);
  const hasStoredKey = provider.keySource === 'keychain';
  const save = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (!key.trim()) return;
    setSaving(true);
    if (await handle.saveKey(provider.id, key)) setKey('');
    setSaving(false);
  };
  return (
    <>
      <p className="provider-key" aria-label={`Key status for ${provider.label}`}>
        {describeKey(provider)}
      </p>
      {provider.keyWithheld && <WithheldKey provider={provider} withheld={provider.keyWithheld} handle={handle} />}
      <form className="key-form" onSubmit={(event) => void save(event)}>
        <input
          type="password"
          {...{ [KEY_FOCUS_ATTRIBUTE]: '' }}
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
        <button type="button" onClick={() => void handle.test(provider.id)} disabled={isTesting}>
          Test connection
        </button>
      </form>
    </>
  );
}

/** Edit for all but the environment's; Remove for a custom provider, "Reset to preset" for an edited one. */
function CardActions({ provider, handle, onEdit }: { provider: ProviderView; handle: ProvidersHandle; onEdit: () => void }) {
  const [isConfirming, setConfirming] = useState(false);
  if (provider.origin === 'environment') {
    return <p className="provider-note">Set by FLINT_* variables for this run: change them and restart Flint to edit it. The models above can be switched for this run.</p>;
  }
  const removeLabel = provider.origin === 'custom' ? 'Remove' : 'Reset to preset';
  return (
    <div className="provider-actions">
      <button type="button" onClick={onEdit}>
        Edit
      </button>
      {provider.origin !== 'built-in' &&
        (isConfirming ? (
          <>
            <span>{provider.origin === 'custom' ? `Remove ${provider.label}?` : `Forget your changes to ${provider.label}?`}</span>
            <button type="button" className="danger" onClick={() => void handle.removeProvider(provider.id)}>
              {removeLabel}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setConfirming(true)}>
            {removeLabel}
          </button>
        ))}
    </div>
  );
}

/**
 * A key Flint has but does not send to this address until the user says so: the reason in
 * words, and one button that names exactly what it allows.
 */
function WithheldKey({ provider, withheld, handle }: { provider: ProviderView; withheld: NonNullable<ProviderView['keyWithheld']>; handle: ProvidersHandle }) {
  const [isSending, setSending] = useState(false);
  const host = hostOf(provider.keyOrigin);
  const label = withheld.reason === 'cleartext' ? `Send the key unencrypted to ${host}` : `Send ${provider.keyFromVariable ?? 'the key'} to ${host}`;
  const allow = async (): Promise<void> => {
    setSending(true);
    await handle.allowKey(provider.id, withheld.reason, provider.keyOrigin);
    setSending(false);
  };
  return (
    <div className="provider-withheld" role="note">
      <p>{withheld.message}</p>
      <button type="button" className="danger" disabled={isSending} onClick={() => void allow()} {...{ [KEY_FOCUS_ATTRIBUTE]: '' }}>
        {label}
      </button>
    </div>
  );
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

/** Where the key is from, and the one origin it goes to. */
function describeKey(provider: ProviderView): string {
  const destination = provider.keyWithheld ? '' : ` Sent only to ${provider.keyOrigin}.`;
  switch (provider.keySource) {
    case 'keychain':
      return `Key stored in the OS keychain for ${provider.keyOrigin}.${destination}`;
    case 'environment':
      return `Key from the environment variable ${provider.keyFromVariable ?? ''} (not stored).${destination}`;
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
