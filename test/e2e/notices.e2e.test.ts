/**
 * Notices with a lifetime, by keyboard: each is about something, goes when that is over or
 * a newer word about it comes, sits in a row of its own above the status bar (never over
 * the panes), is heard by screen readers, and is not brought back by a reload.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from '../helpers/axe';
import { eventually } from '../helpers/chromium';
import { flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';
import { reviewPage } from '../helpers/review-page';

const A = 'export const a = 1;\n';
const PATCH = `One change.
*** Begin Patch
*** Update File: src/a.ts
@@
-export const a = 1;
+export const a = 2;
*** End Patch
`;

describe('notices with a lifetime', () => {
  let flint: FlintOnSim;
  let page: Page;
  const { onDisk, stateOf, shoot, ask } = reviewPage(() => flint, 'notices');
  const list = () => page.getByRole('list', { name: 'Notices' });
  const shown = () => list().locator('li > span').allInnerTexts();

  beforeAll(async () => {
    flint = await flintOnSim({ name: 'notices', files: { 'src/a.ts': A }, rules: [{ match: { inputIncludes: 'case-a' }, answer: { text: PATCH } }] });
    page = flint.page;
    page.setDefaultTimeout(5_000);
    await page.setViewportSize({ width: 800, height: 600 });
  });

  afterAll(() => flint?.close());

  it('says nothing waits when Alt+↓ finds no hunk, and takes it back once one does', async () => {
    await page.getByRole('tree', { name: 'Files' }).focus();
    await page.keyboard.press('Alt+ArrowDown');
    await eventually(shown, (texts) => texts.includes('No hunk is waiting for a decision.'), 'the notice');
    // Heard by screen readers: the list is a polite live region.
    expect(await list().getAttribute('aria-live')).toBe('polite');
    await writeFile(join(flint.project, 'src', 'a.ts'), A);
    await eventually(() => page.getByLabel('Current file').innerText(), (path) => path === 'src/a.ts', 'a.ts current');
    await ask('case-a please', [1]);
    await eventually(shown, (texts) => !texts.includes('No hunk is waiting for a decision.'), 'the notice gone once a hunk waits');
  });

  it('replaces the word about an Undo with the word about the Redo, in a row of its own under the panes', async () => {
    await page.keyboard.press('Control+Enter');
    await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted');
    await page.keyboard.press('Control+Alt+z');
    await eventually(shown, (texts) => texts.includes('Undid the change to src/a.ts.'), 'the undo notice');
    expect(await onDisk('a.ts')).toBe(A);
    const workspace = (await page.locator('.workspace').boundingBox())!;
    const notices = (await list().boundingBox())!;
    // Below the panes, above the status bar: nothing of the review is under it.
    expect(notices.y).toBeGreaterThanOrEqual(workspace.y + workspace.height - 0.5);
    expect(describeViolations(await seriousViolations(page))).toEqual([]);
    await shoot('undo-800');
    await page.keyboard.press('Control+Alt+Shift+Z');
    await eventually(shown, (texts) => texts.includes('Redid the change to src/a.ts.'), 'the redo notice');
    expect((await shown()).filter((text) => text.startsWith('Undid') || text.startsWith('Redid'))).toEqual(['Redid the change to src/a.ts.']);
    expect(await onDisk('a.ts')).toBe('export const a = 2;\n');
  });

  it('is dismissed with Esc from inside it', async () => {
    await list().getByRole('button', { name: 'Dismiss' }).first().focus();
    await page.keyboard.press('Escape');
    await eventually(shown, (texts) => texts.length === 0, 'no notice left');
  });

  it('does not come back after a reload', async () => {
    await page.keyboard.press('Control+Alt+z');
    await eventually(shown, (texts) => texts.length === 1, 'a notice again');
    await page.reload();
    await eventually(() => page.getByLabel('Current file').innerText(), (path) => path === 'src/a.ts', 'the page back');
    expect(await shown()).toEqual([]);
    expect(flint.errors).toEqual([]);
  });
});
