/**
 * Inference for the app: the active provider, its warm connection, streamed answers
 * and their figures, and "Test connection". Keys stay inside (see CredentialService).
 */
import { performance } from 'node:perf_hooks';
import {
  DEFAULT_CONTEXT_WINDOW,
  type AnswerDepth,
  type ConnectionState,
  type ConnectionTestResult,
  type LatencyFigures,
  type ModelListView,
  type ModelSlot,
  type ProviderConfig,
  type ProviderDraft,
  type KeyWithheldReason,
  type ProvidersState,
} from '../../shared/inference-types';
import { FlintFailure } from '../../shared/result';
import type { CredentialService } from '../credentials/credential-service';
import { DisposableStore, Emitter, type Disposable, type Event } from '../lifecycle';
import type { Logger } from '../logger';
import type { SettingsStore } from '../settings/settings-store';
import { ChatCompletionsProvider } from './chat/chat-completions-provider';
import { InferenceFailure } from './inference-failure';
import type { ConversationMessage, InferenceProvider, ModelStream, StreamRequest, StreamSink } from './model-stream';
import { runConnectionTest } from './connection-test';
import { modelUnavailableMessage, noKeyMessage } from './provider-messages';
import { ModelListCache, type FetchLike } from './model-list';
import { ProviderDirectory } from './provider-directory';
import { ProviderKeys, type ResolvedKey } from './provider-keys';
import { redactingLogger } from './redacting-logger';
import { ResponsesProvider } from './responses/responses-provider';
import { INTERNAL_ERROR_MESSAGE } from './run-model-stream';

/** Builds a provider for a config and key; tests inject short timeouts here. */
export type ProviderFactory = (config: ProviderConfig, apiKey: string | null, logger: Logger) => InferenceProvider;

export const defaultProviderFactory: ProviderFactory = (config, apiKey, logger) =>
  config.kind === 'openai-responses'
    ? new ResponsesProvider({ baseUrl: config.baseUrl, apiKey, model: config.model, logger })
    : new ChatCompletionsProvider({ baseUrl: config.baseUrl, apiKey, logger });

export interface InferenceServiceOptions {
  settings: SettingsStore;
  credentials: CredentialService;
  env: NodeJS.ProcessEnv;
  logger: Logger;
  factory?: ProviderFactory;
  /**
   * The stable instructions each protocol's requests start with (the edit prompt's).
   * Warming pre-loads them (`generate: false` where supported), so a turn sends only
   * the files and the question.
   */
  preloadInstructions?: (kind: ProviderConfig['kind']) => string;
  /** `GET /models`: how long it may take, and the fetch (tests). */
  modelList?: { timeoutMs?: number; fetch?: FetchLike };
}

export class InferenceService implements Disposable {
  private readonly directory: ProviderDirectory;
  /** The one rule for which key a request may carry (bound to its origin). */
  private readonly keys: ProviderKeys;
  private readonly modelLists: ModelListCache;
  private active: { id: string; provider: InferenceProvider; subscription: Disposable } | null = null;
  /** Bumped whenever the active provider is closed: a build that started earlier is stale. */
  private generation = 0;
  private building: Promise<InferenceProvider | null | 'stale'> | null = null;
  private connection: { state: ConnectionState; message?: string } = { state: 'connecting' };
  private readonly store = new DisposableStore();
  private readonly _onDidChangeConnection = this.store.add(new Emitter<{ providerId: string; state: ConnectionState; message?: string }>());
  private readonly _onDidMeasure = this.store.add(new Emitter<LatencyFigures>());

  readonly onDidChangeConnection: Event<{ providerId: string; state: ConnectionState; message?: string }> = this._onDidChangeConnection.event;
  /** The figures of every finished request (for the latency HUD). */
  readonly onDidMeasure: Event<LatencyFigures> = this._onDidMeasure.event;

  constructor(private readonly options: InferenceServiceOptions) {
    this.directory = new ProviderDirectory(options.settings, options.env);
    this.keys = new ProviderKeys({ credentials: options.credentials, settings: options.settings, env: options.env, find: (id) => this.directory.find(id) });
    this.modelLists = new ModelListCache(options.modelList);
    for (const problem of this.directory.problems) options.logger.warn(problem);
  }

  get activeProviderId(): string {
    const chosen = this.options.settings.value.activeProvider;
    // The environment wins for the run it is set in.
    if (this.directory.defaultProviderId !== 'openai') return this.directory.defaultProviderId;
    return chosen && this.directory.find(chosen) ? chosen : this.directory.defaultProviderId;
  }

