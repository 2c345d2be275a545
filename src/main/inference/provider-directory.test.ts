/**
 * Adding, editing and removing providers: validated in main with words that say what to
 * type, kept in settings.json, presets protected, the environment provider read-only.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import type { ProviderDraft } from '../../shared/inference-types';
import { FlintFailure } from '../../shared/result';
import { SettingsStore } from '../settings/settings-store';
import { ProviderDirectory } from './provider-directory';

const DRAFT: ProviderDraft = { kind: 'openai-chat', label: 'My vLLM', baseUrl: 'http://10.0.0.5:8000/v1/', model: 'qwen3-coder-30b', keyVariable: 'VLLM_API_KEY', contextWindow: 262_144 };

describe('ProviderDirectory', () => {
  let folder: TempProject;
  let store: SettingsStore;

  async function directory(env: NodeJS.ProcessEnv = {}): Promise<ProviderDirectory> {
    folder = await createTempProject();
    ({ store } = await SettingsStore.load(folder.root));
    return new ProviderDirectory(store, env);
  }

  async function saved(): Promise<unknown[]> {
    await store.flush();
    return (JSON.parse(await readFile(store.file, 'utf8')) as { providers: unknown[] }).providers;
  }

  async function refusal(action: Promise<unknown>): Promise<string> {
    const error = await action.then(() => null, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(FlintFailure);
    return (error as FlintFailure).message;
  }

  afterEach(async () => {
    await folder?.remove();
  });

  it('adds a custom provider with an id from its name, trimmed, and keeps it in settings.json', async () => {
    const providers = await directory();
    const added = await providers.save(null, { ...DRAFT, deepModel: '  ' });
    expect(added).toEqual({ id: 'my-vllm', kind: 'openai-chat', label: 'My vLLM', baseUrl: 'http://10.0.0.5:8000/v1', model: 'qwen3-coder-30b', keyVariable: 'VLLM_API_KEY', contextWindow: 262_144 });
    expect(providers.origin('my-vllm')).toBe('custom');
    expect(await saved()).toEqual([added]);
    // A second one whose name makes the same id gets its own.
    expect((await providers.save(null, { ...DRAFT, label: 'My vLLM!' })).id).toBe('my-vllm-2');
  });

  it('refuses a second provider of the same name (trimmed, any case), naming the first; an edit keeps its own name', async () => {
    const providers = await directory();
    await providers.save(null, DRAFT);
    expect(await refusal(providers.save(null, { ...DRAFT, label: '  my VLLM ' }))).toBe('There is already a provider named “My vLLM”: give this one another name.');
    expect(await refusal(providers.save(null, { ...DRAFT, label: 'openai' }))).toContain('There is already a provider named');
    expect((await providers.save('my-vllm', { ...DRAFT, model: 'other' })).model).toBe('other');
  });

  it('edits a custom provider in place (the id, and so its key, stay) and removes it', async () => {
    const providers = await directory();
    await providers.save(null, DRAFT);
    const edited = await providers.save('my-vllm', { ...DRAFT, label: 'Lab GPU', deepModel: 'qwen3-coder-480b' });
    expect(edited).toMatchObject({ id: 'my-vllm', label: 'Lab GPU', deepModel: 'qwen3-coder-480b' });
    expect(await saved()).toHaveLength(1);
    await providers.remove('my-vllm');
    expect(providers.find('my-vllm')).toBeUndefined();
    expect(await saved()).toEqual([]);
  });

  it('refuses bad input with a sentence that names the field and what to type', async () => {
    const providers = await directory();
    expect(await refusal(providers.save(null, { ...DRAFT, baseUrl: 'ftp://example.com' }))).toBe('The base URL must be an http:// or https:// address, like https://api.example.com/v1.');
    expect(await refusal(providers.save(null, { ...DRAFT, baseUrl: 'not a url' }))).toContain('The base URL must be');
    expect(await refusal(providers.save(null, { ...DRAFT, label: '  ' }))).toBe('Give the provider a name.');
    expect(await refusal(providers.save(null, { ...DRAFT, model: '' }))).toBe('Name the fast model.');
    expect(await refusal(providers.save(null, { ...DRAFT, keyVariable: 'my key' }))).toBe('The key variable must be a name in capitals ending in _API_KEY, like MY_PROVIDER_API_KEY (so no other secret of your environment can be sent to a provider).');
    expect(await refusal(providers.save(null, { ...DRAFT, contextWindow: 1000 }))).toBe('The context window must be at least 2,048 tokens.');
    expect(await refusal(providers.save(null, { ...DRAFT, contextWindow: 5000.5 }))).toBe('The context window must be a whole number of tokens.');
    expect(await saved().catch(() => [])).toEqual([]);
  });

  it('lets a preset be edited (the edit overrides it) but not removed; removing the edit restores it', async () => {
    const providers = await directory();
    const preset = providers.require('cerebras');
    expect(providers.origin('cerebras')).toBe('built-in');
    expect(await refusal(providers.remove('cerebras'))).toBe('Cerebras is a preset and cannot be removed; edit it instead.');
    await providers.setModel('cerebras', 'deep', 'qwen-3-coder-480b');
    expect(providers.origin('cerebras')).toBe('edited-built-in');
    expect(providers.require('cerebras').deepModel).toBe('qwen-3-coder-480b');
    await providers.remove('cerebras');
    expect(providers.require('cerebras')).toEqual(preset);
  });

  it('switches the environment provider’s models for the run only, and refuses to edit or remove it', async () => {
    const providers = await directory({ FLINT_BASE_URL: 'http://127.0.0.1:9/v1', FLINT_MODEL: 'gpt-5.3-codex-spark' });
    expect(providers.environmentVariables).toEqual(['FLINT_BASE_URL', 'FLINT_MODEL']);
    await providers.setModel('environment', 'fast', 'gpt-oss-120b');
    expect(providers.require('environment').model).toBe('gpt-oss-120b');
    expect(await saved().catch(() => [])).toEqual([]);
    expect(await refusal(providers.save('environment', DRAFT))).toContain('FLINT_* variables');
    expect(await refusal(providers.remove('environment'))).toContain('unset them and restart Flint');
  });

  it('clears a deep model with an empty name but never the fast one', async () => {
    const providers = await directory();
    await providers.setModel('openai', 'deep', '');
    expect(providers.require('openai').deepModel).toBeUndefined();
    expect(await refusal(providers.setModel('openai', 'fast', ' '))).toBe('Name the fast model.');
  });
});
