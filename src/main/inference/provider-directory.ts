/**
 * The providers Flint knows, and the user's changes to them: add, edit and remove a
 * provider, switch its models. Changes are validated here (ProviderConfigSchema, in
 * words a person can act on) and kept in settings.json; the catalog is rebuilt after each.
 *
 * Presets cannot be removed: an edit is saved under the preset's id and overrides it, and
 * removing that edit brings the preset back. The environment provider (FLINT_*) is read
 * once per run: its models may be switched for the run, nothing of it is saved.
 */
import { duplicateNameMessage, providerNamed } from '../../shared/provider-draft-check';
import type { ModelSlot, ProviderConfig, ProviderDraft, ProviderOrigin } from '../../shared/inference-types';
import { FlintFailure } from '../../shared/result';
import type { SettingsStore } from '../settings/settings-store';
import { BUILT_IN_PROVIDERS, buildCatalog, ENVIRONMENT_PROVIDER_ID, ENVIRONMENT_VARIABLES, ProviderConfigSchema, type Catalog } from './provider-catalog';
import { trimCharacter, trimEndCharacter } from '../../shared/trim-character';

const BUILT_IN_IDS = new Set(BUILT_IN_PROVIDERS.map((provider) => provider.id));

export class ProviderDirectory {
  private catalog: Catalog;
  /** The environment provider's models as switched for this run (from a failure's offer, or Settings). */
  private environmentModels: Partial<Pick<ProviderConfig, 'model' | 'deepModel'>> = {};

  constructor(
    private readonly settings: SettingsStore,
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.catalog = this.build();
  }

  get providers(): readonly ProviderConfig[] {
    return this.catalog.providers;
  }

  get problems(): readonly string[] {
    return this.catalog.problems;
  }

  /** The provider in use unless the user picks another (the environment's, when FLINT_* define one). */
  get defaultProviderId(): string {
    return this.catalog.defaultProviderId;
  }

  /** The FLINT_* variables that define this run's provider; empty when they define none. */
  get environmentVariables(): string[] {
    if (!this.find(ENVIRONMENT_PROVIDER_ID)) return [];
    return ENVIRONMENT_VARIABLES.filter((name) => this.env[name] !== undefined);
  }

  find(id: string): ProviderConfig | undefined {
    return this.catalog.providers.find((provider) => provider.id === id);
  }

  require(id: string): ProviderConfig {
    const provider = this.find(id);
    if (!provider) throw new FlintFailure('invalid-provider', `There is no provider named ${JSON.stringify(id)}.`);
    return provider;
  }

  origin(id: string): ProviderOrigin {
    if (id === ENVIRONMENT_PROVIDER_ID) return 'environment';
    if (!BUILT_IN_IDS.has(id)) return 'custom';
    return this.savedIndex(id) === -1 ? 'built-in' : 'edited-built-in';
  }

  /**
   * Adds a provider (no `providerId`) or replaces one's settings. A new provider's id comes
   * from its name and stays when it is renamed (the keychain keeps its key under the id).
   */
  async save(providerId: string | null, draft: ProviderDraft): Promise<ProviderConfig> {
    if (providerId === ENVIRONMENT_PROVIDER_ID) {
      throw new FlintFailure('invalid-provider', 'This provider comes from FLINT_* variables; change them and restart Flint, or add a provider of your own.');
    }
    if (providerId !== null) this.require(providerId);
    // Names tell providers apart in Settings, the status bar and the keychain's words: no two alike.
    const namesake = providerNamed(draft.label, this.providers, providerId);
    if (namesake) throw new FlintFailure('invalid-provider', duplicateNameMessage(namesake.label));
    const id = providerId ?? this.newId(draft.label);
    const config = validate({ id, ...cleanDraft(draft) });
    await this.persist(id, config);
    return this.require(id);
  }