  get connectionState(): { state: ConnectionState; message?: string } {
    return this.connection;
  }

  async listProviders(): Promise<ProvidersState> {
    const providers = await Promise.all(
      this.directory.providers.map(async (provider) => {
        const resolved = await this.keys.resolve(provider);
        return {
          ...provider,
          keySource: resolved.source,
          keyOrigin: resolved.origin,
          origin: this.directory.origin(provider.id),
          ...(resolved.variable ? { keyFromVariable: resolved.variable } : {}),
          ...(resolved.withheld ? { keyWithheld: resolved.withheld } : {}),
        };
      }),
    );
    const chosen = this.options.settings.value.activeProvider;
    return {
      providers,
      activeProviderId: this.activeProviderId,
      chosenProviderId: chosen && this.directory.find(chosen) ? chosen : 'openai',
      environmentVariables: this.directory.environmentVariables,
      keychain: this.options.credentials.keychainStatus,
      problems: [...this.directory.problems],
    };
  }

  /** Adds a provider (`providerId` null) or replaces one's settings; the active one reconnects. */
  async saveProvider(providerId: string | null, draft: ProviderDraft): Promise<ProvidersState> {
    const before = providerId === null ? null : this.directory.find(providerId);
    const saved = await this.directory.save(providerId, draft);
    await this.forgetKeyIfMoved(before, saved);
    await this.afterChange(saved.id);
    return this.listProviders();
  }

  /** Removes a custom provider (and its key), or a preset's edit. */
  async removeProvider(providerId: string): Promise<ProvidersState> {
    const wasActive = providerId === this.activeProviderId;
    const before = this.directory.find(providerId);
    await this.directory.remove(providerId);
    await this.forgetKeyIfMoved(before, this.directory.find(providerId));
    this.modelLists.forget(providerId);
    if (wasActive || providerId === this.activeProviderId) await this.restart();
    return this.listProviders();
  }

  /** A removed provider's key, or a moved one's for its old origin, leaves the keychain (it could never be sent again). */
  private async forgetKeyIfMoved(before: ProviderConfig | undefined | null, after: ProviderConfig | undefined): Promise<void> {
    if (!before) return;
    await this.keys.forgetIfMoved(before, after).catch((error: unknown) => this.options.logger.warn('could not remove a moved provider’s key', error));
  }

  /** The user lets the provider's withheld key go to `origin`, its origin (see ProviderKeys.allow). */
  async allowKey(providerId: string, reason: KeyWithheldReason, origin: string): Promise<ProvidersState> {
    await this.keys.allow(this.requireProvider(providerId), reason, origin);
    await this.afterChange(providerId);
    return this.listProviders();
  }

  /** Switches a provider's fast or deep model (the picker in Settings, a failure's offer). */
  async setModel(providerId: string, slot: ModelSlot, model: string): Promise<ProvidersState> {
    await this.directory.setModel(providerId, slot, model);
    await this.afterChange(providerId);
    return this.listProviders();
  }

  /** The models `providerId` serves to its key (cached; `refresh` fetches again). */
  async listModels(providerId: string, request: { refresh?: boolean; filter?: string } = {}): Promise<ModelListView> {
    const config = this.directory.require(providerId);
    const resolved = await this.keys.resolve(config);
    const configured = [config.model, ...(config.deepModel ? [config.deepModel] : [])];
    return this.modelLists.list({ id: config.id, baseUrl: config.baseUrl, apiKey: resolved.key, configured }, request);
  }

  /** The list cache needs no forgetting here: it is keyed by address and key, which an edit may change. */
  private async afterChange(providerId: string): Promise<void> {
    if (providerId === this.activeProviderId) await this.restart();
  }

  async setActiveProvider(providerId: string): Promise<ProvidersState> {
    this.requireProvider(providerId);
    await this.options.settings.update({ activeProvider: providerId });
    await this.restart();
    return this.listProviders();
  }

  async setKey(providerId: string, key: string): Promise<ProvidersState> {
    await this.keys.set(this.requireProvider(providerId), key);
    if (providerId === this.activeProviderId) await this.restart();
    return this.listProviders();
  }

  async deleteKey(providerId: string): Promise<ProvidersState> {
    await this.keys.delete(this.requireProvider(providerId));
    if (providerId === this.activeProviderId) await this.restart();
    return this.listProviders();
  }

