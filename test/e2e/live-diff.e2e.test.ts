/**
 * End to end in Chromium: ask Flint, take hunks while they stream, and check the bytes on disk.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askFlint, eventually, openFlintPage } from '../helpers/chromium';
import { simulatorServeEnv, startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { SimScriptSchema } from '../sim/sim-script';
import { startSimulator, type Simulator } from '../sim/simulator';

const OUTPUT = join(import.meta.dirname, '..', '..', 'test-output', 'e2e');
const ORIGINAL = ['export function first() {', '  return 1;', '}', '', 'export function second() {', '  return 2;', '}', ''].join('\n');
const SECOND_BODY = Array.from({ length: 12 }, (_, index) => `+  // step ${index + 1} of the new second()`).join('\n');
const PATCH = `Updating both functions.
*** Begin Patch
*** Update File: src/app.ts
@@ export function first
-  return 1;
+  return 10;
@@ export function second
-  return 2;
${SECOND_BODY}
+  return 20;
*** End Patch
`;
const ESCAPE = `*** Begin Patch
*** Update File: ../outside.txt
-secret
+pwned
*** End Patch
`;
/** One hunk of 80 lines: taller than the pane while it streams. */
const LONG = `A long one.\n*** Begin Patch\n*** Update File: src/app.ts\n@@ export function first\n-  return 1;\n${Array.from({ length: 80 }, (_, index) => `+  // line ${index + 1} of a long change`).join('\n')}\n*** End Patch\n`;
const AFTER_FIRST = ORIGINAL.replace('return 1;', 'return 10;');

