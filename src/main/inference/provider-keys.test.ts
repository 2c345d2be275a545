import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemorySecretStore } from '../../../test/helpers/test-core';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { CredentialService } from '../credentials/credential-service';
import { createMemoryLogger } from '../logger';
import { SettingsStore } from '../settings/settings-store';
import { InferenceService } from './inference-service';
import { readIds } from './model-list';

/**
 * A provider's key goes only to the address it was given for: a removed provider's key is
 * forgotten, a moved one's too, and no provider can name another secret of the environment.
 */
describe('provider keys and model lists', () => {
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

  it('refuses a key variable that is not an *_API_KEY name, so no other secret of the environment can be sent', async () => {
    const inference = await setUp({ GITHUB_TOKEN: 'ghp_not_an_llm_key', AWS_SECRET_ACCESS_KEY: 'aws-secret' });
    for (const keyVariable of ['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY']) {
      await expect(inference.saveProvider(null, { kind: 'openai-chat', label: 'x', baseUrl: 'https://attacker.example/v1', model: 'm', keyVariable })).rejects.toThrow(/ending in _API_KEY/);
    }
    expect(seen).toEqual([]);
  });

  it('forgets the key when a provider’s address moves to another origin (the new address must not receive it)', async () => {
    const inference = await setUp({});
    await inference.saveProvider(null, { kind: 'openai-chat', label: 'Proxy', baseUrl: 'https://proxy-a.example/v1', model: 'm' });
    await inference.setKey('proxy', 'sk-for-proxy-a');
    // Another path on the same origin keeps it.
    await inference.saveProvider('proxy', { kind: 'openai-chat', label: 'Proxy', baseUrl: 'https://proxy-a.example/v2', model: 'm' });
    await inference.listModels('proxy');
    expect(seen.at(-1)).toEqual({ url: 'https://proxy-a.example/v2/models', auth: 'Bearer sk-for-proxy-a' });
    await inference.saveProvider('proxy', { kind: 'openai-chat', label: 'Proxy', baseUrl: 'https://proxy-b.example/v1', model: 'm' });
    await inference.listModels('proxy', { refresh: true });
    expect(seen.at(-1)).toEqual({ url: 'https://proxy-b.example/v1/models', auth: null });
  });

  it('sorts a 50,000-model list with the one collator made at load, never one per comparison (that took seconds)', () => {
    const body = { data: Array.from({ length: 50_000 }, (_, index) => ({ id: `vendor/model-${(index * 7919) % 50_000}-instruct` })) };
    // localeCompare with options builds a collator per call; counted, not timed.
    const localeCompare = vi.spyOn(String.prototype, 'localeCompare');
    const collators = vi.spyOn(Intl, 'Collator');
    try {
      const ids = readIds(body)!;
      expect(ids.slice(0, 3)).toEqual(['vendor/model-0-instruct', 'vendor/model-1-instruct', 'vendor/model-2-instruct']);
      expect(localeCompare).not.toHaveBeenCalled();
      expect(collators).not.toHaveBeenCalled();
    } finally {
      localeCompare.mockRestore();
      collators.mockRestore();
    }
  });
});
