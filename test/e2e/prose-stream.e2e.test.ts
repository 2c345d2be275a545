/**
 * Prose live to the last token, in real Chromium: the simulator holds its answer at a
 * scripted point (a rule's `holdAfter`), so the page is seen with the answer cut exactly
 * there, whatever the machine's speed — the first words of a line whose newline has not
 * come, a search/replace path line before its SEARCH.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askFlint, eventually } from '../helpers/chromium';
import { E2E_OUTPUT, flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';

const WALK = '# Walk-through\n\nFirst, the parser reads each delta as it arrives and keeps the unfinished line for later.\nThen it anchors the hunks.\n';
/** 240 unique words, some bold, 12 to a line, a paragraph every 4 lines: each delta's words can be told apart. */
const WORDS = Array.from({ length: 240 }, (_, index) => (index % 7 === 3 ? `**w${1000 + index}**` : `w${1000 + index}`));
const MANY_WORDS = WORDS.map((word, index) => word + ((index + 1) % 48 === 0 ? '\n\n' : (index + 1) % 12 === 0 ? '\n' : ' ')).join('');

/**
 * In the page, before its socket exists: after the app has handled each message, checks that
 * every word of the prose it brought is in the DOM already (in that task: the hidden span of
 * text arrived since the last frame); and at the next
 * animation frame, in a callback asked for after the app's own, that every word up to that
 * message is in the formatted Markdown of both views — with nothing left unformatted when no
 * later message came before the frame (a later one's words may be formatted in the app's
 * next frame callback, after this one).
 */
const PROSE_PROBE = `(() => {
  const probe = { batches: 0, late: [], unformatted: [], frames: 0, seen: [] };
  window.proseProbe = probe;
  const Native = window.WebSocket;
  const wordsOf = (text) => text.match(/w[0-9]{4}/g) ?? [];
  const afterFrame = (count, batch) => {
    probe.frames += 1;
    const formatted = [...document.querySelectorAll('.markdown')].map((element) => element.textContent).join(' ');
    for (const word of probe.seen.slice(0, count)) if (!formatted.includes(word)) probe.unformatted.push(word);
    if (batch !== probe.batches) return;
    for (const span of document.querySelectorAll('.prose-arriving')) if (span.textContent !== '') probe.unformatted.push('arriving: ' + span.textContent);
  };
  const check = (data) => {
    const message = JSON.parse(data);
    const update = message.type === 'event' && message.envelope.channel === 'ask:update' ? message.envelope.payload : null;
    if (!update) return;
    const words = [...(update.prose ?? []), ...(update.proseTail ?? [])].flatMap((piece) => wordsOf(piece.text));
    if (words.length === 0) return;
    const batch = ++probe.batches;
    const page = document.body.textContent;
    for (const word of words) {
      if (!page.includes(word)) probe.late.push(word);
      if (!probe.seen.includes(word)) probe.seen.push(word);
    }
    const count = probe.seen.length;
    requestAnimationFrame(() => afterFrame(count, batch));
  };
  window.WebSocket = class extends Native {
    set onmessage(handler) {
      super.onmessage = handler && ((event) => {
        handler.call(this, event);
        check(event.data);
      });
    }
    get onmessage() {
      return super.onmessage;
    }
  };
})()`;

const SEARCH_REPLACE = 'Here is the change.\n\nsrc/app.ts\n<<<<<<< SEARCH\nexport const app = 1;\n=======\nexport const app = 2;\n>>>>>>> REPLACE\n\nThat is all.\n';

