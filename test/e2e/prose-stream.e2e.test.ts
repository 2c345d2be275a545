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
});
