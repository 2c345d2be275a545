/**
 * End to end in Chromium (serve shell, simulator): the models a key can reach. Settings
 * lists the provider's models, adds a provider pointing at the simulator, tests, edits and
 * removes it; a question to a model the simulator refuses names the model and offers the
 * ones it lists — one click sets one and the retry succeeds; Alt+Enter without a deep
 * model says so in the bar and sends nothing.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { askFlint, eventually, openFlintPage } from '../helpers/chromium';
import { E2E_OUTPUT, flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { startSimulator, type Simulator } from '../sim/simulator';

const REFUSED = 'gpt-5.3-codex-spark';
const SERVED = ['gpt-oss-120b', 'gpt-oss-20b', 'llama-4-scout-17b', 'text-embedding-3-small'];
const ENVIRONMENT = 'From environment (FLINT_*)';

describe('models the key can reach, in Chromium (serve shell, simulator)', () => {
  let flint: FlintOnSim;
  const page = () => flint.page;
  const settings = (): Locator => page().getByRole('dialog', { name: 'Settings' });
  const card = (name: string): Locator => settings().getByRole('region', { name, exact: true });
  const shot = (name: string) => page().screenshot({ path: join(E2E_OUTPUT, name) });
  const chatRequests = () => flint.sim.requests.filter((request) => request.protocol === 'chat');

  beforeAll(async () => {
    await mkdir(E2E_OUTPUT, { recursive: true });
    // FLINT_MODEL is gpt-5.3-codex-spark (as in most runs of Flint): the simulator serves only SERVED.
    flint = await flintOnSim({ name: 'models', files: { 'src/app.ts': 'export const answer = 41;\n' }, sim: { models: SERVED } });
  });

  afterAll(async () => {
    await flint?.close();
  });

  it('lists the provider’s models in Settings, marks the configured one it does not serve, and says FLINT_* decide the provider', async () => {
    await page().getByLabel('Model connection').waitFor();
    await page().keyboard.press('Control+Comma');
    await settings().waitFor({ timeout: 5_000 }).catch(async (error: unknown) => {
      await shot('models-debug.png');
      throw error;
    });
    const environment = card(ENVIRONMENT);
    await eventually(() => environment.locator('.model-list-status').innerText(), (text) => text.startsWith('4 models listed by the provider'), 'the model list');
    const fast = environment.getByLabel(`Fast model (Enter) for ${ENVIRONMENT}`);
    expect(await fast.locator('option').allInnerTexts()).toEqual([`${REFUSED} — not listed for this key`, 'gpt-oss-20b', 'gpt-oss-120b', 'llama-4-scout-17b', 'text-embedding-3-small', 'Another name…']);
    expect(await environment.innerText()).toContain(`Base URL ${flint.sim.baseUrl}`);
    expect(await settings().getByRole('note').innerText()).toContain('FLINT_PROVIDER, FLINT_BASE_URL, FLINT_MODEL are set');
    // OpenAI is the choice when nothing else was chosen: it is what a run without FLINT_* uses.
    expect(await card('OpenAI').innerText()).toContain('Chosen — used once Flint starts without the FLINT_* variables');
    const cerebras = card('Cerebras');
    expect(await cerebras.innerText()).toContain('Base URL https://api.cerebras.ai/v1');
    expect(await cerebras.innerText()).toContain('Takes effect when Flint starts without FLINT_PROVIDER, FLINT_BASE_URL, FLINT_MODEL.');
    await shot('models-settings.png');
    expect(await seriousViolations(page())).toEqual([]);
  });

  it('adds a provider pointing at the simulator, refusing a bad base URL in words first', async () => {
    await settings().getByRole('button', { name: 'Add a provider…' }).click();
    const form = settings().getByRole('form', { name: 'Add a provider' });
    await form.getByLabel('Name').fill('Sim chat');
    await form.getByLabel('Base URL').fill('ftp://127.0.0.1/v1');
    await form.getByLabel('Fast model').fill('gpt-oss-120b');
    await form.getByLabel('Key variable (optional)').fill('FLINT_API_KEY');
    await form.getByLabel('Context window in tokens (optional)').fill('131072');
    await form.getByRole('button', { name: 'Add provider' }).click();
    // The field is marked and says why beside it (provider-form.e2e.test.ts has the whole form's rules).
    const url = form.getByLabel('Base URL');
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    expect(await url.evaluate((input) => input.ownerDocument.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent)).toBe('The base URL must be an http:// or https:// address, like https://api.example.com/v1.');
    expect(await seriousViolations(page())).toEqual([]);
    await shot('models-add-refused.png');
    await form.getByLabel('Base URL').fill(flint.sim.baseUrl);
    await form.getByRole('button', { name: 'Add provider' }).click();
    const added = card('Sim chat');
    await added.waitFor();
    expect(await added.innerText()).toContain(`Base URL ${flint.sim.baseUrl} · context 131,072 tokens`);
    const saved = JSON.parse(await readFile(join(flint.project, '..', 'config', 'settings.json'), 'utf8')) as { providers: unknown[] };
    expect(saved.providers).toEqual([{ id: 'sim-chat', kind: 'openai-chat', label: 'Sim chat', baseUrl: flint.sim.baseUrl, model: 'gpt-oss-120b', keyVariable: 'FLINT_API_KEY', contextWindow: 131072 }]);
  });

  it('tests the new provider’s connection over chat completions', async () => {
    const added = card('Sim chat');
    await added.getByRole('button', { name: 'Test connection' }).click();
    const result = await eventually(() => added.getByRole('status').innerText(), (text) => text !== 'Testing…', 'the test');
    expect(result).toMatch(/^Connected to gpt-oss-120b — first token in \d+ ms\.$/);
    expect(chatRequests().at(-1)?.body.model).toBe('gpt-oss-120b');
  });

  it('edits the provider: a new name and a deep model picked from its list', async () => {
    const added = card('Sim chat');
    await added.getByLabel('Deep model (Alt+Enter) for Sim chat').selectOption('gpt-oss-20b');
    await eventually(() => added.getByLabel('Deep model (Alt+Enter) for Sim chat').inputValue(), (value) => value === 'gpt-oss-20b', 'the deep model');
    await added.getByRole('button', { name: 'Edit' }).click();
    const form = settings().getByRole('form', { name: 'Edit Sim chat' });
    await form.getByLabel('Name').fill('Sim chat (edited)');
    await form.getByRole('button', { name: 'Save changes' }).click();
    const edited = card('Sim chat (edited)');
    await edited.waitFor();
    expect(await edited.getByLabel('Deep model (Alt+Enter) for Sim chat (edited)').inputValue()).toBe('gpt-oss-20b');
    await shot('models-edited.png');
  });

  it('removes the provider after asking to confirm', async () => {
    const edited = card('Sim chat (edited)');
    await edited.getByRole('button', { name: 'Remove' }).click();
    await edited.getByRole('button', { name: 'Remove' }).click();
    await eventually(() => settings().getByRole('region', { name: 'Sim chat (edited)' }).count(), (count) => count === 0, 'the card to go');
    const saved = JSON.parse(await readFile(join(flint.project, '..', 'config', 'settings.json'), 'utf8')) as { providers: unknown[] };
    expect(saved.providers).toEqual([]);
    // Presets are edited, not removed.
    expect(await card('Cerebras').getByRole('button', { name: 'Remove' }).count()).toBe(0);
    await settings().getByRole('button', { name: 'Close settings' }).click();
  });

  it('names a refused model and offers the served ones; one click sets it and the retry answers', async () => {
    await flint.openFile('src/app.ts');
    await askFlint(page(), 'What is the answer?');
    const turn = page().getByRole('region', { name: 'Turn 1' });
    const failure = await eventually(() => turn.getByRole('alert').innerText(), (text) => text.includes('Use one of'), 'the offer');
    expect(failure).toContain(`${REFUSED} is not available with this key at ${ENVIRONMENT}.`);
    expect(failure).not.toMatch(/model_not_found|does not exist|404/);
    const offer = turn.getByRole('group', { name: 'Use another fast model and retry' });
    expect(await offer.getByRole('button').allInnerTexts()).toEqual(['gpt-oss-120b', 'gpt-oss-20b', 'llama-4-scout-17b']);
    await shot('models-refused.png');
    expect(await seriousViolations(page())).toEqual([]);
    await offer.getByRole('button', { name: 'gpt-oss-120b' }).click();
    const retried = page().getByRole('region', { name: 'Turn 2' });
    await eventually(() => retried.locator('.turn-model').innerText(), (text) => text === 'gpt-oss-120b', 'the retry on the offered model');
    await eventually(() => retried.getByLabel('Answer').innerText(), (text) => text.includes('Flint simulator'), 'the retry’s answer');
    await eventually(() => page().getByLabel('Model that answered last').innerText(), (text) => text === 'gpt-oss-120b', 'the HUD to name the model');
    expect(flint.sim.requests.at(-1)?.body.model).toBe('gpt-oss-120b');
    await shot('models-retried.png');
  });

  it('says in the ask bar that no deep model is set when Alt+Enter asks for one, and sends nothing', async () => {
    const before = flint.sim.requests.length;
    await askFlint(page(), 'Think harder about it', { deep: true, fresh: false });
    const bar = page().getByRole('dialog', { name: 'Ask Flint' });
    const note = await eventually(() => bar.getByRole('alert').innerText(), (text) => text.includes('No deep model'), 'the note');
    expect(note).toContain(`No deep model is set for ${ENVIRONMENT} — choose one in Settings. (Enter asks gpt-oss-120b.)`);
    expect(await bar.getByRole('textbox', { name: 'Ask Flint' }).inputValue()).toBe('Think harder about it');
    expect(flint.sim.requests.filter((request) => request.body.generate !== false).length).toBe(flint.sim.requests.slice(0, before).filter((request) => request.body.generate !== false).length);
    await shot('models-no-deep.png');
    expect(flint.errors).toEqual([]);
  });
});

describe('a first run whose key is for another provider, in Chromium (serve shell, simulator)', () => {
  let workspace: string;
  let sim: Simulator;
  let serve: ServeProcess;
  let browser: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'flint-e2e-first-run-'));
    sim = await startSimulator({ apiKey: 'gsk-e2e', ttftMs: 10, tokensPerSecond: 2000, models: ['openai/gpt-oss-120b', 'openai/gpt-oss-20b'] });
    // Groq's preset, pointed at the simulator (an edit of a preset overrides it): no request leaves the machine.
    // GROQ_API_KEY belongs to Groq's own address; the user let it go to the simulator's once (remembered).
    await mkdir(join(workspace, 'config'), { recursive: true });
    const groq = { id: 'groq', kind: 'openai-chat', label: 'Groq', baseUrl: sim.baseUrl, model: 'openai/gpt-oss-120b', keyVariable: 'GROQ_API_KEY' };
    const originConsents = { variables: { GROQ_API_KEY: [new URL(sim.baseUrl).origin] }, cleartext: [] };
    await writeFile(join(workspace, 'config', 'settings.json'), JSON.stringify({ providers: [groq], originConsents }));
    serve = await startServeProcess([], { FLINT_CONFIG_DIR: join(workspace, 'config'), GROQ_API_KEY: 'gsk-e2e', OPENAI_API_KEY: '', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
    ({ browser, page } = await openFlintPage(serve.url));
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await sim?.close();
    await rm(workspace, { recursive: true, force: true });
  });

  it('suggests the provider that has a key, and one click makes it the one in use', async () => {
    await page.getByLabel('Model connection').waitFor();
    await page.keyboard.press('Control+Comma');
    const settings = page.getByRole('dialog', { name: 'Settings' });
    const suggestion = settings.getByText('OpenAI has no key, but Groq has one (GROQ_API_KEY is set).');
    await suggestion.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(E2E_OUTPUT, 'models-first-run.png') });
    await settings.getByRole('button', { name: 'Use Groq' }).click();
    await eventually(() => suggestion.count(), (count) => count === 0, 'the suggestion to go');
    const groq = settings.getByRole('region', { name: 'Groq', exact: true });
    expect(await groq.getByText('In use').count()).toBe(1);
    // An edited preset is reset, not removed.
    expect(await groq.getByRole('button', { name: 'Reset to preset' }).count()).toBe(1);
    await eventually(() => groq.locator('.model-list-status').innerText(), (text) => text.startsWith('2 models listed by the provider'), 'Groq’s list');
    await eventually(() => page.getByLabel('Model connection').innerText(), (text) => text.includes('Model ready'), 'Groq to be ready');
  });
});
