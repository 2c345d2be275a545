import type { StreamEnd } from './model-stream';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../test/helpers/test-core';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { SimScriptSchema } from '../../../test/sim/sim-script';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../../test/sim/simulator';
import { CredentialService } from '../credentials/credential-service';
import { createMemoryLogger } from '../logger';
import { SettingsStore } from '../settings/settings-store';
import { InferenceService } from './inference-service';
import { INTERNAL_ERROR_MESSAGE } from './run-model-stream';

const KEY = 'sk-sim-0123456789-secret';

describe('InferenceService', () => {
  let sim: Simulator;
  let config: TempProject;
  let service: InferenceService;
  let secrets: MemorySecretStore;
  let wire: string[];

  async function setUp(env: NodeJS.ProcessEnv, simOptions: SimulatorOptions = {}) {
    sim = await startSimulator({
      ...simOptions,
      ttftMs: 5,
      tokensPerSecond: 5000,
      apiKey: KEY,
      models: ['spark', 'deep'],
      script: SimScriptSchema.parse({ defaultAnswer: 'ready', rules: [{ match: { model: 'deep' }, answer: { text: 'A deeper answer.' } }] }),
    });
    config = await createTempProject();
    const { store } = await SettingsStore.load(config.root);
    const logger = createMemoryLogger();
    secrets = new MemorySecretStore();
    const fullEnv = { FLINT_BASE_URL: sim.baseUrl, FLINT_MODEL: 'spark', ...env };
    service = new InferenceService({ settings: store, credentials: new CredentialService(secrets, logger), env: fullEnv, logger });
    // Everything the UI could ever receive, serialized as it would be.
    wire = [];
    service.onDidChangeConnection((event) => wire.push(JSON.stringify(event)));
    service.onDidMeasure((event) => wire.push(JSON.stringify(event)));
    return logger;
  }

  /** One streamed answer through the service, as an edit session opens it. */
  function answer(input: { prompt: string; depth: 'fast' | 'deep'; instructions?: string }): Promise<{ text: string; end: StreamEnd }> {
    return new Promise((resolve, reject) => {
      let text = '';
      service.openStream(input, { onDelta: (delta) => (text += delta), onEnd: (end) => resolve({ text, end }) }).catch(reject);
    });
  }

  afterEach(async () => {
    service?.dispose();
    await sim?.close();
    await config?.remove();
  });

  it('uses the environment provider for the run, and says no key is configured', async () => {
    await setUp({ FLINT_PROVIDER: 'openai-responses' });
    const state = await service.listProviders();
    expect(state.activeProviderId).toBe('environment');
    expect(state.providers.find((provider) => provider.id === 'environment')).toMatchObject({ baseUrl: sim.baseUrl, model: 'spark', keySource: 'none' });
    await expect(answer({ prompt: 'hi', depth: 'fast' })).rejects.toThrow('No API key for From environment');
    expect(service.connectionState.state).toBe('no-key');
  });

  it('words a missing key the same everywhere, and refuses a request with the no-key code', async () => {
    await setUp({ FLINT_PROVIDER: 'openai-responses' });
    const words = await service.missingKeyMessage();
    expect(words).toBe('No API key for From environment (FLINT_*). Add one in Settings, or start Flint with FLINT_API_KEY set.');
    await expect(answer({ prompt: 'hi', depth: 'fast' })).rejects.toMatchObject({ code: 'no-key', message: words });
    expect(service.connectionState.message).toBe(words);
    expect(await service.testConnection('environment')).toEqual({ ok: false, message: words });
  });

  it('takes the key from FLINT_API_KEY and shows it as coming from the environment', async () => {
    await setUp({ FLINT_API_KEY: KEY });
    const state = await service.listProviders();
    expect(state.providers.find((provider) => provider.id === 'environment')).toMatchObject({ keySource: 'environment', keyFromVariable: 'FLINT_API_KEY' });
    const { end } = await answer({ prompt: 'hello', depth: 'fast' });
    expect(end).toMatchObject({ outcome: 'completed', latency: { model: 'spark' } });
  });

  it('stores, replaces and removes a key in the keychain under the provider and its origin', async () => {
    await setUp({});
    const account = `environment@${new URL(sim.baseUrl).origin}`;
    let state = await service.setKey('environment', `  ${KEY}  `);
    expect(state.providers.find((provider) => provider.id === 'environment')).toMatchObject({ keySource: 'keychain', keyOrigin: new URL(sim.baseUrl).origin });
    expect(secrets.secrets.get(account)).toBe(KEY);
    state = await service.setKey('environment', 'sk-replaced');
    expect(secrets.secrets.get(account)).toBe('sk-replaced');
    state = await service.deleteKey('environment');
    expect(state.providers.find((provider) => provider.id === 'environment')).toMatchObject({ keySource: 'none' });
    expect(secrets.secrets.size).toBe(0);
    await expect(service.setKey('environment', 'sk\nbroken')).rejects.toThrow('control characters');
    await expect(service.setKey('nope', KEY)).rejects.toMatchObject({ code: 'invalid-provider', message: expect.stringContaining('no provider named') });
  });

  it('lets FLINT_API_KEY, given with FLINT_BASE_URL, win over the keychain for that run', async () => {
    await setUp({ FLINT_API_KEY: KEY });
    const state = await service.setKey('environment', 'sk-stored-earlier');
    expect(state.providers.find((provider) => provider.id === 'environment')).toMatchObject({ keySource: 'environment', keyFromVariable: 'FLINT_API_KEY' });
    expect((await answer({ prompt: 'hello', depth: 'fast' })).end.outcome).toBe('completed');
  });

  it('tests a connection: success with figures, and a rejected key in plain words', async () => {
    await setUp({});
    await service.setKey('environment', KEY);
    const good = await service.testConnection('environment');
    expect(good).toMatchObject({ ok: true, message: expect.stringMatching(/^Connected to spark — first token in \d+ ms\.$/) });
    expect(good.latency?.keypressToWriteMs).toBeGreaterThanOrEqual(0);
    await service.setKey('environment', 'sk-wrong');
    const bad = await service.testConnection('environment');
    expect(bad).toMatchObject({ ok: false, message: expect.stringContaining('rejected the API key') });
  });

  it('feeds the latency HUD from a test of the provider in use only, never from another provider’s test', async () => {
    await setUp({ FLINT_API_KEY: KEY });
    const measured: string[] = [];
    service.onDidMeasure((figures) => measured.push(figures.model));
    await service.saveProvider(null, { kind: 'openai-chat', label: 'Sim chat', baseUrl: sim.baseUrl, model: 'deep', keyVariable: 'FLINT_API_KEY' });
    expect(await service.testConnection('sim-chat')).toMatchObject({ ok: true, message: expect.stringContaining('Connected to deep') });
    expect(measured).toEqual([]);
    expect(await service.testConnection('environment')).toMatchObject({ ok: true });
    expect(measured).toEqual(['spark']);
  });

  it('answers with the deeper model one switch away', async () => {
    await setUp({ FLINT_API_KEY: KEY, FLINT_DEEP_MODEL: 'deep' });
    expect((await answer({ prompt: 'think', depth: 'deep' })).text).toBe('A deeper answer.');
    expect(sim.requests.at(-1)!.body.model).toBe('deep');
  });

  it('refuses the deep model when the provider has none, instead of asking the fast one', async () => {
    await setUp({ FLINT_API_KEY: KEY });
    const before = sim.requests.length;
    await expect(answer({ prompt: 'think', depth: 'deep' })).rejects.toMatchObject({
      code: 'no-deep-model',
      message: 'No deep model is set for From environment (FLINT_*) — choose one in Settings. (Enter asks spark.)',
    });
    expect(sim.requests.length).toBe(before);
  });

  it('names a refused model in the failure, without the provider’s words, and lists the ones it serves', async () => {
    await setUp({ FLINT_API_KEY: KEY, FLINT_MODEL: 'gpt-5.3-codex-spark' });
    const refused = await answer({ prompt: 'x', depth: 'fast' });
    expect(refused.end.failure?.code).toBe('model-unavailable');
    expect(refused.end.message).toBe('gpt-5.3-codex-spark is not available with this key at From environment (FLINT_*).');
    expect(await service.testConnection('environment')).toMatchObject({ ok: false, message: expect.stringContaining('gpt-5.3-codex-spark is not available') });
    const list = await service.listModels('environment');
    expect(list).toMatchObject({ source: 'provider', models: ['deep', 'spark'], unlisted: ['gpt-5.3-codex-spark'] });
    await service.setModel('environment', 'fast', 'spark');
    expect((await answer({ prompt: 'x', depth: 'fast' })).end.outcome).toBe('completed');
  });

  it('reads a 403 "no access to model" over chat completions as the model refused, not the key', async () => {
    const modelRefusal = { status: 403, code: 'permission_denied', message: 'Project proj_123 does not have access to model {model}' };
    await setUp({ FLINT_API_KEY: KEY, FLINT_PROVIDER: 'openai-chat', FLINT_MODEL: 'gpt-5.3-codex-spark' }, { modelRefusal });
    const refused = await answer({ prompt: 'x', depth: 'fast' });
    expect(refused.end.failure?.code).toBe('model-unavailable');
    expect(refused.end.message).toBe('gpt-5.3-codex-spark is not available with this key at From environment (FLINT_*).');
  });

  it('reports the model the provider says answered, in both protocols (an alias resolves to its dated name)', async () => {
    for (const kind of ['openai-responses', 'openai-chat']) {
      await setUp({ FLINT_API_KEY: KEY, FLINT_PROVIDER: kind }, { aliases: { spark: 'spark-2026-11-01' } });
      expect((await answer({ prompt: 'x', depth: 'fast' })).end.latency.model).toBe('spark-2026-11-01');
      service.dispose();
      await sim.close();
      await config.remove();
    }
  });

  it('never lets a key into anything the UI receives', async () => {
    await setUp({ FLINT_API_KEY: KEY });
    await service.testConnection('environment');
    await service.setKey('environment', KEY);
    await service.testConnection('environment');
    wire.push(JSON.stringify(await answer({ prompt: 'x', depth: 'fast' })));
    wire.push(JSON.stringify(await service.listModels('environment', { refresh: true })));
    const state = JSON.stringify(await service.listProviders());
    for (const text of [...wire, state]) expect(text).not.toContain(KEY);
  });

  it('refuses to send a key that cannot travel in a header, and says why', async () => {
    await setUp({});
    await service.setKey('environment', 'sk-ключ');
    expect(service.connectionState).toMatchObject({ state: 'offline', message: expect.stringContaining('cannot be sent') });
    expect(await service.testConnection('environment')).toMatchObject({ ok: false, message: expect.stringContaining('cannot be sent') });
    await expect(answer({ prompt: 'x', depth: 'fast' })).rejects.toMatchObject({ code: 'invalid-provider', message: expect.stringContaining('cannot be sent') });
  });

  it('builds one provider when several callers warm it at once (no leaked connections)', async () => {
    await setUp({ FLINT_API_KEY: KEY });
    await Promise.all([service.warm(), service.warm(), service.warm()]);
    await waitFor(() => sim.connectionCount() >= 2, 'the warm connections');
    // A provider built per caller would have begun its own connections inside warm(); a
    // whole answer over the warm pool (many turns of the same event loop, later than any
    // such upgrade's) ends after the simulator would have seen them.
    expect((await answer({ prompt: 'x', depth: 'fast' })).end.outcome).toBe('completed');
    expect(sim.upgradeAttempts()).toBe(2);
    expect(sim.connectionCount()).toBe(2);
  });

  it('pre-loads the stable instructions when it warms, so a turn sends only its own input', async () => {
    await setUp({ FLINT_API_KEY: KEY });
    service.dispose();
    const { store } = await SettingsStore.load(config.root);
    const logger = createMemoryLogger();
    const env = { FLINT_BASE_URL: sim.baseUrl, FLINT_MODEL: 'spark', FLINT_API_KEY: KEY };
    service = new InferenceService({ settings: store, credentials: new CredentialService(secrets, logger), env, logger, preloadInstructions: () => 'You are Flint.' });
    await service.warm();
    await waitFor(() => sim.requests.filter((request) => request.body.generate === false).length === 2, 'both sockets pre-loaded');
    await answer({ prompt: 'hello', depth: 'fast', instructions: 'You are Flint.' });
    const sent = sim.requests.at(-1)!.body;
    expect(sent.previous_response_id).toMatch(/^resp_/);
    expect(sent.instructions).toBeUndefined();
  });

  it('sends FLINT_API_KEY only to the FLINT_* provider, never to another endpoint', async () => {
    await setUp({ FLINT_API_KEY: KEY });
    const state = await service.listProviders();
    expect(state.providers.find((provider) => provider.id === 'openai')!.keySource).toBe('none');
    expect(state.providers.find((provider) => provider.id === 'cerebras')!.keySource).toBe('none');
  });

  it('reports a bad FLINT_PROVIDER and a base URL with the wrong scheme in plain words', async () => {
    await setUp({ FLINT_PROVIDER: 'carrier-pigeon' });
    expect((await service.listProviders()).problems[0]).toContain('FLINT_PROVIDER must be openai-responses or openai-chat');
    service.dispose();
    await setUp({ FLINT_BASE_URL: 'ftp://example.com/v1', FLINT_API_KEY: KEY });
    expect(await service.testConnection('environment')).toMatchObject({ ok: false, message: expect.stringContaining('must start with https://') });
  });
});

