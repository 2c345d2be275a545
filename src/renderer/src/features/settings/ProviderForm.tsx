/**
 * Adding or editing a provider: protocol, name, base URL, models, key variable, context
 * window. Every field is checked at once with the rules main checks by too
 * (provider-draft-check.ts): each invalid one is marked (aria-invalid) with its sentence
 * beside it (aria-describedby), and focus goes to the first. Main checks again (its schema
 * for settings.json); a refusal of its own shows above the buttons. Nothing is saved until
 * both pass. The buttons stay in view at the bottom of the form however long it is.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import type { ProviderDraft, ProviderKind, ProviderView } from '../../../../shared/inference-types';
import { checkProviderDraft, PROVIDER_FIELDS, type ProviderField, type ProviderProblems } from '../../../../shared/provider-draft-check';

export interface ProviderFormProps {
  /** The provider edited; none to add one. */
  provider?: ProviderView;
  /** Every provider, for names already taken. */
  providers: readonly Pick<ProviderView, 'id' | 'label'>[];
  /** Saves; resolves to main's refusal in words, or null when saved. */
  onSave: (draft: ProviderDraft) => Promise<string | null>;
  onCancel: () => void;
}

const EMPTY: ProviderDraft = { kind: 'openai-chat', label: '', baseUrl: '', model: '', deepModel: '', keyVariable: '' };

export function ProviderForm({ provider, providers, onSave, onCancel }: ProviderFormProps) {
  const [draft, setDraft] = useState<ProviderDraft>(() => (provider ? draftOf(provider) : EMPTY));
  const [windowText, setWindowText] = useState(provider?.contextWindow?.toString() ?? '');
  const [problems, setProblems] = useState<ProviderProblems>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [isSaving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const id = useId();
  const set = (patch: Partial<ProviderDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const name = provider ? `Edit ${provider.label}` : 'Add a provider';
  const field = (key: ProviderField) => ({ id: `${id}-${key}`, problem: problems[key] });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const tokens = windowText.trim() === '' ? undefined : Number(windowText.replace(/[,_\s]/g, ''));
    const full: ProviderDraft = { ...draft, ...(tokens !== undefined ? { contextWindow: tokens } : {}) };
    const found = checkProviderDraft(full, providers, provider?.id ?? null);
    setProblems(found);
    setRefusal(null);
    const first = PROVIDER_FIELDS.find((key) => found[key] !== undefined);
    if (first !== undefined) return formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(`${id}-${first}`)}`)?.focus();
    setSaving(true);
    const outcome = await onSave(full);
    setSaving(false);
    setRefusal(outcome);
  };

  return (
    <form ref={formRef} className="provider-form" aria-label={name} noValidate onSubmit={(event) => void submit(event)}>
      <h4>{name}</h4>
      <label htmlFor={`${id}-kind`}>Protocol</label>
      <select id={`${id}-kind`} value={draft.kind} onChange={(event) => set({ kind: event.target.value as ProviderKind })}>
        <option value="openai-chat">OpenAI-compatible chat completions (SSE) — Cerebras, Groq, vLLM, Ollama…</option>
        <option value="openai-responses">OpenAI Responses over WebSocket — OpenAI, xAI</option>
      </select>
      <Field {...field('label')} label="Name" value={draft.label} onChange={(label) => set({ label })} placeholder="My vLLM server" />
      <Field {...field('baseUrl')} label="Base URL" value={draft.baseUrl} onChange={(baseUrl) => set({ baseUrl })} placeholder="https://api.example.com/v1" />
      <Field {...field('model')} label="Fast model" value={draft.model} onChange={(model) => set({ model })} placeholder="gpt-oss-120b" />
      <Field {...field('deepModel')} label="Deep model (optional)" value={draft.deepModel ?? ''} onChange={(deepModel) => set({ deepModel })} />
      <Field {...field('keyVariable')} label="Key variable (optional)" value={draft.keyVariable ?? ''} onChange={(keyVariable) => set({ keyVariable })} placeholder="MY_PROVIDER_API_KEY" />
      <Field {...field('contextWindow')} label="Context window in tokens (optional)" value={windowText} onChange={setWindowText} placeholder="128000" inputMode="numeric" />
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

/** A labelled input; with a `problem`, marked invalid and described by the sentence under it. */
function Field(props: { id: string; label: string; value: string; onChange: (value: string) => void; placeholder?: string; inputMode?: 'numeric'; problem?: string | undefined }) {
  const problemId = `${props.id}-problem`;
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <div className="form-field">
        <input
          id={props.id}
          value={props.value}
          spellCheck={false}
          autoComplete="off"
          placeholder={props.placeholder}
          inputMode={props.inputMode}
          aria-invalid={props.problem !== undefined ? true : undefined}
          aria-describedby={props.problem !== undefined ? problemId : undefined}
          onChange={(event) => props.onChange(event.target.value)}
        />
        {props.problem !== undefined && (
          <p id={problemId} className="field-error">
            {props.problem}
          </p>
        )}
      </div>
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
