/**
 * A review that never traps, by keyboard only: a hunk in a file of 300-character lines is
 * decided from its header pinned to the visible part of the file view (at 800 and 1600 px),
 * a rejection is taken back with Undo and the hunk accepted, and the lines left of a hunk
 * accepted in part are accepted after it. The current file is made so by a save, as the
 * user's editor would; every step after the question is a key.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from '../helpers/axe';
import { eventually } from '../helpers/chromium';
import { flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';
import { reviewPage } from '../helpers/review-page';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;
/** A line of 300 characters, numbered. */
const long = (n: number): string => `export const line${String(n).padStart(2, '0')} = '${'x'.repeat(300 - 25)}';`;
const LONG = lines(...Array.from({ length: 30 }, (_, index) => long(index + 1)));
const LONG_PATCH = `One change on a long line.
*** Begin Patch
*** Update File: src/long.ts
@@
 ${long(14)}
-${long(15)}
+export const line15 = 'short now';
 ${long(16)}
*** End Patch
`;

const TWO = lines('export const a = 1;', 'export const b = 2;', 'export const c = 3;', 'export const d = 4;', 'export const e = 5;');
const TWO_PATCH = `Two changes.
*** Begin Patch
*** Update File: src/two.ts
@@
-export const a = 1;
+export const a = 10;
@@
-export const e = 5;
+export const e = 50;
*** End Patch
`;

const THREE = lines('export const one = 1;', 'export const two = 2;');
const THREE_PATCH = `Three new lines.
*** Begin Patch
*** Update File: src/three.ts
@@
 export const one = 1;
+// first
+// second
+// third
 export const two = 2;
*** End Patch
`;

