/**
 * A first start that teaches, by keyboard: no project and no key. The welcome screen shows
 * the three steps; the ask bar names every missing step with its button; each button puts
 * focus where the step is taken (the path field, the key field); then a save in the user's
 * editor and the shortcut the screen shows reach a streamed answer. Real keychain
 * (gnome-keyring on a private D-Bus), the serve shell, the simulator.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from '../helpers/axe';
import { eventually, openFlintPage } from '../helpers/chromium';
import { E2E_OUTPUT } from '../helpers/flint-on-sim';
import { startSecretService, type SecretService } from '../helpers/secret-service';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { SimScriptSchema } from '../sim/sim-script';
import { startSimulator, type Simulator } from '../sim/simulator';

const KEY = 'sk-e2e-first-start-0123456789';
const ANSWER = 'Hello from the model: this file exports one constant.';

describe('a first start, by keyboard (serve shell, real keychain, simulator)', () => {
  let workspace: string;
  let keyring: SecretService;
  let sim: Simulator;
  let serve: ServeProcess;
  let browser: BrowserContext;
  let page: Page;
  let errors: string[];
  const bar = () => page.getByRole('dialog', { name: 'Ask Flint' });
  const focused = () => page.evaluate<string>("document.activeElement?.id || document.activeElement?.getAttribute('aria-label') || ''");
  const shoot = async (name: string) => {
    await mkdir(E2E_OUTPUT, { recursive: true });
    await page.screenshot({ path: join(E2E_OUTPUT, `first-start-${name}.png`) });
  };
  const expectClean = async () => expect(describeViolations(await seriousViolations(page))).toEqual([]);

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'flint-e2e-first-start-'));
    await mkdir(join(workspace, 'project', 'src'), { recursive: true });
    await writeFile(join(workspace, 'project', 'src', 'app.ts'), 'export const app = 1;\n');
    keyring = await startSecretService();
    sim = await startSimulator({ ttftMs: 20, tokensPerSecond: 2000, apiKey: KEY, script: SimScriptSchema.parse({ rules: [{ match: { inputIncludes: 'What does' }, answer: { text: ANSWER } }] }) });
    serve = await startServeProcess([], {
      FLINT_CONFIG_DIR: join(workspace, 'config'),
      FLINT_PROVIDER: 'openai-responses',
      FLINT_BASE_URL: sim.baseUrl,
      FLINT_MODEL: 'gpt-5.3-codex-spark',
      FLINT_API_KEY: '',
      OPENAI_API_KEY: '',
      DBUS_SESSION_BUS_ADDRESS: keyring.busAddress,
    });
    ({ browser, page, errors } = await openFlintPage(serve.url));
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await sim?.close();
    await keyring?.stop();
    await rm(workspace, { recursive: true, force: true });
  });

  it('shows the three steps to a first answer, each with its state, at 800 and 1600 px', async () => {
    const steps = page.getByRole('list', { name: 'Three steps to a first answer' });
    await steps.waitFor();
    // The key's state comes with the connection, the shortcut's with the hotkey status and the app's info: each its own message.
    await eventually(() => steps.getByRole('listitem').allInnerTexts(), (items) => items.length === 3 && items[1]!.includes('to do') && /kill -USR1 \d+/.test(items[2]!), 'the key step to do and the ask command');
    const items = await steps.getByRole('listitem').allInnerTexts();
    expect(items[0]).toContain('Open a project folder');
    // The real accelerator, and how to ask from other apps where the serve shell cannot take it.
    expect(items[2]).toContain('Ctrl+Shift+Space');
    expect(items[2]).toMatch(/kill -USR1 \d+/);
    expect(await page.locator('.status-bar').innerText()).not.toContain('0 entries');
    for (const size of [
      { width: 800, height: 600 },
      { width: 1600, height: 1000 },
    ]) {
      await page.setViewportSize(size);
      await shoot(`welcome-${size.width}`);
      await expectClean();
    }
  });

  it('names both missing steps in the ask bar, and Open Folder… puts focus in the path field', async () => {
    await page.keyboard.press('Control+Shift+Space');
    const blockers = bar().getByRole('alert');
    await eventually(() => blockers.innerText(), (text) => text.includes('No project is open') && text.includes('Settings'), 'both steps named');
    expect(await bar().getByRole('button', { name: 'Add key…' }).isVisible()).toBe(true);
    await shoot('bar-blocked');
    await expectClean();
    await bar().getByRole('button', { name: 'Open Folder…' }).focus();
    await page.keyboard.press('Enter');
    await eventually(focused, (id) => id === 'folder-path', 'focus in the path field');
    await page.keyboard.type(join(workspace, 'project'));
    await page.keyboard.press('Enter');
    await page.getByRole('tree', { name: 'Files' }).waitFor();
  });

  it('opens Settings at the key field from the bar’s Add key…, and the key typed there is kept', async () => {
    await page.keyboard.press('Control+Shift+Space');
    await eventually(() => bar().getByRole('alert').innerText(), (text) => text.includes('Settings') && !text.includes('No project is open'), 'only the key step left');
    await bar().getByRole('button', { name: 'Add key…' }).focus();
    await page.keyboard.press('Enter');
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await settings.waitFor();
    await eventually(focused, (label) => label === 'API key for From environment (FLINT_*)', 'focus in the key field');
    await page.keyboard.type(KEY);
    await page.keyboard.press('Enter');
    await eventually(() => settings.getByLabel('Key status for From environment (FLINT_*)').innerText(), (text) => !text.includes('No key yet'), 'the key kept');
    await page.keyboard.press('Escape');
    await eventually(() => settings.count(), (count) => count === 0, 'Settings closed');
  });

  it('reaches a streamed answer with the shortcut the screen shows, after a save in the editor', async () => {
    await writeFile(join(workspace, 'project', 'src', 'app.ts'), 'export const app = 2;\n');
    await eventually(() => page.getByLabel('Current file').innerText(), (path) => path === 'src/app.ts', 'the saved file current');
    await page.keyboard.press('Control+Shift+Space');
    const input = bar().getByRole('textbox', { name: 'Ask Flint' });
    await eventually(() => input.evaluate((element) => element === element.ownerDocument.activeElement), Boolean, 'the bar to take focus');
    // The bar's scope is asked for as it opens: nothing blocks once it is in.
    await eventually(() => bar().getByRole('alert').count(), (count) => count === 0, 'no missing step left');
    await page.keyboard.type('What does this file do?');
    await page.keyboard.press('Enter');
    await eventually(() => bar().innerText(), (text) => text.includes('Hello from the model'), 'the answer streamed in the bar', 20_000);
    await shoot('answered');
    expect(errors).toEqual([]);
  });
});