describe('InferenceService, when building a provider fails with a bug', () => {
  let config: TempProject | undefined;
  let service: InferenceService | undefined;

  afterEach(async () => {
    service?.dispose();
    await config?.remove();
  });

  it('reports an internal error in plain words, keeps the bug’s text out of every surface, and logs it with the key hidden', async () => {
    config = await createTempProject();
    const { store } = await SettingsStore.load(config.root);
    const logger = createMemoryLogger();
    const env = { FLINT_BASE_URL: 'http://127.0.0.1:9/v1', FLINT_MODEL: 'spark', FLINT_API_KEY: KEY };
    const factory = (): never => {
      throw new TypeError(`Cannot read properties of undefined (reading 'model') near ${KEY}`);
    };
    service = new InferenceService({ settings: store, credentials: new CredentialService(new MemorySecretStore(), logger), env, logger, factory });
    await expect(service.openStream({ prompt: 'x', depth: 'fast' }, { onDelta: () => undefined, onEnd: () => undefined })).rejects.toMatchObject({
      code: 'internal',
      message: INTERNAL_ERROR_MESSAGE,
    });
    expect(service.connectionState).toEqual({ state: 'offline', message: INTERNAL_ERROR_MESSAGE });
    expect(await service.testConnection('environment')).toEqual({ ok: false, message: INTERNAL_ERROR_MESSAGE });
    const logged = logger.lines.filter((line) => line.startsWith('error: building the provider "environment" failed: TypeError: Cannot read properties'));
    expect(logged).toHaveLength(2);
    expect(logged.join('\n')).not.toContain(KEY);
  });
});
