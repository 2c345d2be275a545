/**
 * End to end in Chromium: the settings screen stores keys in the real keychain, tests
 * the connection against the simulator, and the latency HUD shows the figures.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeytarSecretStore } from '../../src/main/credentials/keytar-secret-store';
import { eventually, openFlintPage } from '../helpers/chromium';
import { startSecretService, type SecretService } from '../helpers/secret-service';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { startSimulator, type Simulator } from '../sim/simulator';

const OUTPUT = join(import.meta.dirname, '..', '..', 'test-output', 'e2e');
const GOOD_KEY = 'sk-e2e-good-key-0123456789';
const WRONG_KEY = 'sk-e2e-wrong-key';
/** In the serve shell's environment, named by a provider the test adds at a plain-http address on another machine. */
const GPU_KEY = 'sk-e2e-gpu-box-key';
const MODEL = 'gpt-5.3-codex-spark';

describe('settings in Chromium (serve shell, real keychain, simulator)', () => {
  let workspace: string;
  let keyring: SecretService;
  let sim: Simulator;
  let serve: ServeProcess;
  let browser: BrowserContext;
  let page: Page;
  let keychain: KeytarSecretStore;
  let pageErrors: string[] = [];

  const card = () => page.getByRole('dialog', { name: 'Settings' }).getByRole('region', { name: 'From environment (FLINT_*)' });
  const keyStatus = () => card().getByLabel('Key status for From environment (FLINT_*)').innerText();
  /** The environment provider's keychain account: the provider and the origin its key is for. */
  const account = () => `environment@${new URL(sim.baseUrl).origin}`;

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'flint-e2e-settings-'));
    keyring = await startSecretService();
    process.env.DBUS_SESSION_BUS_ADDRESS = keyring.busAddress;
    keychain = new KeytarSecretStore();
    sim = await startSimulator({ ttftMs: 20, tokensPerSecond: 2000, apiKey: GOOD_KEY, models: [MODEL] });
    serve = await startServeProcess([], {
      FLINT_CONFIG_DIR: join(workspace, 'config'),
      FLINT_PROVIDER: 'openai-responses',
      FLINT_BASE_URL: sim.baseUrl,
      FLINT_MODEL: MODEL,
      FLINT_API_KEY: '',
      OPENAI_API_KEY: '',
      GPU_BOX_API_KEY: GPU_KEY,
      DBUS_SESSION_BUS_ADDRESS: keyring.busAddress,
    });
    ({ browser, page, errors: pageErrors } = await openFlintPage(serve.url));
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await sim?.close();
    await keyring?.stop();
    await rm(workspace, { recursive: true, force: true });
  });

  it('shows that no key is configured, and opens Settings with Ctrl+,', async () => {
    await eventually(() => page.getByLabel('Model connection').innerText(), (text) => text.includes('No API key'), 'the no-key status');
    await page.keyboard.press('Control+Comma');
    await page.getByRole('dialog', { name: 'Settings' }).waitFor();
    expect(await keyStatus()).toContain('No key yet');
  });

  it('stores a key in the OS keychain, never echoing it back', async () => {
    await card().getByLabel('API key for From environment (FLINT_*)').fill(GOOD_KEY);
    await card().getByRole('button', { name: 'Save key' }).click();
    await eventually(keyStatus, (text) => text.includes('OS keychain'), 'the key to be stored');
    expect(await keyStatus()).toBe(`Key stored in the OS keychain for ${new URL(sim.baseUrl).origin}. Sent only to ${new URL(sim.baseUrl).origin}.`);
    expect(await keychain.get(account())).toBe(GOOD_KEY);
    expect(await keychain.get('environment')).toBeNull();
    expect(await card().getByLabel('API key for From environment (FLINT_*)').inputValue()).toBe('');
    expect(await page.content()).not.toContain(GOOD_KEY);
  });

  it('tests the connection against the simulator and shows the figures in the latency HUD', async () => {
    await card().getByRole('button', { name: 'Test connection' }).click();
    const result = await eventually(
      () => card().getByRole('status').innerText(),
      (text) => text.startsWith('Connected'),
      'a successful test',
    );
    expect(result).toMatch(new RegExp(`^Connected to ${MODEL} — first token in \\d+ ms\\.$`));
    const hud = await eventually(() => page.getByLabel('Latency').innerText(), (text) => text.includes('first token'), 'the HUD');
    expect(hud).toMatch(/^Flint \d+\.\d ms · first token \d+ ms · .* · total \d+ ms$/);
    await eventually(() => page.getByLabel('Model connection').innerText(), (text) => text.includes('Model ready'), 'a ready connection');
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'settings.png') });
  });

  it('replaces the key, and a wrong key fails the test in plain words', async () => {
    await card().getByLabel('API key for From environment (FLINT_*)').fill(WRONG_KEY);
    await card().getByRole('button', { name: 'Replace key' }).click();
    await eventually(async () => keychain.get(account()), (value) => value === WRONG_KEY, 'the key to be replaced');
    await card().getByRole('button', { name: 'Test connection' }).click();
    await eventually(() => card().getByRole('status').innerText(), (text) => text.includes('rejected the API key'), 'a failed test');
  });

  it('removes the key from the keychain', async () => {
    await card().getByRole('button', { name: 'Remove key' }).click();
    await eventually(keyStatus, (text) => text.includes('No key yet'), 'the key to be gone');
    expect(await keychain.get(account())).toBeNull();
  });

  it('holds back a variable’s key from an address it was not given for, and from plain http, until the user says yes to each', async () => {
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await dialog.getByRole('button', { name: 'Add a provider…' }).click();
    const form = dialog.getByRole('form', { name: 'Add a provider' });
    await form.getByLabel('Name').fill('GPU box');
    await form.getByLabel('Base URL').fill('http://gpu-box.lan:8000/v1');
    await form.getByLabel('Fast model').fill('qwen3-coder');
    await form.getByLabel('Key variable (optional)').fill('GPU_BOX_API_KEY');
    await form.getByRole('button', { name: 'Add provider' }).click();
    const gpu = dialog.getByRole('region', { name: 'GPU box' });
    const note = () => gpu.getByRole('note').innerText();
    expect(await eventually(note, (text) => text.includes('GPU_BOX_API_KEY'), 'the held-back key')).toContain(
      'GPU_BOX_API_KEY is set, but no provider Flint ships uses it: it is not sent to http://gpu-box.lan:8000 unless you allow it in Settings.',
    );
    await gpu.getByRole('button', { name: 'Send GPU_BOX_API_KEY to gpu-box.lan:8000' }).click();
    expect(await eventually(note, (text) => text.includes('not encrypted'), 'the cleartext question')).toContain('which is not encrypted (http)');
    await page.screenshot({ path: join(OUTPUT, 'settings-key-held-back.png') });
    await gpu.getByRole('button', { name: 'Send the key unencrypted to gpu-box.lan:8000' }).click();
    const status = await eventually(() => gpu.getByLabel('Key status for GPU box').innerText(), (text) => text.includes('Sent only to'), 'the key to be allowed');
    expect(status).toBe('Key from the environment variable GPU_BOX_API_KEY (not stored). Sent only to http://gpu-box.lan:8000.');
    expect(await gpu.getByRole('note').count()).toBe(0);
    const settings = JSON.parse(await readFile(join(workspace, 'config', 'settings.json'), 'utf8')) as { originConsents: unknown };
    expect(settings.originConsents).toEqual({ variables: { GPU_BOX_API_KEY: ['http://gpu-box.lan:8000'] }, cleartext: ['http://gpu-box.lan:8000'] });
    expect(await page.content()).not.toContain(GPU_KEY);
  });

  it('kept every key out of settings.json, the log and the page', async () => {
    // Nothing may have been written at all; if something was, it holds no key.
    const settings = await readFile(join(workspace, 'config', 'settings.json'), 'utf8').catch(() => '');
    for (const key of [GOOD_KEY, WRONG_KEY, GPU_KEY]) {
      expect(settings).not.toContain(key);
      expect(serve.stderr()).not.toContain(key);
    }
    expect(pageErrors).toEqual([]);
  });
});
