/**
 * End to end in Chromium, keyboard only: ask, review the hunks in the file, accept some
 * lines of one, edit and accept another, reject a third, check the bytes on disk; then
 * Accept all and take it back with one Undo, and revert one hunk of an Accept all from its card.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/chromium';
import { E2E_OUTPUT as OUTPUT, flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';
const lines = (...text: string[]): string => `${text.join('\n')}\n`;
const ORIGINAL = lines(
  'export function add(a: number, b: number) {',
  '  return a + b;',
  '}',
  '',
  'export function sub(a: number, b: number) {',
  '  return a - b;',
  '}',
  '',
  'export function mul(a: number, b: number) {',
  '  return a * b;',
  '}',
);
const THREE_HUNKS = `Three changes.
*** Begin Patch
*** Update File: src/calc.ts
@@
 export function add(a: number, b: number) {
+  // one
+  // two
+  // three
   return a + b;
@@
 export function sub(a: number, b: number) {
-  return a - b;
+  return a - b - 0;
 }
@@
 export function mul(a: number, b: number) {
-  return a * b;
+  return a * b * 1;
 }
*** End Patch
`;
/** Lines "// one" and "// two" of the first hunk, the second as edited, the third rejected. */
const REVIEWED = ORIGINAL.replace('  return a + b;', '  // one\n  // two\n  return a + b;').replace('  return a - b;', '  return a - b - 0; // edited');
const RENAMES = `Two renames.
*** Begin Patch
*** Update File: src/calc.ts
@@
-export function add(a: number, b: number) {
+export function plus(a: number, b: number) {
@@
-export function mul(a: number, b: number) {
+export function times(a: number, b: number) {
*** End Patch
`;
const RENAMED = REVIEWED.replace('function add(', 'function plus(').replace('function mul(', 'function times(');