describe('the live diff in Chromium (serve shell, simulator)', () => {
  let workspace: string;
  let project: string;
  let sim: Simulator;
  let serve: ServeProcess;
  let browser: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];

  const cards = () => page.getByRole('article', { name: /^Hunk \d+ in src\/app\.ts/ });
  const stateOf = (index: number) => cards().nth(index).getByLabel('Hunk state').innerText();
  /** The file's text; while Flint swaps it (undo) the name is free for an instant, which reads as "not yet". */
  const onDisk = () => readFile(join(project, 'src', 'app.ts'), 'utf8').catch(() => '(being swapped)');
  /** Asks in a new conversation (askFlint waits until it replaced the one on screen). */
  const ask = (text: string) => askFlint(page, text, { fresh: true });

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'flint-e2e-diff-'));
    project = join(workspace, 'project');
    await mkdir(join(project, 'src'), { recursive: true });
    await writeFile(join(project, 'src', 'app.ts'), ORIGINAL);
    await writeFile(join(workspace, 'outside.txt'), 'secret\n');
    sim = await startSimulator({
      ttftMs: 20,
      tokensPerSecond: 60,
      chunkTokens: 1,
      apiKey: 'sk-e2e',
      script: SimScriptSchema.parse({
        rules: [
          { match: { inputIncludes: 'both functions' }, answer: { text: PATCH } },
          { match: { inputIncludes: 'escape please' }, answer: { text: ESCAPE }, tokensPerSecond: 2000 },
          { match: { inputIncludes: 'a long change' }, answer: { text: LONG }, tokensPerSecond: 150 },
        ],
      }),
    });
    serve = await startServeProcess([project], simulatorServeEnv(join(workspace, 'config'), sim.baseUrl, 'sk-e2e'));
    ({ browser, page, errors: pageErrors } = await openFlintPage(serve.url));
    const tree = page.getByRole('tree', { name: 'Files' });
    await tree.getByRole('treeitem', { name: 'src', exact: true }).click();
    await tree.getByRole('treeitem', { name: 'app.ts', exact: true }).click();
    await eventually(() => page.getByLabel('Current file').innerText(), (text) => text === 'src/app.ts', 'the current file');
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await sim?.close();
    await rm(workspace, { recursive: true, force: true });
  });

  it('draws a hunk before its first line is whole: the line streams into its row', async () => {
    await ask('Change both functions');
    // 60 tokens a second: the first line of a hunk takes several frames to arrive.
    const partial = await eventually(() => page.locator('.hunk-row.is-partial').first().textContent({ timeout: 100 }).catch(() => null), (text) => text !== null, 'a row for a line still arriving', 20_000);
    // What the row shows is the start of a line of the patch, prefix included.
    const patchLines = PATCH.split('\n').filter((line) => /^[-+ ]/.test(line));
    expect(patchLines.some((line) => line.startsWith(partial!)), partial!).toBe(true);
    await eventually(() => page.locator('.hunk-row').first().textContent(), (text) => text === '-  return 1;', 'the first row to hold its whole line', 20_000);
    await eventually(() => page.getByLabel('Edit status').innerText(), (text) => text !== 'Streaming…', 'the answer to end', 30_000);
  });

  it('paints each new hunk as the row drawn the moment it arrives; its card takes over once that paint is on record', async () => {
    // Element Timing reports a paint only for an element still in the page when its frame is
    // presented: a preview its card replaced before that would never be seen painted.
    await page.evaluate(`(() => {
      window.hunkPaints = { preview: new Set() };
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.identifier.startsWith('hunk:') && entry.element?.closest('.is-preview')) window.hunkPaints.preview.add(entry.identifier);
        }
      }).observe({ type: 'element' });
    })()`);
    await ask('Change both functions again');
    await eventually(() => page.getByLabel('Edit status').innerText(), (text) => text === 'Answer complete', 'the answer to end', 30_000);
    await eventually(() => cards().count(), (count) => count === 2, 'both cards');
    // Both hunks were seen painted as drawn on arrival (their cards, which carry the same identifier, come after).
    const previews = (await page.evaluate('[...window.hunkPaints.preview]')) as string[];
    expect(previews).toHaveLength(2);
  });

  it('follows a hunk taller than the pane while it streams, and stops following once the user scrolls up', async () => {
    await ask('Make a long change');
    const pane = "document.querySelector('.edit-session')";
    const gap = () => page.evaluate<number>(`${pane}.scrollHeight - ${pane}.scrollTop - ${pane}.clientHeight`);
    await eventually(() => page.evaluate<number>(`${pane}.scrollHeight - ${pane}.clientHeight`), (overflow) => overflow > 100, 'the streaming hunk to outgrow the pane', 20_000);
    // While it grows, the bottom stays in view.
    await eventually(gap, (rest) => rest < 4, 'the pane at the bottom while the hunk grows');
    await page.evaluate(`${pane}.scrollTop = 0`);
    const rows = await page.locator('.hunk-row').count();
    await eventually(() => page.locator('.hunk-row').count(), (count) => count > rows + 2, 'more lines', 10_000);
    expect(await page.evaluate<number>(`${pane}.scrollTop`)).toBe(0);
    await eventually(() => page.getByLabel('Edit status').innerText(), (text) => text !== 'Streaming…', 'the answer to end', 30_000);
    await page.getByRole('button', { name: 'Reject all' }).click();
  });

  it('accepts the first hunk while the second streams, rejects the second: exact bytes on disk', async () => {
    await ask('Change both functions');
    await eventually(() => stateOf(0), (state) => state === 'Ready', 'the first hunk to be ready', 20_000);
    expect(await page.getByLabel('Edit status').innerText()).toBe('Streaming…');
    await cards().nth(0).getByRole('button', { name: 'Accept' }).click();
    await eventually(() => stateOf(0), (state) => state === 'Accepted', 'the first hunk to be accepted');
    expect(await onDisk()).toBe(AFTER_FIRST);
    await eventually(() => stateOf(1), (state) => state === 'Ready', 'the second hunk', 20_000);
    await cards().nth(1).getByRole('button', { name: 'Reject' }).click();
    await eventually(() => stateOf(1), (state) => state === 'Rejected', 'the second hunk to be rejected');
    expect(await onDisk()).toBe(AFTER_FIRST);
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'live-diff.png') });
  });

  it('Undo takes the decisions back newest first: the rejection, then the write (the original bytes)', async () => {
    await page.getByRole('button', { name: 'Undo' }).click();
    await eventually(() => stateOf(1), (state) => state === 'Ready', 'the rejected hunk to wait again');
    expect(await onDisk()).toBe(AFTER_FIRST);
    await page.getByRole('button', { name: 'Undo' }).click();
    await eventually(onDisk, (text) => text === ORIGINAL, 'the original bytes');
  });

  it('Esc stops mid-hunk: the complete hunk stays decidable, the cut one is partial', async () => {
    await ask('Change both functions again');
    await eventually(() => stateOf(1).catch(() => ''), (state) => state === 'Streaming…', 'the second hunk to be streaming', 20_000);
    await page.keyboard.press('Escape');
    await eventually(() => page.getByLabel('Edit status').innerText(), (text) => text === 'Stopped', 'the stop');
    expect(await stateOf(0)).toBe('Ready');
    expect(await stateOf(1)).toBe('Partial (cut off)');
    expect(await cards().nth(1).getByRole('button', { name: 'Accept' }).isDisabled()).toBe(true);
    await cards().nth(1).getByRole('button', { name: 'Reject' }).click();
    expect(await onDisk()).toBe(ORIGINAL);
  });

  it('re-anchors while streaming: the user’s save on the same lines makes a conflict and keeps their text', async () => {
    await ask('Change both functions once more');
    await eventually(() => stateOf(0), (state) => state === 'Ready', 'the first hunk', 20_000);
    const users = ORIGINAL.replace('return 1;', 'return 111; // typed in my editor');
    await writeFile(join(project, 'src', 'app.ts'), users);
    await eventually(() => stateOf(0), (state) => state === 'Conflict', 'a conflict');
    await eventually(() => stateOf(1), (state) => state === 'Ready', 'the second hunk', 20_000);
    await cards().nth(1).getByRole('button', { name: 'Accept' }).click();
    await eventually(() => stateOf(1), (state) => state === 'Accepted', 'the second hunk merged');
    const merged = await onDisk();
    expect(merged).toContain('return 111; // typed in my editor');
    expect(merged).toContain('return 20;');
  });

  it('refuses a patch that leaves the project, and writes nothing', async () => {
    await ask('escape please');
    const refused = page.getByRole('article', { name: /^Hunk \d+ in \.\.\/outside\.txt/ });
    await eventually(() => refused.getByLabel('Hunk state').innerText(), (state) => state === 'Refused', 'the refusal', 20_000);
    expect(await refused.getByRole('button', { name: 'Accept' }).isDisabled()).toBe(true);
    expect(await readFile(join(workspace, 'outside.txt'), 'utf8')).toBe('secret\n');
  });

  it('ran without console errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
