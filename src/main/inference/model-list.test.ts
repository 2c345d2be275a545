/**
 * The model list against the simulator over real HTTP: a good list, a provider without
 * the route, one too slow, one with thousands of models, and a key that must never show.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../../test/sim/simulator';
import { fetchModelIds, MODEL_LIST_LIMIT, ModelListCache, readIds, type ModelListTarget } from './model-list';

const KEY = 'sk-list-0123456789-secret';

describe('the model list', () => {
  let sim: Simulator | undefined;

  async function serve(options: SimulatorOptions): Promise<ModelListTarget> {
    sim = await startSimulator({ apiKey: KEY, ...options });
    return { id: 'sim', baseUrl: sim.baseUrl, apiKey: KEY, configured: ['gpt-5.3-codex-spark', 'gpt-5.3-codex'] };
  }

  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  it('lists what the provider serves, sorted and without duplicates, and marks configured names it does not list', async () => {
    const target = await serve({ modelList: { ids: ['gpt-oss-120b', 'llama-4-scout', 'gpt-oss-120b', 'gpt-5.3-codex', 'gpt-oss-20b'] } });
    const view = await new ModelListCache().list(target);
    expect(view.source).toBe('provider');
    expect(view.models).toEqual(['gpt-5.3-codex', 'gpt-oss-20b', 'gpt-oss-120b', 'llama-4-scout']);
    expect(view.total).toBe(4);
    expect(view.unlisted).toEqual(['gpt-5.3-codex-spark']);
    expect(view.reason).toBeUndefined();
    expect(view.fetchedAtEpochMs).toBeTypeOf('number');
  });

  it('keeps the configured names and says why when the provider has no /models (404)', async () => {
    const view = await new ModelListCache().list(await serve({ modelList: { status: 404 } }));
    expect(view.source).toBe('configured');
    expect(view.models).toEqual(['gpt-5.3-codex-spark', 'gpt-5.3-codex']);
    expect(view.reason).toBe('Showing the configured names: 404 — this provider does not list models.');
  });

  it('gives up on a slow provider after the timeout and keeps the configured names', async () => {
    // The provider would answer in an hour: the list can only come from Flint's own timeout.
    const target = await serve({ modelList: { ids: ['late-model'], delayMs: 3_600_000 } });
    const view = await new ModelListCache({ timeoutMs: 300 }).list(target);
    expect(view.source).toBe('configured');
    expect(view.reason).toBe('Showing the configured names: timed out after 0.3 s.');
  });

  it('says offline when nothing listens at the address', async () => {
    const target = await serve({});
    await sim!.close();
    sim = undefined;
    const view = await new ModelListCache().list(target);
    expect(view.reason).toBe('Showing the configured names: offline — the connection was refused.');
  });

  it('sends at most 500 of 5,000 models, counts them all, and filters the rest in main', async () => {
    const ids = Array.from({ length: 5_000 }, (_, index) => `model-${String(index).padStart(4, '0')}`);
    const cache = new ModelListCache();
    const target = await serve({ modelList: { ids: [...ids].reverse() } });
    const view = await cache.list(target);
    expect(view.total).toBe(5_000);
    expect(view.models).toHaveLength(MODEL_LIST_LIMIT);
    expect(view.models[0]).toBe('model-0000');
    // The filter is answered from the cache: the provider is not asked again.
    await sim!.close();
    sim = undefined;
    const filtered = await cache.list(target, { filter: 'MODEL-49' });
    expect(filtered.matching).toBe(100);
    expect(filtered.total).toBe(5_000);
    expect(filtered.models.at(-1)).toBe('model-4999');
  });

  it('answers from its cache until Refresh, and keeps the earlier list when a refresh fails', async () => {
    const target = await serve({ modelList: { ids: ['a-model'] } });
    const cache = new ModelListCache();
    const first = await cache.list(target);
    await sim!.close();
    sim = undefined;
    expect(await cache.list(target)).toEqual(first);
    const refreshed = await cache.list(target, { refresh: true });
    expect(refreshed.models).toEqual(['a-model']);
    expect(refreshed.source).toBe('provider');
    expect(refreshed.reason).toBe('Could not refresh (offline — the connection was refused); this is the earlier list.');
  });

  it('never lets the key into a reason, even from a provider that echoes it', async () => {
    const target = await serve({ echoKeyInErrors: true, modelList: { ids: ['x'] } });
    const refused = await fetchModelIds(target.baseUrl, 'sk-wrong-key-that-is-echoed');
    expect(refused).toEqual({ ok: false, reason: 'the provider refused the key (401)' });
    for (const key of [KEY, 'sk-bad key with spaces', 'sk-ünïcode-key']) {
      const result = await fetchModelIds(`http://${key}@127.0.0.1:1/v1`, key, { timeoutMs: 500 });
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).not.toContain(key);
    }
  });

  it('reads OpenAI’s shape and Ollama’s, and nothing else', () => {
    expect(readIds({ object: 'list', data: [{ id: 'b' }, { id: 'a' }, { id: '' }, { nope: 1 }] })).toEqual(['a', 'b']);
    expect(readIds({ models: [{ name: 'qwen3-coder:30b' }] })).toEqual(['qwen3-coder:30b']);
    expect(readIds({ error: 'nope' })).toBeNull();
    expect(readIds('a string')).toBeNull();
  });
});
