/**
 * End to end in Chromium through the serve shell and the simulator: the user saves in
 * their own editor (here: the test writes the file), presses the shortcut, and asks.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, openFlintPage } from '../helpers/chromium';
import { simulatorServeEnv, startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { SimScriptSchema } from '../sim/sim-script';
import { startSimulator, type Simulator } from '../sim/simulator';

/** Page-side source (not a function: the test runner's helpers must not reach the page). */
const FOCUSED_LABEL = `document.activeElement?.getAttribute('aria-label')`;
const OUTPUT = join(import.meta.dirname, '..', '..', 'test-output', 'e2e');
const ORIGINAL = ['export function total(items: number[]) {', '  let sum = 0;', '  for (const item of items) sum += item;', '  return sum;', '}', ''].join('\n');
const SAVED = ORIGINAL.replace('  return sum;', '  return Math.round(sum);');
const ANSWER = [
  'It **rounds** the sum before returning it.',
  '',
  '```ts',
  'export function total(items: number[]) {',
  '  return Math.round(items.reduce((a, b) => a + b, 0));',
  '}',
  '```',
  '',
  // Long enough (about 10 s at the simulator's pace) to still be streaming in the next tests.
  ...Array.from({ length: 300 }, (_, index) => `- note ${index + 1}`),
  '',
].join('\n');
const PATCH = `Using reduce.
*** Begin Patch
*** Update File: src/total.ts
@@ export function total(items: number[]) {
-  let sum = 0;
-  for (const item of items) sum += item;
+  const sum = items.reduce((a, b) => a + b, 0);
*** End Patch
`;

