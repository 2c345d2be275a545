/**
 * The review in context: what the keys and the selection
 * in the code view write. Each test asks its own question (a new conversation) on its own
 * file and checks the exact bytes on disk.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventually, requestsBefore } from '../helpers/chromium';
import { flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';
import { reviewPage } from '../helpers/review-page';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

const A = lines('export const one = 1;', 'export const two = 2;', 'export const three = 3;');
const A_PATCH = `Two changes.
*** Begin Patch
*** Update File: src/a.ts
@@
-export const one = 1;
+export const one = 11;
@@
 export const two = 2;
+// alpha
+// beta
+// gamma
 export const three = 3;
*** End Patch
`;

const B = lines('export const one = 1;', 'export const two = 2;', 'export const three = 3;');
const B_PATCH = `One change.
*** Begin Patch
*** Update File: src/b.ts
@@
 export const one = 1;
-export const two = 2;
+export const two = 22;
+export const deux = 2;
 export const three = 3;
*** End Patch
`;

const C = lines('export const one = 1;', 'export const two = 2;');
const C_PATCH = `Three lines.
*** Begin Patch
*** Update File: src/c.ts
@@
 export const one = 1;
+// x1
+// x2
+// x3
 export const two = 2;
*** End Patch
`;

describe('review keys and selections', () => {
  let flint: FlintOnSim;
  let page: Page;
  const { onDisk, stateOf, codeLine, header, shoot, openFile, ask } = reviewPage(() => flint, 'review-keys');


  beforeAll(async () => {
    flint = await flintOnSim({
      name: 'review-keys',
      files: { 'src/a.ts': A, 'src/b.ts': B, 'src/c.ts': C },
      rules: [
        { match: { inputIncludes: 'case-alpha' }, answer: { text: A_PATCH } },
        { match: { inputIncludes: 'case-bravo' }, answer: { text: B_PATCH } },
        { match: { inputIncludes: 'case-charlie' }, answer: { text: C_PATCH } },
      ],
    });
    page = flint.page;
    page.setDefaultTimeout(5_000);
  });

  beforeEach(async () => {
    // A sheet a failed test left open.
    const close = page.getByRole('dialog', { name: 'Keyboard shortcuts' }).getByRole('button', { name: /Close/ });
    if (await close.isVisible()) await close.click();
    await writeFile(join(flint.project, 'src', 'a.ts'), A);
    await writeFile(join(flint.project, 'src', 'b.ts'), B);
  });

  afterAll(() => flint?.close());

  it('Ctrl+Enter with lines selected in hunk 2 (whose header offers "Accept 1 of 3 lines Ctrl+Enter") accepts those lines, not hunk 1', async () => {
    await openFile('a.ts');
    await ask('case-alpha please', [1, 2]);
    // The user clicks into hunk 2 and selects its line "// beta".
    await codeLine('// beta').click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    // Hunk 2's own header says what Ctrl+Enter will take.
    const accept = header(2).locator('.cm-flint-accept');
    expect(await accept.textContent()).toBe('Accept 1 of 3 lines Ctrl+Enter');
    await shoot('selection-in-hunk-2');
    await page.keyboard.press('Control+Enter');
    await eventually(async () => [await stateOf(1), await stateOf(2)], (states) => states.some((state) => state?.startsWith('Accepted')), 'a hunk to be accepted');
    await shoot('selection-in-hunk-2-after');
    // Expected: only "// beta" of hunk 2 is written; hunk 1 still waits.
    expect(await onDisk('a.ts')).toBe(lines('export const one = 1;', 'export const two = 2;', '// beta', 'export const three = 3;'));
    expect(await stateOf(1)).toBe('Ready');
  });

  it('the shortcuts sheet is modal: a click on its text, then Ctrl+Enter, writes nothing behind it', async () => {
    await openFile('a.ts');
    await ask('case-alpha again', [1, 2]);
    // Closing the bar put focus on hunk 1 in the code view, where '?' is typing: the tree takes it.
    await page.getByRole('tree', { name: 'Files' }).focus();
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await eventually(() => sheet.isVisible(), Boolean, 'the sheet');
    // The user clicks on the sheet's text (say, to read or select a row).
    await sheet.locator('table td').nth(1).click();
    const sentBefore = flint.requests.length;
    await page.keyboard.press('Control+Enter');
    await shoot('sheet-after-ctrl-enter');
    // Then the sheet closes and the file is picked again in the tree: that request goes out
    // after anything Ctrl+Enter asked of main, so none came first means none was sent.
    await sheet.getByRole('button', { name: /Close/ }).click();
    await openFile('a.ts');
    expect((await requestsBefore(flint.requests, sentBefore, 'currentFile:select')).filter((channel) => channel.startsWith('hunk:'))).toEqual([]);
    expect(await onDisk('a.ts')).toBe(A);
    expect(await stateOf(1)).toBe('Ready');
  });

  it('deleting every added line of a hunk, then Accept, does not write an empty line the user never typed', async () => {
    await openFile('b.ts');
    await ask('case-bravo please', [1]);
    await codeLine('export const two = 22;').click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+End');
    await page.keyboard.press('Delete');
    await shoot('added-lines-deleted');
    await header(1).locator('.cm-flint-accept').click();
    await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted as edited');
    // The user removed the hunk's new text: the old line goes, and no blank line comes in its place.
    expect(await onDisk('b.ts')).toBe(lines('export const one = 1;', 'export const three = 3;'));
  });

  it('Undo of a line-level accept gives the hunk back as the model wrote it (all 3 lines to choose from again)', async () => {
    await openFile('c.ts');
    await ask('case-charlie please', [1]);
    await page.locator('.file-view-editor .cm-line', { hasText: '// x1' }).first().click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.press('Control+Enter');
    await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted in part');
    expect(await onDisk('c.ts')).toBe(lines('export const one = 1;', '// x1', 'export const two = 2;'));
    await page.keyboard.press('Control+Alt+KeyZ');
    await eventually(() => onDisk('c.ts'), (text) => text === C, 'the undo');
    await eventually(() => stateOf(1), (state) => state?.startsWith('Ready') ?? false, 'hunk 1 waiting again');
    await eventually(() => header(1).count(), (count) => count === 1, 'hunk 1 drawn again');
    await shoot('undo-line-accept');
    const shown = await page.locator('.file-view-editor .cm-line').allTextContents();
    expect(shown).toEqual(['export const one = 1;', '// x1', '// x2', '// x3', 'export const two = 2;', '']);
  });
});
