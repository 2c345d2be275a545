/**
 * Runs of Flint's inference service whose every outgoing key is recorded with the origin it
 * goes to: `GET /models` through a recording fetch, and every provider (warm-up, stream,
 * Test connection) at the factory that hands it the key. Runs share a config folder and a
 * keychain, as runs of the app do; each run has its own environment.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CredentialService } from '../../src/main/credentials/credential-service';
import { InferenceService, type ProviderFactory } from '../../src/main/inference/inference-service';
import type { InferenceProvider, ModelStream } from '../../src/main/inference/model-stream';
import { createMemoryLogger } from '../../src/main/logger';
import { Emitter } from '../../src/main/lifecycle';
import { SettingsStore } from '../../src/main/settings/settings-store';
import { MemorySecretStore } from './test-core';
import { createTempProject, type TempProject } from './temp-project';

/** A key that went out: to which origin, by which path, and which key (null: none). */
export interface SentKey {
  origin: string;
  via: 'models' | 'provider';
  key: string | null;
}

/** A provider that sends nothing itself: the factory recorded the key it was given. */
function silentProvider(): InferenceProvider {
  const states = new Emitter<{ state: 'ready' }>();
  const done: ModelStream['done'] = Promise.resolve({
    outcome: 'completed',
    latency: { keypressToWriteMs: 0, requestToFirstDeltaMs: 0, tokensPerSecond: null, totalMs: 0, outputTokens: 0, model: 'm' },
  });
  return { warm: () => undefined, preload: () => undefined, stream: () => ({ cancel: () => undefined, done }), onDidChangeState: states.event, dispose: () => states.dispose() };
}

export interface KeyWire {
  readonly sent: SentKey[];
  readonly secrets: MemorySecretStore;
  /** The service of the current run. */
  readonly service: InferenceService;
  /** Starts a new run (the last one is disposed) with this environment. */
  run(env: NodeJS.ProcessEnv): Promise<InferenceService>;
  /** Damages settings.json: the next run sets it aside and starts from defaults (the keychain stays). */
  damageSettings(): Promise<void>;
  dispose(): Promise<void>;
}

export async function createKeyWire(): Promise<KeyWire> {
  const config: TempProject = await createTempProject();
  const secrets = new MemorySecretStore();
  const sent: SentKey[] = [];
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const auth = new Headers(init?.headers).get('authorization');
    sent.push({ origin: new URL(String(url)).origin, via: 'models', key: auth?.replace(/^Bearer /, '') ?? null });
    return new Response(JSON.stringify({ data: [{ id: 'm' }] }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  const factory: ProviderFactory = (provider, apiKey) => {
    sent.push({ origin: new URL(provider.baseUrl).origin, via: 'provider', key: apiKey });
    return silentProvider();
  };
  let service: InferenceService | undefined;
  const wire: KeyWire = {
    sent,
    secrets,
    get service() {
      if (!service) throw new Error('no run started');
      return service;
    },
    async run(env) {
      service?.dispose();
      const logger = createMemoryLogger();
      const { store } = await SettingsStore.load(config.root);
      service = new InferenceService({ settings: store, credentials: new CredentialService(secrets, logger), env, logger, factory, modelList: { fetch } });
      return service;
    },
    damageSettings: () => writeFile(join(config.root, 'settings.json'), '{ "providers": [ damaged'),
    async dispose() {
      service?.dispose();
      await config.remove();
    },
  };
  return wire;
}