describe('the review in the file, keyboard only (serve shell, simulator)', () => {
  let flint: FlintOnSim;
  let page: Page;

  const onDisk = () => readFile(join(flint.project, 'src', 'calc.ts'), 'utf8').catch(() => '(being swapped)');
  const card = (number: number) => page.locator(`.hunk-card[data-hunk-number="${number}"]`);
  const stateOf = (number: number) => card(number).getByLabel('Hunk state').textContent();
  // Expressions, not functions: the tests typecheck without the DOM's types.
  const focusedIn = (selector: string) => page.evaluate<boolean>(`document.activeElement?.closest(${JSON.stringify(selector)}) != null`);
  const codeLines = () => page.locator('.file-view-editor .cm-line').allTextContents();
  const shoot = async (name: string) => {
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, `review-${name}.png`) });
  };
  /** Asks through the ask bar with the keyboard, then closes it (Esc). */
  const askByKeyboard = async (text: string, hunkNumbers: number[]) => {
    await page.keyboard.press('Control+Shift+Space');
    const input = page.getByRole('dialog', { name: 'Ask Flint' }).getByRole('textbox', { name: 'Ask Flint' });
    await eventually(() => focusedIn('.ask-bar'), Boolean, 'the ask bar to take focus');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    for (const number of hunkNumbers) await eventually(() => stateOf(number).catch(() => null), (state) => state === 'Ready', `hunk ${number} to be ready`, 20_000);
    await eventually(() => page.getByLabel('Edit status').textContent(), (text) => text === 'Answer complete', 'the answer to end');
    await page.keyboard.press('Escape');
    await eventually(() => input.isVisible(), (visible) => !visible, 'the ask bar to close');
  };

  beforeAll(async () => {
    flint = await flintOnSim({
      name: 'review',
      files: { 'src/calc.ts': ORIGINAL },
      rules: [
        { match: { inputIncludes: 'three changes' }, answer: { text: THREE_HUNKS } },
        { match: { inputIncludes: 'rename' }, answer: { text: RENAMES } },
      ],
    });
    page = flint.page;
    page.setDefaultTimeout(5_000);
    await flint.openFile('src/calc.ts');
  });

  afterAll(() => flint?.close());

  it('draws the hunks in the file: removed and added lines where they go, with their buttons', async () => {
    await askByKeyboard('Please make three changes', [1, 2, 3]);
    const text = await codeLines();
    expect(text).toContain('  // one');
    expect(text).toContain('  return a - b;');
    expect(text).toContain('  return a - b - 0;');
    expect(await page.locator('.file-view-editor .cm-flint-hunk-header').count()).toBe(3);
    expect(await page.getByLabel('Review progress').textContent()).toBe('3 of 3 pending · 1 file');
    await shoot('in-file');
  });

  it('accepts two lines of the first hunk, an edit of the second, rejects the third: exact bytes', async () => {
    // Closing the bar put focus on the hunk waiting, hunk 1, in the file: the cursor on its first added line.
    await eventually(() => focusedIn('.file-view'), Boolean, 'hunk 1 to take focus in the file view');
    expect(await page.locator('.file-view-editor .cm-flint-hunk-header.is-current').textContent()).toContain('Hunk 1 ');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+ArrowDown');
    // The hunk's header says what Accept will take.
    expect(await page.locator('.file-view-editor .cm-flint-hunk-header.is-current .cm-flint-accept').textContent()).toContain('Accept 2 of 3 lines');
    await shoot('lines-selected');
    await page.keyboard.press('Control+Enter');
    await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted in part');
    // The next hunk takes the cursor: its added line is edited in place.
    await eventually(() => focusedIn('.file-view'), Boolean, 'the code view to keep focus');
    await eventually(onDisk, (text) => text.includes('// two\n  return a + b;'), 'the two lines on disk');
    await page.keyboard.press('End');
    await page.keyboard.type(' // edited');
    await shoot('edited');
    await page.keyboard.press('Control+Enter');
    await eventually(() => stateOf(2), (state) => state?.startsWith('Accepted') ?? false, 'hunk 2 accepted as edited');
    await page.keyboard.press('Control+Backspace');
    await eventually(() => stateOf(3), (state) => state === 'Rejected', 'hunk 3 rejected');
    expect(await onDisk()).toBe(REVIEWED);
    expect(await stateOf(1)).toContain('2 of 3');
    await shoot('decided');
  });

  it('accepts all with one key and takes them all back with one Undo', async () => {
    // A new opening of the bar starts a new conversation: its hunks are numbered from 1.
    await askByKeyboard('Now rename two functions', [1, 2]);
    await page.keyboard.press('Control+Shift+Enter');
    await eventually(onDisk, (text) => text === RENAMED, 'both renames on disk');
    await page.keyboard.press('Control+Alt+KeyZ');
    await eventually(onDisk, (text) => text === REVIEWED, 'one Undo to take both back');
  });

  it('reverts one hunk of an Accept all from its card (U), leaving the other on disk', async () => {
    await eventually(() => stateOf(1), (state) => state === 'Ready', 'the undone hunk to wait again');
    await page.keyboard.press('Control+Shift+Enter');
    await eventually(onDisk, (text) => text === RENAMED, 'both renames on disk again');
    // The card says Accepted (and offers Revert) once main has reported the write.
    await eventually(() => stateOf(1), (state) => state === 'Accepted', 'hunk 1 to show it is on disk');
    await card(1).focus();
    await page.keyboard.press('u');
    await eventually(onDisk, (text) => text === REVIEWED.replace('function mul(', 'function times('), 'only the second rename on disk');
    await eventually(() => stateOf(1), (state) => state === 'Ready', 'the reverted hunk to wait again');
    expect(await stateOf(2)).toBe('Accepted');
    await shoot('reverted');
  });

  it('lists every key in the shortcuts sheet, and Esc gives focus back', async () => {
    await page.locator('.edit-session-bar').getByRole('button', { name: 'Keyboard shortcuts' }).focus();
    await page.keyboard.press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(await sheet.textContent()).toContain('Ctrl+Enter');
    await shoot('shortcuts');
    await page.keyboard.press('Escape');
    await eventually(() => sheet.isVisible(), (visible) => !visible, 'the sheet to close');
    expect(await page.evaluate<string | null>("document.activeElement?.getAttribute('aria-label') ?? null")).toBe('Keyboard shortcuts');
    expect(flint.errors).toEqual([]);
  });
});
