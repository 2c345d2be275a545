/**
 * Adding or editing a provider: protocol, name, base URL, models, key variable, context
 * window. Main validates (one schema for settings.json and this form) and its refusal,
 * a sentence naming the field, shows here; nothing is saved until it passes.
 */
import { useId, useState, type FormEvent } from 'react';
import type { ProviderDraft, ProviderKind, ProviderView } from '../../../../shared/inference-types';

export interface ProviderFormProps {
  /** The provider edited; none to add one. */
  provider?: ProviderView;
  /** Saves; resolves to main's refusal in words, or null when saved. */
  onSave: (draft: ProviderDraft) => Promise<string | null>;
  onCancel: () => void;
}

const EMPTY: ProviderDraft = { kind: 'openai-chat', label: '', baseUrl: '', model: '', deepModel: '', keyVariable: '' };

export function ProviderForm({ provider, onSave, onCancel }: ProviderFormProps) {
  const [draft, setDraft] = useState<ProviderDraft>(() => (provider ? draftOf(provider) : EMPTY));
  const [windowText, setWindowText] = useState(provider?.contextWindow?.toString() ?? '');
  const [refusal, setRefusal] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const id = useId();
  const set = (patch: Partial<ProviderDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const name = provider ? `Edit ${provider.label}` : 'Add a provider';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const tokens = windowText.trim() === '' ? undefined : Number(windowText.replace(/[,_\s]/g, ''));
    if (tokens !== undefined && !Number.isFinite(tokens)) return setRefusal('The context window must be a number of tokens, like 131072.');
    setSaving(true);
    const outcome = await onSave({ ...draft, ...(tokens !== undefined ? { contextWindow: tokens } : {}) });
    setSaving(false);
    setRefusal(outcome);
  };

  return (
    <form className="provider-form" aria-label={name} onSubmit={(event) => void submit(event)}>
      <h4>{name}</h4>
      <label htmlFor={`${id}-kind`}>Protocol</label>
      <select id={`${id}-kind`} value={draft.kind} onChange={(event) => set({ kind: event.target.value as ProviderKind })}>
        <option value="openai-chat">OpenAI-compatible chat completions (SSE) — Cerebras, Groq, vLLM, Ollama…</option>
        <option value="openai-responses">OpenAI Responses over WebSocket — OpenAI, xAI</option>
      </select>
      <Field id={`${id}-label`} label="Name" value={draft.label} onChange={(label) => set({ label })} placeholder="My vLLM server" />
      <Field id={`${id}-url`} label="Base URL" value={draft.baseUrl} onChange={(baseUrl) => set({ baseUrl })} placeholder="https://api.example.com/v1" />
      <Field id={`${id}-model`} label="Fast model" value={draft.model} onChange={(model) => set({ model })} placeholder="gpt-oss-120b" />
      <Field id={`${id}-deep`} label="Deep model (optional)" value={draft.deepModel ?? ''} onChange={(deepModel) => set({ deepModel })} />
      <Field id={`${id}-key`} label="Key variable (optional)" value={draft.keyVariable ?? ''} onChange={(keyVariable) => set({ keyVariable })} placeholder="MY_PROVIDER_API_KEY" />
      <Field id={`${id}-window`} label="Context window in tokens (optional)" value={windowText} onChange={setWindowText} placeholder="128000" inputMode="numeric" />
      <label className="checkbox">
        <input type="checkbox" checked={draft.keyOptional ?? false} onChange={(event) => set({ keyOptional: event.target.checked })} /> No key needed (a local server)
      </label>
      {refusal && (
        <p role="alert" className="form-error">
          {refusal}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={isSaving}>
          {provider ? 'Save changes' : 'Add provider'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Field(props: { id: string; label: string; value: string; onChange: (value: string) => void; placeholder?: string; inputMode?: 'numeric' }) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        value={props.value}
        spellCheck={false}
        autoComplete="off"
        placeholder={props.placeholder}
        inputMode={props.inputMode}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </>
  );
}

function draftOf(provider: ProviderView): ProviderDraft {
  return {
    kind: provider.kind,
    label: provider.label,
    baseUrl: provider.baseUrl,
    model: provider.model,
    deepModel: provider.deepModel ?? '',
    keyVariable: provider.keyVariable ?? '',
    keyOptional: provider.keyOptional ?? false,
  };
}
