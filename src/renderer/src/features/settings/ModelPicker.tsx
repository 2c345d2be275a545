/**
 * A provider's fast and deep models, chosen from what the provider lists for this key
 * (Refresh asks again), with a typed name for anything else. Configured names the
 * provider does not list are marked: they are the ones it will refuse.
 */
import { useId, useState } from 'react';
import type { ModelListView, ModelSlot, ProviderView } from '../../../../shared/inference-types';
import type { ProvidersHandle } from './use-providers';
import { useModelList, type ModelListHandle } from './use-model-list';

/** Past this many names the picker offers a filter (main narrows the list). */
const FILTER_FROM = 20;
const OTHER = '\u0000other';

export function ModelPicker({ provider, handle }: { provider: ProviderView; handle: ProvidersHandle }) {
  // Providers without a key are not asked until the user wants their list (it would be refused anyway).
  const [isWanted, setWanted] = useState(false);
  const shouldLoad = isWanted || provider.keySource !== 'none';
  const models = useModelList(provider.id, shouldLoad, `${provider.baseUrl}|${provider.keySource}`);
  const [refusal, setRefusal] = useState<string | null>(null);
  const choose = async (slot: ModelSlot, model: string) => setRefusal(await handle.setModel(provider.id, slot, model));
  const { list } = models;

  return (
    <fieldset className="model-picker">
      <legend>Models</legend>
      <div className="model-list-status">
        <span aria-live="polite">{shouldLoad ? describeList(models) : 'Not asked yet (no key).'}</span>
        <button type="button" onClick={() => (shouldLoad ? models.refresh() : setWanted(true))} disabled={models.isLoading}>
          {shouldLoad ? 'Refresh models' : 'List models'}
        </button>
      </div>
      {list && list.total > FILTER_FROM && (
        <input
          type="search"
          className="model-filter"
          aria-label={`Filter the models of ${provider.label}`}
          placeholder={`Filter ${list.total.toLocaleString()} models`}
          value={models.filter}
          onChange={(event) => models.setFilter(event.target.value)}
        />
      )}
      <SlotPicker provider={provider} slot="fast" current={provider.model} list={list} onChoose={choose} />
      <SlotPicker provider={provider} slot="deep" current={provider.deepModel ?? ''} list={list} onChoose={choose} />
      {refusal && (
        <p role="alert" className="form-error">
          {refusal}
        </p>
      )}
    </fieldset>
  );
}

function describeList({ list, isLoading, error }: ModelListHandle): string {
  if (error) return error;
  if (!list) return isLoading ? 'Asking the provider for its models…' : '';
  if (isLoading) return 'Refreshing…';
  if (list.source === 'configured') return list.reason ?? 'Showing the configured names.';
  const at = list.fetchedAtEpochMs === null ? '' : ` at ${new Date(list.fetchedAtEpochMs).toLocaleTimeString()}`;
  const shown = list.matching > list.models.length ? ` (first ${list.models.length} of ${list.matching.toLocaleString()} matching shown — filter to narrow)` : '';
  return `${list.total.toLocaleString()} models listed by the provider${at}${shown}.${list.reason ? ` ${list.reason}` : ''}`;
}

interface SlotPickerProps {
  provider: ProviderView;
  slot: ModelSlot;
  /** The configured name ('' for no deep model). */
  current: string;
  list: ModelListView | null;
  onChoose: (slot: ModelSlot, model: string) => Promise<void>;
}

function SlotPicker({ provider, slot, current, list, onChoose }: SlotPickerProps) {
  const id = useId();
  const [typing, setTyping] = useState<string | null>(null);
  const listed = list?.models ?? [];
  const isUnlisted = current !== '' && list?.source === 'provider' && list.unlisted.includes(current);
  const names = current && !listed.includes(current) ? [current, ...listed] : listed;
  const label = slot === 'fast' ? 'Fast model (Enter)' : 'Deep model (Alt+Enter)';

  return (
    <div className="model-slot">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        aria-label={`${label} for ${provider.label}`}
        value={typing !== null ? OTHER : current}
        onChange={(event) => {
          if (event.target.value === OTHER) return setTyping(current);
          setTyping(null);
          void onChoose(slot, event.target.value);
        }}
      >
        {slot === 'deep' && <option value="">None — Alt+Enter says so</option>}
        {names.map((name) => (
          <option key={name} value={name}>
            {name === current && isUnlisted ? `${name} — not listed for this key` : name}
          </option>
        ))}
        <option value={OTHER}>Another name…</option>
      </select>
      {isUnlisted && <span className="model-warning">Not listed by the provider: it will likely refuse it.</span>}
      {typing !== null && (
        <form
          className="model-typed"
          onSubmit={(event) => {
            event.preventDefault();
            setTyping(null);
            void onChoose(slot, typing);
          }}
        >
          <input aria-label={`${label} name for ${provider.label}`} value={typing} spellCheck={false} onChange={(event) => setTyping(event.target.value)} autoFocus />
          <button type="submit">Set</button>
          <button type="button" onClick={() => setTyping(null)}>
            Cancel
          </button>
        </form>
      )}
    </div>
  );
}
