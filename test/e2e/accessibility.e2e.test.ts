/**
 * End to end in Chromium: axe-core finds no serious or critical violation on the main
 * screens (welcome, a file on view, Settings, the ask bar, the streaming diff and its
 * decided hunks), and the dialogs hold focus and give it back.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countByRule, describeViolations, seriousViolations } from '../helpers/axe';
import { eventually } from '../helpers/chromium';
import { E2E_OUTPUT as OUTPUT, flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';
import { SimScriptSchema } from '../sim/sim-script';
/** Long enough that the code view scrolls (axe checks a scroller only when it scrolls). */
const TAIL = Array.from({ length: 60 }, (_, index) => `export const filler${index} = ${index};`);
const ORIGINAL = ['export function first() {', '  return 1;', '}', '', 'export function second() {', '  return 2;', '}', '', 'export function third() {', '  return 3;', '}', '', ...TAIL, ''].join('\n');
const SLOW_BODY = Array.from({ length: 40 }, (_, index) => `+  // step ${index + 1} of the new third()`).join('\n');
const PATCH = `Changing all three.
*** Begin Patch
*** Update File: src/index.ts
@@ export function first
-  return 1;
+  return 10;
@@ export function second
-  return 2;
+  return 20;
@@ export function third
-  return 3;
${SLOW_BODY}
+  return 30;
*** End Patch
`;
/** Page-side source: the focused element's accessible label or text, to compare by. */
const FOCUSED = `(() => { const element = document.activeElement; return element === document.body ? 'body' : element?.getAttribute('aria-label') ?? element?.textContent?.trim() ?? ''; })()`;
/** Page-side source: whether focus is inside the ask bar. */
const IN_ASK_BAR = `document.querySelector('[role="dialog"][aria-label="Ask Flint"]')?.contains(document.activeElement) ?? false`;
/** Page-side source: the label or text of each focusable control in the open Settings dialog, in Tab order. */
const SETTINGS_CONTROLS = `[...document.querySelector('[role="dialog"][aria-label="Settings"]').querySelectorAll('button:not([disabled]), input:not([disabled])')]
  .map((element) => element.getAttribute('aria-label') ?? element.textContent.trim())`;

describe('accessibility in Chromium (serve shell, simulator, axe-core)', () => {
  let flint: FlintOnSim;
  let page: Page;
  /** Each screen's failing elements by rule, printed once at the end (the before/after record). */
  const found: Record<string, Record<string, number>> = {};

  const connection = (): Locator => page.getByRole('button', { name: /^Model connection/ });
  const settings = (): Locator => page.getByRole('dialog', { name: 'Settings' });
  const bar = (): Locator => page.getByRole('dialog', { name: 'Ask Flint' });
  const cards = (): Locator => page.getByRole('article', { name: /^Hunk \d+ in src\/index\.ts/ });
  const stateOf = (index: number) => cards().nth(index).getByLabel('Hunk state').innerText().catch(() => '');
  const expectClean = async (screen: string): Promise<void> => {
    const violations = await seriousViolations(page);
    found[screen] = countByRule(violations);
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, `axe-${screen}.png`) });
    expect(describeViolations(violations)).toEqual([]);
  };

  beforeAll(async () => {
    // No folder on the command line: the first screen is the welcome screen.
    flint = await flintOnSim({
      name: 'a11y',
      files: { 'src/index.ts': ORIGINAL },
      noProject: true,
      sim: {
        ttftMs: 20,
        tokensPerSecond: 250,
        chunkTokens: 1,
        script: SimScriptSchema.parse({ rules: [{ match: { inputIncludes: 'all three' }, answer: { text: PATCH } }] }),
      },
    });
    page = flint.page;
  });

  afterAll(async () => {
    console.log(`axe serious/critical by screen: ${JSON.stringify(found)}`);
    await flint?.close();
  });

  it('the welcome screen has no serious or critical violations', async () => {
    await page.getByLabel('Folder path').waitFor();
    await expectClean('welcome');
  });

  it('a project with a file on view has none', async () => {
    await page.getByLabel('Folder path').fill(flint.project);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    const tree = page.getByRole('tree', { name: 'Files' });
    await tree.getByRole('treeitem', { name: 'src', exact: true }).click();
    await tree.getByRole('treeitem', { name: 'index.ts', exact: true }).click();
    await eventually(() => page.locator('.cm-content').innerText(), (text) => text.includes('third()'), 'the file on view');
    await connection().waitFor();
    await expectClean('project');
  });

  it('Settings open has none', async () => {
    await connection().click();
    await settings().getByRole('button', { name: 'Test connection' }).first().waitFor();
    await expectClean('settings');
  });

  it('Tab from the last control of Settings lands on the first, Shift+Tab from the first on the last', async () => {
    const controls = (await page.evaluate(SETTINGS_CONTROLS)) as string[];
    await settings().getByRole('button', { name: 'Close settings' }).focus();
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(FOCUSED)).toBe(controls.at(-1));
    await page.keyboard.press('Tab');
    expect(await page.evaluate(FOCUSED)).toBe(controls[0]);
  });

  it('after Test connection, Esc still closes Settings and focus returns to the button that opened it', async () => {
    await settings().getByRole('button', { name: 'Test connection' }).first().click();
    await eventually(() => settings().getByRole('region', { name: 'From environment (FLINT_*)' }).getByRole('status').innerText(), (text) => text.startsWith('Connected'), 'a successful test');
    expect(await page.evaluate(FOCUSED)).not.toBe('body');
    await page.keyboard.press('Escape');
    await eventually(() => settings().count(), (count) => count === 0, 'Settings to close');
    expect(await page.evaluate(FOCUSED)).toMatch(/^Model connection: /);
  });

  it('the ask bar open has none', async () => {
    await page.keyboard.press('Control+Shift+Space');
    await bar().getByRole('textbox', { name: 'Ask Flint' }).waitFor();
    await expectClean('ask-bar');
  });

  it('the diff streaming has none', async () => {
    const input = bar().getByRole('textbox', { name: 'Ask Flint' });
    await input.fill('Change all three functions');
    await input.press('Enter');
    await eventually(() => stateOf(2), (state) => state === 'Streaming…', 'the third hunk to stream', 20_000);
    await expectClean('streaming');
  });

  it('decided hunks (accepted, rejected) have none', async () => {
    await eventually(() => stateOf(2), (state) => state === 'Ready', 'the third hunk', 30_000);
    await cards().nth(0).getByRole('button', { name: 'Accept' }).click();
    await eventually(() => stateOf(0), (state) => state === 'Accepted', 'the first hunk accepted');
    await cards().nth(1).getByRole('button', { name: 'Reject' }).click();
    await eventually(() => stateOf(1), (state) => state === 'Rejected', 'the second hunk rejected');
    await expectClean('decided');
    await page.setViewportSize({ width: 800, height: 700 });
    await expectClean('decided-800');
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);

  it('focus that falls out of the ask bar (the clicked Accept disables itself) comes back, and Esc closes the bar', async () => {
    await cards().nth(2).getByRole('button', { name: 'Accept' }).click();
    await eventually(() => stateOf(2), (state) => state === 'Accepted', 'the third hunk accepted');
    await eventually(() => page.evaluate(IN_ASK_BAR), (inside) => inside === true, 'focus back in the ask bar');
    await page.keyboard.press('Escape');
    await eventually(() => bar().count(), (count) => count === 0, 'the bar to close');
  });

  it('ran without console errors or CSP violations', () => {
    expect(flint.errors).toEqual([]);
  });
});