describe('the ask bar in Chromium (serve shell, simulator)', () => {
  let workspace: string;
  let project: string;
  let sim: Simulator;
  let serve: ServeProcess;
  let browser: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];

  const bar = (): Locator => page.getByRole('dialog', { name: 'Ask Flint' });
  const input = (): Locator => bar().getByRole('textbox', { name: 'Ask Flint' });
  const scopeText = () => bar().getByLabel('Ask scope').innerText();
  const press = () => page.keyboard.press('Control+Shift+Space');
  const questions = () => sim.requests.filter((request) => request.body.generate !== false && JSON.stringify(request.body).includes('Request:'));

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'flint-e2e-ask-'));
    project = join(workspace, 'project');
    await mkdir(join(project, 'src'), { recursive: true });
    await writeFile(join(project, 'src', 'total.ts'), ORIGINAL);
    sim = await startSimulator({
      ttftMs: 20,
      tokensPerSecond: 150,
      chunkTokens: 1,
      script: SimScriptSchema.parse({
        rules: [
          { match: { inputIncludes: 'use reduce' }, answer: { text: PATCH }, tokensPerSecond: 2000 },
          { match: { inputIncludes: 'What does' }, answer: { text: ANSWER } },
        ],
      }),
    });
    // No folder on the command line: the first test asks with no project open.
    serve = await startServeProcess([], simulatorServeEnv(join(workspace, 'config'), sim.baseUrl, 'sk-e2e'));
    ({ browser, page, errors: pageErrors } = await openFlintPage(serve.url));
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await sim?.close();
    await rm(workspace, { recursive: true, force: true });
  });

  it('says what to do instead of asking when no project is open', async () => {
    await page.getByLabel('Folder path').waitFor();
    await press();
    await eventually(() => bar().getByRole('alert').innerText(), (text) => text.includes('No project is open'), 'the no-project guidance');
    await input().fill('anything');
    await input().press('Enter');
    expect(questions()).toHaveLength(0);
    await input().press('Escape');
    await eventually(() => bar().count(), (count) => count === 0, 'the bar to close');
  });

  it('offers the project rather than blocking when the project has no current file yet', async () => {
    await page.getByLabel('Folder path').fill(project);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('tree', { name: 'Files' }).waitFor();
    await press();
    await eventually(scopeText, (text) => text.includes('Ask about the project'), 'the project scope');
    expect(await bar().innerText()).toContain('No current file: asking about the project');
    expect(await bar().getByRole('alert').count()).toBe(0);
    await input().press('Escape');
  });

  it('names the file the user just saved elsewhere and offers the lines they changed', async () => {
    // The user's editor saves twice: Flint compares the two versions. The bar shows the
    // first save's change once Flint has taken that version (a second save before then
    // would be compared with the original instead, which is right, but not this test).
    await writeFile(join(project, 'src', 'total.ts'), ORIGINAL.replace('let sum = 0;', 'let sum = 0; '));
    await eventually(() => page.getByLabel('Current file').innerText(), (text) => text === 'src/total.ts', 'the first save to be seen');
    await press();
    const firstChange = bar().getByRole('button', { name: /The lines I just changed/ });
    await eventually(() => firstChange.count(), (count) => count === 1, 'the first save’s change');
    expect(await firstChange.innerText()).toContain('+1 −1');
    await input().press('Escape');
    await eventually(() => bar().count(), (count) => count === 0, 'the bar to close');
    await writeFile(join(project, 'src', 'total.ts'), SAVED);
    await press();
    expect(await page.evaluate(FOCUSED_LABEL)).toBe('Ask Flint');
    await eventually(scopeText, (text) => text.includes('src/total.ts'), 'the bar to name the file');
    const chip = bar().getByRole('button', { name: /The lines I just changed/ });
    // The second save reaches the open bar when the watcher reports it.
    await eventually(() => chip.innerText(), (text) => text.includes('+2 −2'), 'the second save’s change, against the first');
    expect(await chip.getAttribute('aria-pressed')).toBe('true');
  });

  it('widens to the whole file with Alt+W and back', async () => {
    await input().press('Alt+w');
    await eventually(() => bar().getByRole('button', { name: 'The whole file' }).count(), (count) => count === 1, 'the whole-file focus');
    await input().press('Alt+w');
    await eventually(() => bar().getByRole('button', { name: /The lines I just changed/ }).count(), (count) => count === 1, 'the change focus again');
  });

  it('streams a question’s answer as Markdown with a highlighted code block', async () => {
    await input().fill('What does total do now?');
    await input().press('Enter');
    const answer = bar().getByLabel('Answer');
    await eventually(() => answer.locator('strong').count(), (count) => count > 0, 'Markdown to render', 20_000);
    expect(await answer.getAttribute('aria-busy')).toBe('true');
    // The live region itself is busy (screen readers read aria-busy there, not on its parents): one announcement, at the end.
    expect(await answer.locator('[aria-live]').getAttribute('aria-busy')).toBe('true');
    await eventually(() => answer.locator('pre.md-code span[class^="tok-"]').count(), (count) => count > 0, 'a highlighted code block', 20_000);
    const asked = questions().at(-1)!;
    const sent = JSON.stringify(asked.body);
    expect(sent).toContain('What does total do now?');
    expect(sent).toContain('+  return Math.round(sum);');
  });

  it('pressing the shortcut again while it streams shows the running answer and starts nothing', async () => {
    const count = questions().length;
    await page.getByRole('tree', { name: 'Files' }).focus();
    await press();
    expect(await page.evaluate(FOCUSED_LABEL)).toBe('Ask Flint');
    expect(await bar().getByLabel('Answer').getAttribute('aria-busy')).toBe('true');
    expect(questions().length).toBe(count);
  });

  it('Esc stops the answer, a second Esc closes the bar', async () => {
    const answer = bar().getByLabel('Answer');
    await input().press('Escape');
    await eventually(() => answer.getAttribute('aria-busy'), (busy) => busy === 'false', 'the stop');
    expect(await answer.locator('[aria-live]').getAttribute('aria-busy')).toBe('false');
    expect(await answer.innerText()).toContain('Stopped.');
    expect(await bar().count()).toBe(1);
    await input().press('Escape');
    await eventually(() => bar().count(), (count) => count === 0, 'the bar to close');
  });

  it('a change request streams hunks into the diff pane', async () => {
    await press();
    await input().fill('use reduce instead of the loop');
    await input().press('Enter');
    const hunk = page.getByRole('article', { name: /^Hunk \d+ in src\/total\.ts/ });
    await eventually(() => hunk.getByLabel('Hunk state').innerText().catch(() => ''), (state) => state === 'Ready', 'the hunk', 20_000);
    await eventually(() => bar().getByLabel('Proposed changes').innerText(), (text) => text.startsWith('1 change'), 'the bar to point at the diff pane');
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'ask-bar.png') });
  });

  it('settings say the shortcut works only inside the app in the browser shell', async () => {
    await input().press('Escape');
    await page.keyboard.press('Control+,');
    const status = page.getByRole('dialog', { name: 'Settings' }).getByLabel('Shortcut status');
    await eventually(() => status.innerText(), (text) => text.includes('no system-wide shortcut'), 'the shortcut status');
    await page.keyboard.press('Escape');
  });

  it('ran without console errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
