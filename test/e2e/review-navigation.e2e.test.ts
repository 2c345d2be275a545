/**
 * The review in context: moving between hunks in two
 * files (one 2,500 lines long, its hunk near the end), where the keys go behind a modal
 * and in the ask bar, and which hunk a new conversation starts at.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, requestsBefore } from '../helpers/chromium';
import { flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';
import { reviewPage } from '../helpers/review-page';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

const SMALL = lines('export const one = 1;', 'export const two = 2;');
const LONG = lines(...Array.from({ length: 2500 }, (_, index) => `// line ${index + 1}`));
const PATCH = `Two files.
*** Begin Patch
*** Update File: src/small.ts
@@
-export const one = 1;
+export const one = 11;
*** Update File: src/long.ts
@@
 // line 2399
-// line 2400
+// LINE 2400
 // line 2401
*** End Patch
`;

const TABS = 'function f() {\n\treturn 1;\n}\n';
const TABS_PATCH = `Indented with spaces.
*** Begin Patch
*** Update File: src/tabs.js
@@
 function f() {
-    return 1;
+    return 2;
 }
*** End Patch
`;

describe('navigation between hunks and files', () => {
  let flint: FlintOnSim;
  let page: Page;
  const { onDisk, card, stateOf, shoot, openFile, ask } = reviewPage(() => flint, 'review-navigation');

  const currentCard = () => page.evaluate<string | null>("document.querySelector('.hunk-card[aria-current=\"true\"]')?.getAttribute('data-hunk-number') ?? null");
  const filePath = () => page.locator('.file-view-path').textContent();
  /** Whether the inline header of the hunk holding `text` is on screen inside the code view's scroller. */
  const lineInView = async (text: string): Promise<boolean> => {
    const line = page.locator('.file-view-editor .cm-line', { hasText: text }).first();
    if ((await line.count()) === 0) return false;
    const [box, scroller] = [await line.boundingBox(), await page.locator('.file-view-editor .cm-scroller').boundingBox()];
    return box !== null && scroller !== null && box.y >= scroller.y && box.y + box.height <= scroller.y + scroller.height;
  };

  beforeAll(async () => {
    flint = await flintOnSim({
      name: 'review-navigation',
      files: { 'src/small.ts': SMALL, 'src/long.ts': LONG, 'src/tabs.js': TABS },
      rules: [
        { match: { inputIncludes: 'case-twofiles' }, answer: { text: PATCH } },
        { match: { inputIncludes: 'case-tabs' }, answer: { text: TABS_PATCH } },
      ],
    });
    page = flint.page;
    page.setDefaultTimeout(5_000);
  });

  afterAll(() => flint?.close());

  it('Alt+↓ from hunk 1 opens the other file with hunk 2 (line 2400 of 2500) in view', async () => {
    await writeFile(join(flint.project, 'src', 'small.ts'), SMALL);
    await openFile('small.ts');
    await ask('case-twofiles one', [1, 2]);
    expect(await page.getByLabel('Review progress').textContent()).toBe('2 of 2 pending · 2 files');
    // Closing the bar put focus on hunk 1: the first Alt+↓ goes on to hunk 2.
    await eventually(currentCard, (number) => number === '1', 'hunk 1 current');
    await page.keyboard.press('Alt+ArrowDown');
    await eventually(filePath, (path) => path === 'src/long.ts', 'long.ts opened');
    await eventually(() => lineInView('// LINE 2400'), Boolean, 'hunk 2 scrolled into view').catch(() => undefined);
    await shoot('long-file');
    expect(await lineInView('// LINE 2400')).toBe(true);
  });

  it('Ctrl+Enter in the code view on hunk 1: the code view follows to hunk 2 in the other file, in view', async () => {
    await page.keyboard.press('Alt+ArrowUp');
    await eventually(filePath, (path) => path === 'src/small.ts', 'small.ts opened');
    await eventually(currentCard, (number) => number === '1', 'hunk 1 current');
    // Into the code view at hunk 1, as Enter on its card does.
    await card(1).focus();
    await page.keyboard.press('Enter');
    await eventually(() => page.evaluate<boolean>("document.activeElement?.closest('.file-view') != null"), Boolean, 'the code view focused');
    await page.keyboard.press('Control+Enter');
    await eventually(() => stateOf(1), (state) => state === 'Accepted', 'hunk 1 accepted');
    await eventually(filePath, (path) => path === 'src/long.ts', 'long.ts opened');
    await eventually(() => lineInView('// LINE 2400'), Boolean, 'hunk 2 scrolled into view').catch(() => undefined);
    await shoot('after-accept');
    expect(await lineInView('// LINE 2400')).toBe(true);
    expect(await onDisk('small.ts')).toBe(SMALL.replace('one = 1;', 'one = 11;'));
  });

  it('keys do nothing behind Settings', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const settings = page.getByRole('dialog', { name: 'Settings' });
    await eventually(() => settings.isVisible(), Boolean, 'Settings open');
    // A click on the dialog's text, then the review keys.
    await settings.getByRole('heading', { name: 'Settings' }).click();
    const sentBefore = flint.requests.length;
    for (const key of ['Control+Enter', 'Control+Backspace', 'Control+Shift+Enter', 'Alt+ArrowDown', 'Control+Alt+KeyZ']) await page.keyboard.press(key);
    await page.keyboard.press('Escape');
    await eventually(() => settings.isVisible(), (visible) => !visible, 'Settings closed');
    // A file picked in the tree afterwards: its request goes out after anything the keys
    // asked of main, so none came first means the keys sent nothing.
    await openFile('long.ts');
    expect((await requestsBefore(flint.requests, sentBefore, 'currentFile:select')).filter((channel) => channel.startsWith('hunk:'))).toEqual([]);
    expect(await stateOf(2)).toBe('Ready');
    expect(await onDisk('long.ts')).toBe(LONG);
    expect(await onDisk('small.ts')).toBe(SMALL.replace('one = 1;', 'one = 11;'));
  });

  it('? typed in the ask bar is a question mark, not the shortcuts sheet', async () => {
    await page.keyboard.press('Control+Shift+Space');
    const input = page.getByRole('dialog', { name: 'Ask Flint' }).getByRole('textbox', { name: 'Ask Flint' });
    await eventually(() => input.isVisible(), Boolean, 'the bar');
    await page.keyboard.type('why?');
    expect(await input.inputValue()).toBe('why?');
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0);
    await input.fill('');
    await page.keyboard.press('Escape');
  });

  it('a new conversation starts the review at its hunk 1, whatever hunk the last one ended on', async () => {
    // The previous conversation ended with hunk 2 current (its id is the same in the next one).
    await writeFile(join(flint.project, 'src', 'small.ts'), SMALL);
    await eventually(() => stateOf(1), (state) => state === 'Conflict' || state === 'Ready' || state === 'Accepted', 'settle');
    await openFile('small.ts');
    await ask('case-twofiles two', [1, 2]);
    await shoot('new-conversation');
    expect(await currentCard()).toBe('1');
  });

  it('a hunk anchored with tolerance (spaces for a tab) is shown somewhere: in the file, or its lines in its card', async () => {
    await openFile('tabs.js');
    await ask('case-tabs please', [1]);
    // The file view's header counts it among the hunks to review in this file: the view has taken it.
    await eventually(() => page.locator('.file-view-header').textContent(), (text) => text?.includes('1 hunk to review') ?? false, 'the file view to count the hunk');
    // Then it is drawn in the file (at an idle moment, later on a busy machine) or its lines stay in its card.
    const shown = async () => ({ inline: await page.locator('.file-view-editor .cm-flint-hunk-header').count(), inCard: await card(1).locator('.hunk-body').isVisible() });
    const where = await eventually(shown, ({ inline, inCard }) => inline > 0 || inCard, 'the hunk shown in the file or its card').catch(shown);
    await shoot('tolerated');
    expect(where).not.toEqual({ inline: 0, inCard: false });
  });
});