  /** Opens the active provider's connection ahead of use (app start, project open, hotkey). */
  async warm(): Promise<void> {
    const provider = await this.ensureProvider();
    provider?.warm();
    const instructions = this.options.preloadInstructions?.(this.activeProviderKind);
    if (provider && instructions !== undefined) provider.preload(instructions);
  }

  /**
   * Opens the connection and pre-loads `instructions` (the stable part of the next
   * request: instructions, project, current file), so the turn sends only the question.
   */
  async preloadContext(instructions: string): Promise<void> {
    const provider = await this.ensureProvider();
    provider?.preload(instructions);
  }

  /** Why nothing can be asked of the active provider (no key), in words; null when it can be. */
  async missingKeyMessage(): Promise<string | null> {
    const config = this.requireProvider(this.activeProviderId);
    const resolved = await this.keys.resolve(config);
    if (resolved.key || (config.keyOptional && !resolved.withheld)) return null;
    return keyMissingMessage(config, resolved);
  }

  /**
   * The model a request of `depth` goes to, its protocol and its context window. Asking for
   * the deep model of a provider that has none is refused (never quietly the fast one).
   */
  modelFor(depth: AnswerDepth): { model: string; kind: ProviderConfig['kind']; windowTokens: number } {
    const config = this.requireProvider(this.activeProviderId);
    if (depth === 'deep' && !config.deepModel) {
      throw new FlintFailure('no-deep-model', `No deep model is set for ${config.label} — choose one in Settings. (Enter asks ${config.model}.)`);
    }
    const model = depth === 'deep' && config.deepModel ? config.deepModel : config.model;
    return { model, kind: config.kind, windowTokens: config.contextWindow ?? DEFAULT_CONTEXT_WINDOW };
  }

  /** The active provider's deep model, when it has one. */
  get deepModel(): string | null {
    return this.requireProvider(this.activeProviderId).deepModel ?? null;
  }

  /** The active provider's protocol (it decides the edit format). */
  get activeProviderKind(): ProviderConfig['kind'] {
    return this.requireProvider(this.activeProviderId).kind;
  }

  /**
   * Opens a stream for main-process callers (the edit session). Figures of the finished
   * request also feed the latency HUD.
   *
   * `keypressEpochMs` is the renderer's clock (performance.timeOrigin + now) at the
   * keypress, so Flint's own overhead includes the IPC hop.
   */
  async openStream(
    input: { prompt: string; depth: AnswerDepth; instructions?: string; history?: readonly ConversationMessage[]; keypressEpochMs?: number },
    sink: StreamSink,
  ): Promise<ModelStream> {
    const keypressAt = toLocalTime(input.keypressEpochMs);
    const config = this.requireProvider(this.activeProviderId);
    const provider = await this.ensureProvider();
    if (!provider) throw new FlintFailure('no-key', this.connection.state === 'no-key' && this.connection.message ? this.connection.message : noKeyMessage(config));
    const { model } = this.modelFor(input.depth);
    const request: StreamRequest = {
      model,
      input: input.prompt,
      keypressAt,
      ...(input.instructions !== undefined ? { instructions: input.instructions } : {}),
      ...(input.history?.length ? { history: input.history } : {}),
    };
    return provider.stream(request, {
      onDelta: (text) => sink.onDelta(text),
      onEnd: (end) => {
        // The provider's words about a refused model are replaced by ones that name it; the UI offers others.
        sink.onEnd(end.failure?.code === 'model-unavailable' ? { ...end, message: modelUnavailableMessage(model, config) } : end);
        this._onDidMeasure.fire(end.latency);
      },
    });
  }

