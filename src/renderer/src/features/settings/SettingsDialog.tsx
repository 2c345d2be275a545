/**
 * Settings: the ask bar's shortcut; choose the provider, its models and its key, test the
 * connection; add, edit and remove providers.
 */
import { useEffect, useRef, useState } from 'react';
import type { HotkeyStatus } from '../../../../shared/ask-types';
import type { ProvidersState } from '../../../../shared/inference-types';
import { isLinux } from '../../lib/platform';
import { useFocusTrap } from '../../lib/use-focus-trap';
import { ProviderCard } from './ProviderCard';
import { ProviderForm } from './ProviderForm';
import { ShortcutSettings } from './ShortcutSettings';
import { ExcludeSetting } from './ExcludeSetting';
import { useKeyFocus } from './use-key-focus';
import { useProviders, type ProvidersHandle } from './use-providers';

export interface SettingsDialogProps {
  onClose: () => void;
  shortcut: string;
  hotkey: HotkeyStatus | null;
  onChangeShortcut: (shortcut: string) => void;
  clipboardSelection: boolean;
  onChangeClipboardSelection: (value: boolean) => void;
  exclude: readonly string[];
  onChangeExclude: (patterns: string[]) => void;
  /** Opened to add a key: focus goes to the key field of the provider in use. */
  isAtKey?: boolean;
}

export function SettingsDialog({ onClose, shortcut, hotkey, onChangeShortcut, clipboardSelection, onChangeClipboardSelection, exclude, onChangeExclude, isAtKey = false }: SettingsDialogProps) {
  const providers = useProviders();
  const dialogRef = useRef<HTMLDivElement>(null);
  // Focus starts on the dialog, stays in it (Test connection disables itself), and goes back on close.
  useFocusTrap(dialogRef);
  useKeyFocus(dialogRef, isAtKey, providers.state !== null);

  const { state } = providers;

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
        <SelectionSetting value={clipboardSelection} onChange={onChangeClipboardSelection} />
        <ExcludeSetting value={exclude} onChange={onChangeExclude} />
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
        {!state ? <p>Loading providers…</p> : <ProviderSections state={state} handle={providers} />}
      </div>
    </div>
  );
}

function ProviderSections({ state, handle }: { state: ProvidersState; handle: ProvidersHandle }) {
  const [isAdding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  // The form goes (added, or cancelled): focus goes back to the button that opened it, not out of the dialog.
  const wasAdding = useRef(false);
  useEffect(() => {
    if (wasAdding.current && !isAdding) addButton.current?.focus();
    wasAdding.current = isAdding;
  }, [isAdding]);
  const active = state.providers.find((provider) => provider.id === state.activeProviderId);
  const others = state.providers.filter((provider) => provider.id !== state.activeProviderId);
  const add = async (draft: Parameters<ProvidersHandle['saveProvider']>[1]) => {
    const refusal = await handle.saveProvider(null, draft);
    if (refusal === null) setAdding(false);
    return refusal;
  };
  return (
    <>
      <h3>Model provider in use</h3>
      {state.environmentVariables.length > 0 && (
        <p className="banner-info" role="note">
          {state.environmentVariables.join(', ')} {state.environmentVariables.length === 1 ? 'is' : 'are'} set: the provider “From environment (FLINT_*)” is in use for this run, whatever is chosen
          here. A provider chosen below takes effect when Flint starts without {state.environmentVariables.length === 1 ? 'it' : 'them'}.
        </p>
      )}
      <KeyedSuggestion state={state} handle={handle} />
      {active && <ProviderCard provider={active} isActive state={state} handle={handle} />}
      <h3>Other providers</h3>
      {others.map((provider) => (
        <ProviderCard key={provider.id} provider={provider} isActive={false} state={state} handle={handle} />
      ))}
      {isAdding ? (
        <section className="provider-card is-editing" aria-label="New provider">
          <ProviderForm providers={state.providers} onSave={add} onCancel={() => setAdding(false)} />
        </section>
      ) : (
        <button ref={addButton} type="button" className="add-provider" onClick={() => setAdding(true)}>
          Add a provider…
        </button>
      )}
    </>
  );
}

/**
 * What the shortcut reads as the user's selection: X's PRIMARY on Linux, nothing to set;
 * on macOS and Windows the clipboard, only when the user opts in (it may hold anything).
 */
function SelectionSetting({ value, onChange }: { value: boolean; onChange: (value: boolean) => void }) {
  if (isLinux) {
    return <p className="settings-note">When the shortcut fires, the lines you have selected in your editor (X’s selection) become the focus of the question.</p>;
  }
  return (
    <label className="settings-check">
      <input type="checkbox" checked={value} onChange={(event) => onChange(event.target.checked)} />
      Use the clipboard as my selection: copy lines in your editor, press the shortcut, and the question is about those lines
    </label>
  );
}

/**
 * The provider in use has no key and another one has (one it would send: not held back from
 * its address): say so, with one click to switch. First runs often start here (OpenAI is the
 * default; the key at hand is Cerebras' or Groq's).
 */
function KeyedSuggestion({ state, handle }: { state: ProvidersState; handle: ProvidersHandle }) {
  const active = state.providers.find((provider) => provider.id === state.activeProviderId);
  const keyed = state.providers.find((provider) => provider.id !== state.activeProviderId && !provider.keyWithheld && (provider.keySource === 'keychain' || provider.keySource === 'environment'));
  if (!active || active.keySource !== 'none' || !keyed || state.environmentVariables.length > 0) return null;
  const where = keyed.keySource === 'environment' ? `${keyed.keyFromVariable ?? 'a variable'} is set` : 'its key is in the keychain';
  return (
    <p className="banner-info">
      {active.label} has no key, but {keyed.label} has one ({where}).{' '}
      <button type="button" onClick={() => void handle.activate(keyed.id)}>
        Use {keyed.label}
      </button>
    </p>
  );
}