describe('a review within reach, by keyboard', () => {
  let flint: FlintOnSim;
  let page: Page;
  const { onDisk, card, stateOf, header, shoot, ask } = reviewPage(() => flint, 'review-reach');

  /** The user saves `name` in their editor: it becomes the current file. */
  const saveInEditor = async (name: string, text: string): Promise<void> => {
    await writeFile(join(flint.project, 'src', name), text);
    await eventually(() => page.getByLabel('Current file').innerText(), (path) => path === `src/${name}`, `src/${name} to be current`);
  };
  // An expression, not a function: the tests typecheck without the DOM's types.
  const focusIsInFileView = () => page.evaluate<boolean>("document.activeElement?.closest('.file-view') != null");
  const notices = () => page.getByRole('list', { name: 'Notices' }).innerText().catch(() => '');

  beforeAll(async () => {
    flint = await flintOnSim({
      name: 'review-reach',
      files: { 'src/long.ts': LONG, 'src/two.ts': TWO, 'src/three.ts': THREE },
      rules: [
        { match: { inputIncludes: 'case-long' }, answer: { text: LONG_PATCH } },
        { match: { inputIncludes: 'case-two' }, answer: { text: TWO_PATCH } },
        { match: { inputIncludes: 'case-three' }, answer: { text: THREE_PATCH } },
      ],
    });
    page = flint.page;
    page.setDefaultTimeout(5_000);
  });

  afterAll(() => flint?.close());

  for (const size of [
    { width: 800, height: 600 },
    { width: 1600, height: 1000 },
  ]) {
    it(`decides a hunk in a file of 300-character lines from its pinned header at ${size.width} px`, async () => {
      await page.setViewportSize(size);
      await saveInEditor('long.ts', LONG);
      await ask(`case-long at ${size.width}`, [1]);
      // Closing the bar put focus on the hunk waiting, in the file view.
      await eventually(focusIsInFileView, Boolean, 'focus in the file view at the hunk');
      const scroller = page.locator('.file-view-editor .cm-scroller');
      /** The header and its buttons lie inside what is visible of the file view. */
      const expectHeaderInView = async (when: string): Promise<void> => {
        const view = (await scroller.boundingBox())!;
        for (const part of [header(1), header(1).locator('.cm-flint-accept'), header(1).locator('.cm-flint-reject')]) {
          const box = (await part.boundingBox())!;
          const where = `${(await part.textContent())?.slice(0, 20)} at ${size.width} px, ${when}`;
          expect(box.x, where).toBeGreaterThanOrEqual(view.x);
          expect(box.x + box.width, where).toBeLessThanOrEqual(view.x + view.width);
          expect(box.y, where).toBeGreaterThanOrEqual(view.y);
          expect(box.y + box.height, where).toBeLessThanOrEqual(view.y + view.height);
        }
      };
      await expectHeaderInView('the code at its left edge');
      // The user reads along a long line: the code scrolls sideways.
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('End');
      await eventually(() => scroller.evaluate((element) => element.scrollLeft), (left) => left > 0, 'the code scrolled sideways');
      await expectHeaderInView('the code scrolled to the end of a long line');
      await shoot(`pinned-header-${size.width}`);
      expect(describeViolations(await seriousViolations(page))).toEqual([]);
      // The header's key, pressed where the user is.
      expect(await header(1).locator('.cm-flint-accept kbd').textContent()).toBe('Ctrl+Enter');
      await page.keyboard.press('Control+Enter');
      await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted');
      expect(await onDisk('long.ts')).toBe(LONG.replace(long(15), "export const line15 = 'short now';"));
    });
  }

  it('takes a rejection back with Undo: the hunk waits again and is then accepted', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await saveInEditor('two.ts', TWO);
    await ask('case-two please', [1, 2]);
    await eventually(focusIsInFileView, Boolean, 'focus in the file view at hunk 1');
    await page.keyboard.press('Control+Backspace');
    await eventually(() => stateOf(1), (state) => state === 'Rejected', 'hunk 1 rejected');
    await page.keyboard.press('Control+Alt+z');
    await eventually(() => stateOf(1), (state) => state === 'Ready', 'hunk 1 waiting again');
    // The word comes with Undo's answer, which may arrive after the hunk's new state.
    await eventually(notices, (text) => text.includes('Restored hunk 1 in src/two.ts: undecided again.'), 'the word on the undo');
    await shoot('rejection-undone');
    // Focus moved on to hunk 2 after the rejection: Alt+↑ goes back to hunk 1.
    await page.keyboard.press('Alt+ArrowUp');
    await eventually(focusIsInFileView, Boolean, 'focus at hunk 1');
    await page.keyboard.press('Control+Enter');
    await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted');
    expect(await onDisk('two.ts')).toBe(TWO.replace('a = 1;', 'a = 10;'));
    expect(await stateOf(2)).toBe('Ready');
    // A rejected card offers Restore (U on the card).
    await page.keyboard.press('Control+Backspace');
    await eventually(() => stateOf(2), (state) => state === 'Rejected', 'hunk 2 rejected');
    expect(await card(2).getByRole('button', { name: 'Restore' }).isVisible()).toBe(true);
    await card(2).focus();
    await page.keyboard.press('u');
    await eventually(() => stateOf(2), (state) => state === 'Ready', 'hunk 2 restored from its card');
  });

  it('accepts the lines left of a hunk accepted in part', async () => {
    await saveInEditor('three.ts', THREE);
    await ask('case-three please', [1]);
    // From the hunk's card (one Tab stop in the pane), Shift+↓ goes to its lines in the file, the first selected.
    await card(1).focus();
    await page.keyboard.press('Shift+ArrowDown');
    await eventually(focusIsInFileView, Boolean, 'focus in the file view at the hunk');
    await eventually(() => header(1).locator('.cm-flint-accept').textContent(), (text) => text?.startsWith('Accept 1 of 3 lines') ?? false, 'the header to offer 1 of 3 lines');
    await page.keyboard.press('Control+Enter');
    await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted in part');
    expect(await onDisk('three.ts')).toBe(lines('export const one = 1;', '// first', 'export const two = 2;'));
    // The lines left come as hunk 2, waiting.
    await eventually(() => stateOf(2).catch(() => null), (state) => state === 'Ready', 'the lines left to wait as hunk 2');
    await shoot('lines-left');
    await page.keyboard.press('Alt+ArrowDown');
    await eventually(focusIsInFileView, Boolean, 'focus at hunk 2');
    await page.keyboard.press('Control+Enter');
    await eventually(() => stateOf(2), (state) => state?.startsWith('Accepted') ?? false, 'hunk 2 accepted');
    expect(await onDisk('three.ts')).toBe(lines('export const one = 1;', '// first', '// second', '// third', 'export const two = 2;'));
  });

  it('never covers the hunk waiting with the ask bar: the view scrolls it clear, or the bar docks below', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const bar = page.getByRole('dialog', { name: 'Ask Flint' });
    const current = page.locator('.file-view-editor .cm-flint-hunk-header.is-current');
    const isCovered = async (): Promise<boolean> => {
      const [a, b] = [(await bar.boundingBox())!, (await current.boundingBox())!];
      return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    };
    // A long file: the user scrolled its hunk up to the top of the view, then opens the bar.
    await saveInEditor('long.ts', LONG);
    await ask('case-long covered', [1]);
    await page.locator('.file-view-editor .cm-scroller').evaluate((scroller, headerTop) => (scroller.scrollTop += headerTop), await current.evaluate((header) => header.getBoundingClientRect().top - header.closest('.cm-scroller')!.getBoundingClientRect().top - 4));
    await page.keyboard.press('Control+Shift+Space');
    await eventually(() => bar.isVisible(), Boolean, 'the bar');
    await eventually(isCovered, (covered) => !covered, 'the hunk scrolled clear of the bar');
    expect(await bar.getAttribute('class')).not.toContain('is-docked');
    await shoot('bar-over-long-file');
    await page.keyboard.press('Escape');
    // A short file with its hunk on line 1: nothing to scroll, so the bar docks at the bottom.
    await saveInEditor('two.ts', TWO);
    await ask('case-two covered', [1, 2]);
    await page.keyboard.press('Control+Shift+Space');
    await eventually(() => bar.isVisible(), Boolean, 'the bar');
    await eventually(isCovered, (covered) => !covered, 'the bar off the hunk');
    expect(await bar.getAttribute('class')).toContain('is-docked');
    await shoot('bar-docked');
    expect(describeViolations(await seriousViolations(page))).toEqual([]);
    await page.keyboard.press('Escape');
  });
});