  /** Sends a tiny request to a provider and reports the outcome in plain words. */
  async testConnection(providerId: string): Promise<ConnectionTestResult> {
    const config = this.requireProvider(providerId);
    const resolved = await this.keys.resolve(config);
    if (!resolved.key && (!config.keyOptional || resolved.withheld)) {
      return { ok: false, message: keyMissingMessage(config, resolved) };
    }
    const factory = this.options.factory ?? defaultProviderFactory;
    let provider: InferenceProvider;
    try {
      // The active provider is tested on its own warm connection; others on a temporary one.
      provider = (providerId === this.activeProviderId ? await this.ensureProvider() : null) ?? factory(config, resolved.key, this.options.logger);
    } catch (error) {
      // ensureProvider's failures are FlintFailures already, worded for the user.
      return { ok: false, message: (error instanceof FlintFailure ? error : this.providerFailure(error, config, resolved.key)).message };
    }
    const isTemporary = provider !== this.active?.provider;
    try {
      // The status bar's figures are the provider in use's: another's test shows in its own card only (the result carries them).
      const measured = providerId === this.activeProviderId ? (figures: LatencyFigures) => this._onDidMeasure.fire(figures) : () => undefined;
      return await runConnectionTest(provider, config, measured, (code, message) =>
        code === 'model-unavailable' ? `${modelUnavailableMessage(config.model, config)} Pick one it lists under Models.` : (message ?? 'The test failed.'),
      );
    } finally {
      if (isTemporary) provider.dispose();
    }
  }

  dispose(): void {
    this.closeActive();
    this.store.dispose();
  }

  private requireProvider(id: string): ProviderConfig {
    return this.directory.require(id);
  }

  /**
   * The active provider, built on first use; null when it needs a key and has none.
   *
   * One build at a time: concurrent callers wait for it. A build that settings or keys
   * overtook while it looked up the key is stale, and the loop builds again.
   */
  private async ensureProvider(): Promise<InferenceProvider | null> {
    for (;;) {
      const id = this.activeProviderId;
      if (this.active?.id === id) return this.active.provider;
      if (this.building) {
        await this.building.catch(() => undefined);
        continue;
      }
      const build = this.build(id);
      this.building = build;
      const outcome = await build.finally(() => {
        if (this.building === build) this.building = null;
      });
      if (outcome !== 'stale') return outcome;
    }
  }

  private async build(id: string): Promise<InferenceProvider | null | 'stale'> {
    this.closeActive();
    const generation = this.generation;
    const config = this.requireProvider(id);
    const resolved = await this.keys.resolve(config);
    if (generation !== this.generation) return 'stale';
    if (!resolved.key && (!config.keyOptional || resolved.withheld)) {
      this.setConnection(id, { state: 'no-key', message: keyMissingMessage(config, resolved) });
      return null;
    }
    let provider: InferenceProvider;
    try {
      provider = (this.options.factory ?? defaultProviderFactory)(config, resolved.key, this.options.logger);
    } catch (error) {
      const failure = this.providerFailure(error, config, resolved.key);
      this.setConnection(id, { state: 'offline', message: failure.message });
      throw failure;
    }
    const subscription = provider.onDidChangeState((state) => this.setConnection(id, state));
    this.active = { id, provider, subscription };
    return provider;
  }

  /** Rebuilds the active provider. A provider that cannot start shows in the connection status. */
  private async restart(): Promise<void> {
    this.closeActive();
    await this.warm().catch(() => undefined);
  }

  private closeActive(): void {
    this.generation += 1;
    if (!this.active) return;
    this.active.subscription.dispose();
    this.active.provider.dispose();
    this.active = null;
  }

  /**
   * A provider that could not be built, as a failure for the user. An InferenceFailure is
   * the settings' fault and says so in words; anything else is a bug of Flint's: its text
   * means nothing to the user (and might hold the key), so it goes to the log, key hidden.
   */
  private providerFailure(error: unknown, config: ProviderConfig, apiKey: string | null): FlintFailure {
    if (error instanceof InferenceFailure) return new FlintFailure('invalid-provider', error.message);
    redactingLogger(this.options.logger, apiKey).error(`building the provider ${JSON.stringify(config.id)} failed`, error);
    return new FlintFailure('internal', INTERNAL_ERROR_MESSAGE);
  }

  private setConnection(providerId: string, state: { state: ConnectionState; message?: string }): void {
    if (this.connection.state === state.state && this.connection.message === state.message) return;
    this.connection = state;
    this._onDidChangeConnection.fire({ providerId, ...state });
  }
}

/** Converts the renderer's epoch timestamp to this process's performance clock; implausible values mean "now". */
function toLocalTime(epochMs: number | undefined): number {
  const now = performance.now();
  if (epochMs === undefined || !Number.isFinite(epochMs)) return now;
  const local = epochMs - performance.timeOrigin;
  return local <= now && now - local < 10_000 ? local : now;
}

/** Why a request has no key: the key held back (and why), or none at all. */
function keyMissingMessage(config: ProviderConfig, resolved: ResolvedKey): string {
  return resolved.withheld?.message ?? noKeyMessage(config);
}