  /** Removes a custom provider, or a preset's edit (the preset comes back). */
  async remove(providerId: string): Promise<void> {
    const origin = this.origin(providerId);
    this.require(providerId);
    if (origin === 'environment') throw new FlintFailure('invalid-provider', 'This provider comes from FLINT_* variables: unset them and restart Flint to remove it.');
    if (origin === 'built-in') throw new FlintFailure('invalid-provider', `${this.require(providerId).label} is a preset and cannot be removed; edit it instead.`);
    await this.persist(providerId, null);
    if (this.settings.value.activeProvider === providerId && !this.find(providerId)) await this.settings.update({ activeProvider: undefined });
  }

  /** Sets the fast or deep model (an empty deep model: none). The environment provider's, for this run only. */
  async setModel(providerId: string, slot: ModelSlot, model: string): Promise<ProviderConfig> {
    const current = this.require(providerId);
    const name = model.trim();
    if (slot === 'fast' && !name) throw new FlintFailure('invalid-input', 'Name the fast model.');
    const next: ProviderConfig = slot === 'fast' ? { ...current, model: name } : { ...current, deepModel: name || undefined };
    if (providerId === ENVIRONMENT_PROVIDER_ID) {
      validate({ ...next, id: 'environment-check' });
      this.environmentModels = { model: next.model, deepModel: next.deepModel };
      this.catalog = this.build();
      return this.require(providerId);
    }
    const { id, ...draft } = next;
    return this.save(id, draft);
  }

  private async persist(id: string, config: ProviderConfig | null): Promise<void> {
    const saved = [...this.settings.value.providers];
    const index = this.savedIndex(id);
    if (config === null) saved.splice(index, 1);
    else if (index === -1) saved.push(config);
    else saved[index] = config;
    await this.settings.update({ providers: saved });
    this.catalog = this.build();
  }

  /** Where settings.json holds the provider with this id (-1: nowhere, a preset as shipped). */
  private savedIndex(id: string): number {
    return this.settings.value.providers.findIndex((raw) => typeof raw === 'object' && raw !== null && (raw as { id?: unknown }).id === id);
  }

  private newId(label: string): string {
    const base = trimCharacter(label.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-'), '-').slice(0, 48) || 'provider';
    const taken = (id: string) => this.find(id) !== undefined || BUILT_IN_IDS.has(id) || id === ENVIRONMENT_PROVIDER_ID;
    if (!taken(base)) return base;
    for (let n = 2; ; n += 1) if (!taken(`${base}-${n}`)) return `${base}-${n}`;
  }

  private build(): Catalog {
    const catalog = buildCatalog(this.settings.value.providers, this.env);
    const environment = catalog.providers.find((provider) => provider.id === ENVIRONMENT_PROVIDER_ID);
    if (environment && this.environmentModels.model !== undefined) {
      environment.model = this.environmentModels.model;
      environment.deepModel = this.environmentModels.deepModel;
    }
    return catalog;
  }
}

/** A draft as the schema takes it: trimmed, with empty optional fields left out. */
function cleanDraft(draft: ProviderDraft): Omit<ProviderConfig, 'id'> {
  const text = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());
  return {
    kind: draft.kind,
    label: draft.label,
    baseUrl: trimEndCharacter(draft.baseUrl.trim(), '/'),
    model: draft.model,
    ...(text(draft.deepModel) ? { deepModel: text(draft.deepModel) } : {}),
    ...(text(draft.keyVariable) ? { keyVariable: text(draft.keyVariable) } : {}),
    ...(draft.keyOptional ? { keyOptional: true } : {}),
    ...(draft.contextWindow !== undefined ? { contextWindow: draft.contextWindow } : {}),
  };
}

/** The schema's verdict, its first problem as the message (each is a sentence that says what to type). */
function validate(candidate: unknown): ProviderConfig {
  const parsed = ProviderConfigSchema.safeParse(candidate);
  if (!parsed.success) throw new FlintFailure('invalid-input', parsed.error.issues[0]?.message ?? 'The provider’s settings are not valid.');
  return parsed.data;
}
