/**
 * End to end in Chromium (serve shell, simulator): conversations the user can trust.
 * A redirect replaces the abandoned change (Accept all writes only the replacement),
 * turns are shown as such, nothing undecided is dropped by a new question, a reload or a
 * restart, the model is told what the user decided, messages are queued or redirect,
 * and a failed turn keeps its words with Retry (a 429 retries by itself).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { INVOICES, INVOICES_AFTER_REDUCE, SKIP_CANCELLED, USE_REDUCE } from '../fixtures/conversation-answers';
import { askFlint, eventually, openFlintPage, requestsBefore } from '../helpers/chromium';
import { simulatorServeEnv, startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { SimScriptSchema } from '../sim/sim-script';
import { requestChain, startSimulator, type Simulator } from '../sim/simulator';

const OUTPUT = join(import.meta.dirname, '..', '..', 'test-output', 'e2e');
/** The first answer: a hunk, then a long tail of prose, so it still streams when the user redirects. */
const SKIP = `Skipping cancelled invoices.
${SKIP_CANCELLED}${Array.from({ length: 40 }, (_, index) => `Note ${index + 1}: cancelled invoices are those the customer withdrew.`).join('\n')}
`;
const REDUCE = `Using reduce instead.\n${USE_REDUCE}`;
const AFTER_REDUCE = INVOICES_AFTER_REDUCE;
const TWO = `Two small changes.
*** Begin Patch
*** Update File: src/invoices.ts
@@
-  let sum = 0;
+  let sum = 0; // running total
@@
-  return sum;
+  return Math.round(sum);
*** End Patch
`;

