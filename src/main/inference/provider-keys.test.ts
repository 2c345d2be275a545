import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKeyWire, type KeyWire } from '../../../test/helpers/key-wire';
import { readIds } from './model-list';

/**
 * A key goes only to the origin it was given for, whatever its source, on every path that
 * sends one (model list, warm-up, Test connection). Each case is one the issue reproduced.
 */
describe('provider keys', () => {
  let wire: KeyWire;
  const keysSentTo = (origin: string) => [...new Set(wire.sent.filter((sent) => sent.origin === origin).map((sent) => sent.key))];

  afterEach(async () => {
    await wire?.dispose();
  });

  it('never sends a key saved for the environment provider at one address to the address of a later run', async () => {
    wire = await createKeyWire();
    const openai = await wire.run({ FLINT_BASE_URL: 'https://api.openai.com/v1' });
    await openai.setKey('environment', 'sk-openai-key');
    await openai.listModels('environment');
    expect(keysSentTo('https://api.openai.com')).toEqual(['sk-openai-key']);
    // Run 2: another address and the key meant for it, over plain http.
    const gpu = await wire.run({ FLINT_PROVIDER: 'openai-chat', FLINT_BASE_URL: 'http://gpu-box.lan:8000/v1', FLINT_API_KEY: 'sk-meant-for-gpu-box' });
    await gpu.listModels('environment');
    await gpu.warm();
    expect(await gpu.testConnection('environment')).toMatchObject({ ok: false, message: expect.stringContaining('not encrypted (http)') });
    const view = (await gpu.listProviders()).providers.find((provider) => provider.id === 'environment')!;
    expect(view).toMatchObject({ keySource: 'environment', keyFromVariable: 'FLINT_API_KEY', keyOrigin: 'http://gpu-box.lan:8000', keyWithheld: { reason: 'cleartext' } });
    expect(keysSentTo('http://gpu-box.lan:8000')).toEqual([null]);
    // The user says yes to the unencrypted address: FLINT_API_KEY, never the OpenAI key.
    await gpu.allowKey('environment', 'cleartext', 'http://gpu-box.lan:8000');
    await gpu.listModels('environment', { refresh: true });
    expect(keysSentTo('http://gpu-box.lan:8000')).toEqual([null, 'sk-meant-for-gpu-box']);
    // Remembered for that origin: the next run needs no second yes.
    await (await wire.run({ FLINT_PROVIDER: 'openai-chat', FLINT_BASE_URL: 'http://gpu-box.lan:8000/v1', FLINT_API_KEY: 'sk-meant-for-gpu-box' })).listModels('environment');
    expect(wire.sent.at(-1)).toEqual({ origin: 'http://gpu-box.lan:8000', via: 'models', key: 'sk-meant-for-gpu-box' });
  });

  it('sends an environment variable’s key only to its preset’s origin until the user allows another', async () => {
    wire = await createKeyWire();
    const inference = await wire.run({ OPENAI_API_KEY: 'sk-openai-env' });
    await inference.listModels('openai');
    expect(keysSentTo('https://api.openai.com')).toEqual(['sk-openai-env']);
    // The preset edited to point at a proxy, and a custom provider naming the same variable.
    await inference.saveProvider('openai', { kind: 'openai-responses', label: 'OpenAI', baseUrl: 'http://proxy.example:8080/v1', model: 'gpt-5.3-codex-spark', keyVariable: 'OPENAI_API_KEY' });
    await inference.saveProvider(null, { kind: 'openai-chat', label: 'Attacker', baseUrl: 'http://attacker.example/v1', model: 'm', keyVariable: 'OPENAI_API_KEY' });
    await inference.setActiveProvider('openai');
    await inference.listModels('openai');
    await inference.listModels('attacker');
    await inference.testConnection('attacker');
    expect(keysSentTo('http://proxy.example:8080')).toEqual([null]);
    expect(keysSentTo('http://attacker.example')).toEqual([null]);
    const proxy = (await inference.listProviders()).providers.find((provider) => provider.id === 'openai')!;
    expect(proxy.keyWithheld).toEqual({ reason: 'other-origin', message: 'OPENAI_API_KEY is set, but it is the key for https://api.openai.com: it is not sent to http://proxy.example:8080 unless you allow it in Settings.' });
    // Allowing the origin is one yes; plain http to another machine is a second.
    await inference.allowKey('openai', 'other-origin', 'http://proxy.example:8080');
    expect((await inference.listProviders()).providers.find((provider) => provider.id === 'openai')!.keyWithheld).toMatchObject({ reason: 'cleartext' });
    await expect(inference.allowKey('openai', 'other-origin', 'http://proxy.example:8080')).rejects.toMatchObject({ code: 'invalid-state' });
    await inference.allowKey('openai', 'cleartext', 'http://proxy.example:8080');
    await inference.listModels('openai', { refresh: true });
    expect(keysSentTo('http://proxy.example:8080')).toEqual([null, 'sk-openai-env']);
    // The custom provider at another origin still gets nothing.
    await inference.listModels('attacker', { refresh: true });
    expect(keysSentTo('http://attacker.example')).toEqual([null]);
  });

  it('records a yes only for the address the user was shown: a provider moved since is refused and nothing is allowed', async () => {
    wire = await createKeyWire();
    const inference = await wire.run({ OPENAI_API_KEY: 'sk-openai-env' });
    await inference.saveProvider(null, { kind: 'openai-chat', label: 'Proxy', baseUrl: 'https://proxy-a.example/v1', model: 'm', keyVariable: 'OPENAI_API_KEY' });
    // Settings showed proxy-a; meanwhile (another tab, settings.json) the provider moved to proxy-b.
    await inference.saveProvider('proxy', { kind: 'openai-chat', label: 'Proxy', baseUrl: 'https://proxy-b.example/v1', model: 'm', keyVariable: 'OPENAI_API_KEY' });
    await expect(inference.allowKey('proxy', 'other-origin', 'https://proxy-a.example')).rejects.toMatchObject({ code: 'invalid-state', message: 'Proxy is no longer at https://proxy-a.example; nothing was allowed.' });
    await inference.listModels('proxy');
    expect(keysSentTo('https://proxy-b.example')).toEqual([null]);
  });

  it('never gives a key to a same-named provider elsewhere after the settings were damaged and reset', async () => {
    wire = await createKeyWire();
    const first = await wire.run({});
    await first.saveProvider(null, { kind: 'openai-chat', label: 'My proxy', baseUrl: 'https://proxy-a.example/v1', model: 'm' });
    await first.setKey('my-proxy', 'sk-secret-for-proxy-a');
    await wire.damageSettings();
    const second = await wire.run({});
    await second.saveProvider(null, { kind: 'openai-chat', label: 'My proxy', baseUrl: 'https://someone-else.example/v1', model: 'm' });
    await second.listModels('my-proxy');
    await second.testConnection('my-proxy');
    expect(keysSentTo('https://someone-else.example')).toEqual([null]);
    expect((await second.listProviders()).providers.find((provider) => provider.id === 'my-proxy')).toMatchObject({ keySource: 'none', keyOrigin: 'https://someone-else.example' });
  });

  it('forgets a removed provider’s key, and a moved one’s for its old origin', async () => {
    wire = await createKeyWire();
    const inference = await wire.run({});
    await inference.saveProvider(null, { kind: 'openai-chat', label: 'Proxy', baseUrl: 'https://proxy-a.example/v1', model: 'm' });
    await inference.setKey('proxy', 'sk-for-proxy-a');
    // Another path on the same origin keeps it.
    await inference.saveProvider('proxy', { kind: 'openai-chat', label: 'Proxy', baseUrl: 'https://proxy-a.example/v2', model: 'm' });
    await inference.listModels('proxy');
    expect(wire.sent.at(-1)).toEqual({ origin: 'https://proxy-a.example', via: 'models', key: 'sk-for-proxy-a' });
    await inference.saveProvider('proxy', { kind: 'openai-chat', label: 'Proxy', baseUrl: 'https://proxy-b.example/v1', model: 'm' });
    await inference.listModels('proxy', { refresh: true });
    expect(wire.sent.at(-1)).toEqual({ origin: 'https://proxy-b.example', via: 'models', key: null });
    expect(wire.secrets.secrets.size).toBe(0);
    await inference.setKey('proxy', 'sk-for-proxy-b');
    await inference.removeProvider('proxy');
    expect(wire.secrets.secrets.size).toBe(0);
  });

  it('sends keys over plain http to this machine without asking (a local server or the simulator)', async () => {
    wire = await createKeyWire();
    const inference = await wire.run({ FLINT_BASE_URL: 'http://127.0.0.1:8787/v1', FLINT_API_KEY: 'sk-local' });
    await inference.saveProvider(null, { kind: 'openai-chat', label: 'Local', baseUrl: 'http://localhost:9000/v1', model: 'm' });
    await inference.setKey('local', 'sk-localhost');
    await inference.listModels('environment');
    await inference.listModels('local');
    expect(keysSentTo('http://127.0.0.1:8787')).toEqual(['sk-local']);
    expect(keysSentTo('http://localhost:9000')).toEqual(['sk-localhost']);
  });

  it('moves a preset’s key stored by an older Flint under its bare id to the preset’s own origin, and never guesses for others', async () => {
    wire = await createKeyWire();
    await wire.secrets.set('openai', 'sk-legacy-openai');
    await wire.secrets.set('environment', 'sk-legacy-environment');
    await wire.secrets.set('my-proxy', 'sk-legacy-proxy');
    const inference = await wire.run({ FLINT_PROVIDER: 'openai-chat', FLINT_BASE_URL: 'http://gpu-box.lan:8000/v1' });
    await inference.saveProvider(null, { kind: 'openai-chat', label: 'My proxy', baseUrl: 'https://someone-else.example/v1', model: 'm' });
    await inference.allowKey('environment', 'cleartext', 'http://gpu-box.lan:8000').catch(() => undefined);
    for (const id of ['openai', 'environment', 'my-proxy']) await inference.listModels(id);
    expect(keysSentTo('https://api.openai.com')).toEqual(['sk-legacy-openai']);
    expect(keysSentTo('http://gpu-box.lan:8000')).toEqual([null]);
    expect(keysSentTo('https://someone-else.example')).toEqual([null]);
    expect(wire.secrets.secrets.get('openai@https://api.openai.com')).toBe('sk-legacy-openai');
    expect(wire.secrets.secrets.has('openai')).toBe(false);
  });

  it('refuses a key variable that is not an *_API_KEY name, so no other secret of the environment can be sent', async () => {
    wire = await createKeyWire();
    const inference = await wire.run({ GITHUB_TOKEN: 'ghp_not_an_llm_key', AWS_SECRET_ACCESS_KEY: 'aws-secret' });
    for (const keyVariable of ['GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY']) {
      await expect(inference.saveProvider(null, { kind: 'openai-chat', label: 'x', baseUrl: 'https://attacker.example/v1', model: 'm', keyVariable })).rejects.toThrow(/ending in _API_KEY/);
    }
    expect(wire.sent).toEqual([]);
  });
});

describe('the model list', () => {
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
