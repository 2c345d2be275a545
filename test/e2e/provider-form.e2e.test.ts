/**
 * The provider form follows the platform's conventions, by keyboard: every invalid field is
 * marked and described by its own sentence, focus goes to the first, the submit button stays
 * in view, a name already taken is refused; and a Test connection of a provider not in use
 * shows its result in Settings only, never in the status bar's figures.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from '../helpers/axe';
import { eventually } from '../helpers/chromium';
import { flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';
import { reviewPage } from '../helpers/review-page';

describe('the provider form, by keyboard', () => {
  let flint: FlintOnSim;
  let page: Page;
  const { shoot } = reviewPage(() => flint, 'provider-form');
  const settings = () => page.getByRole('dialog', { name: 'Settings' });
  const form = () => settings().getByRole('form', { name: 'Add a provider' });
  const focusedLabel = () => page.evaluate<string>("document.activeElement?.labels?.[0]?.textContent ?? ''");

  beforeAll(async () => {
    // The simulator takes requests without a key too: the provider added here needs none (a local server).
    flint = await flintOnSim({ name: 'provider-form', files: { 'src/a.ts': 'export const a = 1;\n' }, sim: { apiKey: undefined } });
    page = flint.page;
    page.setDefaultTimeout(5_000);
    // The page's keys answer once the app is up.
    await page.getByRole('tree', { name: 'Files' }).waitFor();
  });

  afterAll(() => flint?.close());

  for (const size of [
    { width: 800, height: 600 },
    { width: 1600, height: 1000 },
  ]) {
    it(`marks all three invalid fields at once, each with its sentence, and focuses the first, at ${size.width} px`, async () => {
      await page.setViewportSize(size);
      await page.keyboard.press('Control+Comma');
      await settings().waitFor();
      await settings().getByRole('button', { name: 'Add a provider…' }).focus();
      await page.keyboard.press('Enter');
      await form().getByLabel('Name', { exact: true }).focus();
      // A name another provider has, an address that is not one, a variable that is no key's.
      await page.keyboard.type('openai');
      await page.keyboard.press('Tab');
      await page.keyboard.type('not a url');
      await page.keyboard.press('Tab');
      await page.keyboard.type('qwen3-coder');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.type('GITHUB_TOKEN');
      await page.keyboard.press('Enter');
      const invalid = form().locator('[aria-invalid="true"]');
      await eventually(() => invalid.count(), (count) => count === 3, 'three fields marked');
      const described = await invalid.evaluateAll((inputs) => inputs.map((input) => input.ownerDocument.getElementById(input.getAttribute('aria-describedby') ?? '')?.textContent ?? ''));
      expect(described).toEqual([
        'There is already a provider named “OpenAI”: give this one another name.',
        'The base URL must be an http:// or https:// address, like https://api.example.com/v1.',
        expect.stringContaining('must be a name in capitals ending in _API_KEY'),
      ]);
      expect(await focusedLabel()).toBe('Name');
      // The button that adds stays in the viewport, whatever the errors added.
      const button = (await form().getByRole('button', { name: 'Add provider' }).boundingBox())!;
      expect(button.y + button.height).toBeLessThanOrEqual(size.height);
      expect(button.y).toBeGreaterThanOrEqual(0);
      await shoot(`three-invalid-${size.width}`);
      expect(describeViolations(await seriousViolations(page))).toEqual([]);
      await form().getByRole('button', { name: 'Cancel' }).focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Escape');
      await eventually(() => settings().count(), (count) => count === 0, 'Settings closed');
    });
  }

  it('adds the provider once its fields are right', async () => {
    await page.keyboard.press('Control+Comma');
    await settings().getByRole('button', { name: 'Add a provider…' }).focus();
    await page.keyboard.press('Enter');
    // The simulator's protocol: OpenAI Responses over WebSocket.
    await form().getByLabel('Protocol').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Lab GPU');
    await page.keyboard.press('Tab');
    await page.keyboard.type(flint.sim.baseUrl);
    await page.keyboard.press('Tab');
    await page.keyboard.type('gpt-5.3-codex-spark');
    await form().getByLabel('No key needed (a local server)').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await settings().getByRole('region', { name: 'Lab GPU' }).waitFor();
  });

  it('shows a test of a provider not in use in its card only, never in the status bar', async () => {
    await eventually(() => page.getByLabel('Model connection').innerText(), (text) => text.includes('ready'), 'the provider in use ready');
    const model = await page.locator('.status-model').innerText().catch(() => '');
    const latency = await page.getByLabel('Latency').innerText().catch(() => null);
    const card = settings().getByRole('region', { name: 'Lab GPU' });
    await card.getByRole('button', { name: /Test connection/ }).focus();
    await page.keyboard.press('Enter');
    // The test's request gets the simulator's default answer, streamed whole before the test reports.
    await eventually(() => card.getByRole('status').innerText(), (text) => text.startsWith('Connected'), 'the test result in the card', 60_000);
    expect(await page.getByLabel('Model connection').innerText()).toContain('ready');
    expect(await page.locator('.status-model').innerText().catch(() => '')).toBe(model);
    expect(await page.getByLabel('Latency').innerText().catch(() => null)).toBe(latency);
    expect(flint.errors).toEqual([]);
  });
});