describe('prose as it streams', () => {
  let flint: FlintOnSim;
  let page: Page;
  const answer = () => page.getByRole('dialog', { name: 'Ask Flint' }).getByLabel('Answer').innerText().catch(() => '');
  const paneProse = () => page.locator('.edit-prose').allInnerTexts().then((texts) => texts.join('\n'));

  beforeAll(async () => {
    flint = await flintOnSim({
      name: 'prose-stream',
      files: { 'src/app.ts': 'export const app = 1;\n' },
      rules: [
        { match: { inputIncludes: 'walk me through' }, answer: { text: WALK }, holdAfter: 'First, the parser reads each' },
        { match: { inputIncludes: 'change it' }, answer: { text: SEARCH_REPLACE }, holdAfter: 'src/app.ts\n' },
        { match: { inputIncludes: 'many words' }, answer: { text: MANY_WORDS }, tokensPerSecond: 400 },
      ],
    });
    page = flint.page;
    page.setDefaultTimeout(10_000);
    await flint.openFile('src/app.ts');
  });

  afterAll(async () => {
    await flint?.close();
  });

  it('shows a slow answer’s first words before its line ends, and keeps them when the user stops it', async () => {
    await askFlint(page, 'walk me through the parser', { fresh: true });
    await flint.sim.whenHeld();
    // The line's newline has not been sent: the words are on screen all the same. (Not
    // ending in an "s": main holds a tail that may begin the key, "sk-e2e", until the next delta.)
    await eventually(answer, (text) => text.includes('First, the parser reads each'), 'the first words of the unfinished line');
    expect(await answer()).not.toContain('delta');
    await page.screenshot({ path: join(E2E_OUTPUT, 'prose-stream-first-words.png') });
    await page.keyboard.press('Escape');
    await eventually(() => page.getByLabel('Edit status').innerText(), (text) => text === 'Stopped', 'the answer stopped');
    expect(await paneProse()).toContain('First, the parser reads');
    flint.sim.release();
  });

  it('shows a search/replace path line at once, then moves it into its hunk: never twice, never lost', async () => {
    await askFlint(page, 'change it please', { fresh: true });
    await flint.sim.whenHeld();
    await eventually(answer, (text) => text.includes('src/app.ts'), 'the path line, before its SEARCH');
    await page.screenshot({ path: join(E2E_OUTPUT, 'prose-stream-path-line.png') });
    flint.sim.release();
    await eventually(() => page.getByLabel('Edit status').innerText(), (text) => text === 'Answer complete', 'the end of the answer');
    const card = page.locator('.hunk-card[data-hunk-number="1"]');
    await expect.poll(() => card.count()).toBe(1);
    expect(await page.locator('.edit-file-path, .hunk-card').first().innerText()).toContain('src/app.ts');
    const prose = await paneProse();
    expect(prose).toContain('Here is the change.');
    expect(prose).toContain('That is all.');
    expect(prose).not.toContain('src/app.ts');
    await page.screenshot({ path: join(E2E_OUTPUT, 'prose-stream-path-in-hunk.png') });
  });

  it('puts each delta’s words in the DOM in the task its message came in, formatted in both views by the next frame', async () => {
    await page.addInitScript(PROSE_PROBE);
    await page.reload();
    await eventually(() => page.getByLabel('Model connection').innerText(), (text) => text.includes('ready'), 'the connection again');
    // The conversation before comes back first: the new one is then told from it (askFlint's `fresh`).
    await eventually(() => page.locator('.edit-session').count(), (count) => count === 1, 'the last conversation restored');
    await askFlint(page, 'many words, please', { fresh: true });
    await eventually(() => page.getByLabel('Edit status').innerText(), (text) => text === 'Answer complete', 'the end of the answer');
    await eventually(paneProse, (text) => text.includes('w1239'), 'the answer’s last word');
    const probe = (await page.evaluate('({ batches: proseProbe.batches, frames: proseProbe.frames, seen: proseProbe.seen.length, late: proseProbe.late, unformatted: proseProbe.unformatted })')) as { batches: number; frames: number; seen: number; late: string[]; unformatted: string[] };
    // Many batches, not one: the answer streamed (400 tokens/s, a delta every 10 ms).
    expect(probe.batches).toBeGreaterThan(5);
    expect(probe.seen).toBe(240);
    expect(probe.late).toEqual([]);
    expect(probe.unformatted).toEqual([]);
    // Bold words are formatted, in the bar and the pane alike.
    await expect.poll(() => page.locator('.markdown strong', { hasText: 'w1003' }).count()).toBe(2);
  });
});