describe('conversations in Chromium (serve shell, simulator)', () => {
  let workspace: string;
  let project: string;
  let config: string;
  let sim: Simulator;
  let serve: ServeProcess;
  let browser: BrowserContext;
  let page: Page;
  /** The channel of every request the page sent (see requestsBefore). */
  let requests: string[];

  const file = () => join(project, 'src', 'invoices.ts');
  const onDisk = () => readFile(file(), 'utf8').catch(() => '(being swapped)');
  const turn = (index: number) => page.locator(`.edit-session section[data-turn="${index}"]`);
  // textContent: a superseded card sits in a collapsed <details>, where innerText is empty.
  const hunkState = async (hunkId: string) => ((await page.locator(`[data-hunk-id="${hunkId}"]`).getByLabel('Hunk state').textContent({ timeout: 1_000 }).catch(() => '')) ?? '').trim();
  const status = () => page.getByLabel('Edit status').innerText().catch(() => '');
  const requestsIncluding = (text: string) => sim.requests.filter((request) => JSON.stringify(request.body).includes(text));
  const shot = async (name: string) => {
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, `${name}.png`) });
  };
  /** Asks in a new conversation (askFlint waits until it replaced the one on screen). */
  const askNew = (text: string) => askFlint(page, text, { fresh: true });
  const startServe = async () => {
    // A deep model besides the fast one: a failed turn then offers to retry with it.
    serve = await startServeProcess([project], { ...simulatorServeEnv(config, sim.baseUrl, 'sk-e2e'), FLINT_DEEP_MODEL: 'gpt-5.3-codex' });
    ({ browser, page, requests } = await openFlintPage(serve.url));
    // A read of something not (yet) on screen fails fast, and `eventually` asks again.
    page.setDefaultTimeout(2_000);
    const tree = page.getByRole('tree', { name: 'Files' });
    await tree.getByRole('treeitem', { name: 'src', exact: true }).click();
    await tree.getByRole('treeitem', { name: 'invoices.ts', exact: true }).click();
    await eventually(() => page.getByLabel('Current file').innerText(), (text) => text === 'src/invoices.ts', 'the current file');
  };

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'flint-e2e-conversations-'));
    project = join(workspace, 'project');
    config = join(workspace, 'config');
    await mkdir(join(project, 'src'), { recursive: true });
    await writeFile(file(), INVOICES);
    sim = await startSimulator({
      ttftMs: 20,
      tokensPerSecond: 400,
      chunkTokens: 2,
      apiKey: 'sk-e2e',
      script: SimScriptSchema.parse({
        rules: [
          // Follow-ups carry the earlier turns, so the newest words are matched first.
          { match: { inputIncludes: 'follow up please' }, answer: { text: 'Noted: I will not propose that again.\n' } },
          { match: { inputIncludes: 'and add a comment' }, answer: { text: 'Queued answer: comment added in spirit.\n' } },
          { match: { inputIncludes: 'use reduce instead' }, answer: { text: REDUCE } },
          { match: { inputIncludes: 'skip cancelled invoices' }, answer: { text: SKIP }, tokensPerSecond: 150 },
          { match: { inputIncludes: 'two changes please' }, answer: { text: TWO } },
          // Each fails once: the retry, with the same words, gets an answer.
          { match: { inputIncludes: 'fail with a 500' }, fault: 'server-error', times: 1 },
          { match: { inputIncludes: 'refuse my key' }, fault: 'unauthorized', times: 1 },
          { match: { inputIncludes: 'rate limit me' }, fault: 'rate-limited', times: 1 },
        ],
      }),
    });
    await startServe();
  });

  // What the page showed when a step failed: the first thing to look at.
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await shot(`conversation-failed-${context.task.name.slice(0, 24).replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await sim?.close();
    await rm(workspace, { recursive: true, force: true });
  });

  it('redirect replaces: the abandoned hunk is superseded, and Accept all writes only the replacement', async () => {
    await askNew('skip cancelled invoices');
    await eventually(() => hunkState('1.0'), (state) => state === 'Ready', 'the first answer’s hunk', 20_000);
    expect(await status()).toBe('Streaming…');
    // Typed while it streams: Enter redirects.
    await askFlint(page, 'No, use reduce instead');
    await eventually(() => hunkState('2.0'), (state) => state === 'Ready', 'the replacement hunk', 20_000);
    await eventually(status, (text) => text === 'Answer complete', 'the redirect’s answer');
    // Turns, visible: the user's words, the model, each turn's own prose, how the first ended.
    expect(await turn(1).locator('.turn-words').innerText()).toBe('skip cancelled invoices');
    expect(await turn(2).locator('.turn-kind').innerText()).toBe('You redirected');
    expect(await turn(2).locator('.turn-words').innerText()).toBe('No, use reduce instead');
    expect(await turn(2).locator('.turn-model').innerText()).toBe('gpt-5.3-codex-spark');
    expect(await turn(1).locator('.edit-prose').innerText()).toContain('Skipping cancelled invoices.');
    expect(await turn(1).locator('.edit-prose').innerText()).not.toContain('Using reduce');
    expect(await turn(2).locator('.edit-prose').innerText()).toContain('Using reduce instead.');
    expect(await turn(1).locator('.turn-status').innerText()).toMatch(/^Redirected at .* replaced by turn 2/);
    // The abandoned hunk is collapsed under its turn, out of Accept all and the A key, with its warning.
    expect(await turn(1).locator('details.superseded-hunks summary').innerText()).toContain('1 hunk superseded by your redirect');
    await turn(1).locator('details.superseded-hunks summary').click();
    const superseded = page.locator('[data-hunk-id="1.0"]');
    expect(await superseded.locator('.hunk-warning').innerText()).toContain('Hunk 2 (from the redirect) changes the same lines');
    const sentBefore = requests.length;
    await superseded.focus();
    await page.keyboard.press('a');
    expect(await hunkState('1.0')).toBe('Ready');
    expect(await onDisk()).toBe(INVOICES);
    await shot('conversation-redirect');
    expect(await page.getByRole('button', { name: 'Accept all' }).innerText()).toBe('Accept all (1)');
    await page.getByRole('button', { name: 'Accept all' }).click();
    // Sent after the A key: had the key asked to accept the superseded hunk, that request went out first.
    expect((await requestsBefore(requests, sentBefore, 'hunk:acceptAll')).filter((channel) => channel.startsWith('hunk:'))).toEqual([]);
    await eventually(() => hunkState('2.0'), (state) => state === 'Accepted', 'the replacement accepted');
    expect(await onDisk()).toBe(AFTER_REDUCE);
    // Still acceptable on its own: its lines are gone, and it says so about Flint's write, not the user's text.
    await eventually(() => superseded.locator('.hunk-warning').innerText(), (text) => text.includes('was accepted and changed the same lines'), 'the warning after the write');
    await superseded.getByRole('button', { name: 'Accept anyway' }).click();
    await eventually(() => hunkState('1.0'), (state) => state === 'Conflict', 'the superseded hunk, no longer applicable');
    expect(await superseded.locator('.hunk-message').innerText()).toContain('Flint already wrote another change to these lines');
    expect(await onDisk()).toBe(AFTER_REDUCE);
  });

  it('keeps undecided hunks when a new question starts, and shows the earlier conversation again from the history', async () => {
    await writeFile(file(), INVOICES);
    await askNew('two changes please');
    await eventually(() => Promise.all([hunkState('1.0'), hunkState('1.1')]), (states) => states.every((state) => state === 'Ready'), 'two ready hunks', 20_000);
    const earlier = await page.locator('.edit-session').getAttribute('data-session');
    await askNew('explain the file');
    await eventually(() => page.locator('.edit-session').getAttribute('data-session'), (id) => id !== earlier, 'the new conversation');
    await eventually(() => page.locator('.history > summary').innerText(), (text) => text.includes('3 undecided in earlier conversations'), 'the pending count');
    await page.locator('.history > summary').click();
    expect(await page.locator('.history-entry', { hasText: 'two changes please' }).locator('.history-meta').innerText()).toContain('2 pending');
    await shot('conversation-history');
    await page.locator('.history-entry', { hasText: 'two changes please' }).click();
    await eventually(() => page.locator('.edit-session').getAttribute('data-session'), (id) => id === earlier, 'the earlier conversation on screen');
    expect([await hunkState('1.0'), await hunkState('1.1')]).toEqual(['Ready', 'Ready']);
  });

  it('keeps the conversation and its hunk states across a reload, and the file on view and the open folders', async () => {
    const shown = await page.locator('.edit-session').getAttribute('data-session');
    const fileView = page.getByLabel('File view').locator('.cm-content');
    await eventually(() => fileView.innerText().catch(() => ''), (text) => text.includes('export function total'), 'the file on view');
    await page.reload();
    await eventually(() => fileView.innerText().catch(() => ''), (text) => text.includes('export function total'), 'the file on view after the reload');
    expect(await page.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: 'invoices.ts', exact: true }).isVisible()).toBe(true);
    await eventually(() => page.locator('.edit-session').getAttribute('data-session').catch(() => null), (id) => id === shown, 'the same conversation after the reload');
    await eventually(() => Promise.all([hunkState('1.0'), hunkState('1.1')]), (states) => states.every((state) => state === 'Ready'), 'its hunks, still ready');
    expect(await turn(1).locator('.turn-words').innerText()).toBe('two changes please');
  });

  it('tells the model what the user decided: a rejected hunk and their edit under a pending one ride on the follow-up', async () => {
    await page.locator('[data-hunk-id="1.1"]').getByRole('button', { name: 'Reject' }).click();
    await eventually(() => hunkState('1.1'), (state) => state === 'Rejected', 'the rejection');
    // The user edits the lines under the pending hunk in their editor.
    await writeFile(file(), INVOICES.replace('let sum = 0;', 'let sum = 0.0;'));
    await eventually(() => hunkState('1.0'), (state) => state === 'Conflict', 'their edit under the hunk');
    // A new opening starts a new conversation; Alt+N makes it a follow-up of the one on screen.
    await page.keyboard.press('Control+Shift+Space');
    const input = page.getByRole('dialog', { name: 'Ask Flint' }).getByRole('textbox', { name: 'Ask Flint' });
    await input.press('Alt+n');
    expect(await page.getByLabel('Ask mode').innerText()).toContain('Follows up “two changes please”');
    await input.fill('follow up please');
    await input.press('Enter');
    await eventually(() => turn(2).locator('.edit-prose').innerText().catch(() => ''), (text) => text.includes('Noted'), 'the follow-up’s answer', 20_000);
    // What the model saw for the turn: the request, and the pre-load it continues when the
    // socket had one (then the file travelled there, and the turn carries only the new input).
    const followUp = requestsIncluding('follow up please').at(-1)!;
    const seen = JSON.stringify(requestChain(sim.requests, followUp).map((request) => request.body));
    const turnInput = JSON.stringify(followUp.body.input);
    expect(turnInput).toContain('hunk 2 in src/invoices.ts rejected');
    expect(turnInput).toContain('line 2 of src/invoices.ts changed by the user since your answer (under hunk 1)');
    // The earlier turn rides along as messages; the file is what is on disk now.
    expect(turnInput).toContain('two changes please');
    expect(seen).toContain('let sum = 0.0;');
    expect(await turn(2).locator('.turn-note').innerText()).toContain('hunk 2 in src/invoices.ts rejected');
    await page.getByRole('button', { name: 'Close the ask bar' }).click();
  });

  it('keeps conversations across a restart of Flint: the history and the hunks’ states come back', async () => {
    await writeFile(file(), INVOICES);
    const shown = await page.locator('.edit-session').getAttribute('data-session');
    await browser.close();
    await serve.stop();
    await startServe();
    await eventually(() => page.locator('.history > summary').innerText().catch(() => ''), (text) => text.startsWith('History (3)'), 'the history after the restart');
    await page.locator('.history > summary').click();
    await page.locator('.history-entry', { hasText: 'two changes please' }).click();
    await eventually(() => page.locator('.edit-session').getAttribute('data-session'), (id) => id === shown, 'the conversation after the restart');
    // Planned again on the file as it is now (the user put the line back): ready again; the rejection stays.
    await eventually(() => Promise.all([hunkState('1.0'), hunkState('1.1')]), (states) => states[0] === 'Ready' && states[1] === 'Rejected', 'the hunks’ states');
    await page.locator('[data-hunk-id="1.0"]').getByRole('button', { name: 'Accept' }).click();
    await eventually(onDisk, (text) => text === INVOICES.replace('let sum = 0;', 'let sum = 0; // running total'), 'the accepted hunk on disk');
  });

  it('queues a message typed with Tab while the answer streams, and sends it when the answer ends', async () => {
    await askNew('skip cancelled invoices');
    await eventually(() => hunkState('1.0'), (state) => state === 'Ready', 'the streaming answer', 20_000);
    const input = page.getByRole('dialog', { name: 'Ask Flint' }).getByRole('textbox', { name: 'Ask Flint' });
    await input.fill('and add a comment');
    await input.press('Tab');
    await eventually(() => turn(2).locator('.turn-status').innerText().catch(() => ''), (text) => text.startsWith('Queued at'), 'the queued turn');
    expect(await turn(1).locator('.turn-status').count()).toBe(1);
    await eventually(() => turn(2).locator('.edit-prose').innerText().catch(() => ''), (text) => text.includes('Queued answer'), 'the queued answer', 20_000);
    expect(await turn(2).locator('.turn-status').innerText()).toMatch(/^Queued at .*, sent at .* when the answer above ended/);
    // Nothing was superseded: the first answer's hunk is still in Accept all.
    expect(await page.locator('details.superseded-hunks').count()).toBe(0);
    expect(await hunkState('1.0')).toBe('Ready');
    await page.getByRole('button', { name: 'Close the ask bar' }).click();
  });

  it('picks a streaming answer up again after a reload mid-stream, with every line once', async () => {
    await askNew('skip cancelled invoices');
    await eventually(() => hunkState('1.0'), (state) => state === 'Ready', 'the streaming answer', 20_000);
    expect(await status()).toBe('Streaming…');
    await page.reload();
    await eventually(status, (text) => text === 'Answer complete', 'the answer, finished after the reload', 20_000);
    const prose = await turn(1).locator('.edit-prose').innerText();
    for (const note of ['Note 1:', 'Note 20:', 'Note 40:']) expect(prose.split(note)).toHaveLength(2);
    expect(await page.locator('[data-hunk-id="1.0"] .hunk-row').count()).toBe(2);
  });

  it('keeps the question of a failed turn with Retry, and Open Settings for a refused key', async () => {
    await askNew('explain the file, or fail with a 500');
    await eventually(() => turn(1).locator('.turn-failure').innerText().catch(() => ''), (text) => text.includes('The provider had an error (500)'), 'the failure');
    expect(await turn(1).locator('.turn-words').innerText()).toBe('explain the file, or fail with a 500');
    expect(await turn(1).getByRole('button', { name: 'Retry with the deep model' }).isVisible()).toBe(true);
    expect(await turn(1).getByRole('button', { name: 'Open Settings' }).count()).toBe(0);
    await turn(1).getByRole('button', { name: 'Retry', exact: true }).click();
    await eventually(status, (text) => text === 'Answer complete', 'the retry to answer', 20_000);
    expect(await turn(2).locator('.turn-kind').innerText()).toBe('Retry');
    expect(await turn(1).locator('.turn-status').innerText()).toBe('Retried as turn 2.');
    await page.getByRole('button', { name: 'Close the ask bar' }).click();
    await askNew('explain the file, or refuse my key');
    await eventually(() => page.getByRole('button', { name: 'Open Settings' }).count(), (count) => count > 0, 'the way to Settings', 20_000);
    // A refused key is not cured by another model of the same provider.
    expect(await page.getByRole('button', { name: 'Retry with the deep model' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Close the ask bar' }).click();
    await page.getByRole('button', { name: 'Open Settings' }).click();
    expect(await page.getByRole('dialog', { name: 'Settings' }).isVisible()).toBe(true);
    await page.keyboard.press('Escape');
  });

  it('retries a 429 by itself after retry-after, counting down', async () => {
    await askNew('explain it once more, or rate limit me');
    await eventually(() => turn(1).locator('.turn-countdown').innerText().catch(() => ''), (text) => /^Retrying in \d s…$/.test(text), 'the countdown');
    await shot('conversation-rate-limited');
    await eventually(() => turn(2).locator('.turn-kind').innerText().catch(() => ''), (text) => text === 'Retry', 'the automatic retry', 10_000);
    await eventually(status, (text) => text === 'Answer complete', 'the retried answer', 20_000);
    expect(await turn(1).locator('.turn-words').innerText()).toBe('explain it once more, or rate limit me');
  });
});
