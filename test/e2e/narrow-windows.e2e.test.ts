/**
 * End to end in Chromium: Flint is readable at 800 × 600 as at 1600 × 1000 — the status bar
 * on one line, a wide Markdown table scrolling in its own box with no word broken, the
 * pane's head not cut, a conflict's two texts one above the other, wrapped between words —
 * and axe finds nothing serious there.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from '../helpers/axe';
import { askFlint, eventually } from '../helpers/chromium';
import { E2E_OUTPUT, flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';

const SIZES = [
  { width: 800, height: 600 },
  { width: 1600, height: 1000 },
] as const;

const WORDS = ['configuration', 'initialization', 'responsibilities', 'internationalization', 'synchronization', 'acknowledgement', 'implementation'];
const TABLE = [
  `| ${WORDS.map((word, index) => `Column ${index + 1}`).join(' | ')} |`,
  `| ${WORDS.map(() => '-').join(' | ')} |`,
  ...[0, 1, 2].map((row) => `| ${WORDS.map((word, index) => `${WORDS[(index + row) % WORDS.length]} and ${word}`).join(' | ')} |`),
].join('\n');
const LONG_CODE = "const settings = { configuration: 'initialization', responsibilities: 'internationalization', synchronization: true };";
const TABLE_ANSWER = `Here is how the modules compare.\n\n${TABLE}\n\nAnd in code:\n\n\`\`\`ts\n${LONG_CODE}\n\`\`\`\n\nThat is all.\n`;

const CONFLICT_PATH = 'src/features/conflicts/conf.ts';
const CONF = ['export const one = 1;', 'export const two = 2;', 'export const three = 3;', ''].join('\n');
const CONF_PATCH = `Conflict ahead.
*** Begin Patch
*** Update File: ${CONFLICT_PATH}
@@
 export const one = 1;
-export const two = 2;
+export const two = 22; // the model's choice, a line long enough to wrap in a narrow pane
 export const three = 3;
*** End Patch
`;
const USERS_SAVE = CONF.replace('two = 2;', 'two = 200; // typed in my editor while Flint was writing its hunk');
const LONG_PATH = 'src/a-folder-with-a-rather-long-name/and-another-one-below-it/and-a-third-one-deeper-still/the-file-you-are-looking-for.ts';

/**
 * A page-side function from its source (the tests' tsconfig has no DOM types): Playwright
 * sends a function's source to the page, and this one's source is `source` itself.
 */
const onPage = <T>(source: string) => new Function(`return (${source});`)() as (element: unknown) => T;

/**
 * Page-side source: the words (runs of non-space in one
 * text node) under an element that the browser laid out over more than one line, i.e.
 * broke inside.
 */
const BROKEN_WORDS = `(element) => {
  const broken = [];
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}`;

/** Page-side source: whether the first and the last character of an element's <bdi> text are inside its box (a start-cut shows only the last). */
const ENDS_SHOWN = `(element) => {
  const box = element.getBoundingClientRect();
  const text = element.querySelector('bdi').firstChild;
  const inside = (at) => {
    const range = document.createRange();
    range.setStart(text, at);
    range.setEnd(text, at + 1);
    const rect = range.getBoundingClientRect();
    return rect.left >= box.left - 0.5 && rect.right <= box.right + 0.5;
  };
  return { first: inside(0), last: inside(text.textContent.length - 1) };
}`;

describe('narrow windows in Chromium (serve shell, simulator)', () => {
  let flint: FlintOnSim;
  let page: Page;

  const bar = (): Locator => page.locator('footer.status-bar');
  const scope = (): Locator => page.locator('.edit-pane .ask-scope');
  const table = (): Locator => page.locator('.edit-pane .md-table');
  const card = (): Locator => page.getByRole('article', { name: /^Hunk 1 in src\/features\/conflicts\/conf\.ts/ });
  const shoot = async (name: string): Promise<void> => {
    await mkdir(E2E_OUTPUT, { recursive: true });
    await page.screenshot({ path: join(E2E_OUTPUT, `narrow-${name}.png`) });
  };
  const expectNoSeriousViolations = async (): Promise<void> => {
    expect(describeViolations(await seriousViolations(page))).toEqual([]);
  };
  const resize = async (size: { width: number; height: number }): Promise<void> => {
    await page.setViewportSize(size);
    await eventually(() => bar().evaluate((footer) => footer.getBoundingClientRect().width), (width) => width === size.width, `the layout at ${size.width} px`);
  };

  /** The status bar shows its items on one row, nothing cut off at its end. */
  const expectStatusBarOnOneLine = async (): Promise<void> => {
    const layout = await bar().evaluate((footer) => {
      // Items folded away are 1 px boxes kept for assistive technology: not on show.
      const shown = [...footer.children].map((item) => item.getBoundingClientRect()).filter((box) => box.width > 1);
      return {
        overflows: footer.scrollWidth > footer.clientWidth || footer.scrollHeight > footer.clientHeight,
        height: footer.getBoundingClientRect().height,
        tallest: Math.max(...shown.map((box) => box.height)),
        sharedRow: Math.min(...shown.map((box) => box.bottom)) - Math.max(...shown.map((box) => box.top)),
        count: shown.length,
      };
    });
    expect(layout.count).toBeGreaterThanOrEqual(2);
    expect(layout.overflows).toBe(false);
    // One row: every item overlaps every other vertically, and the bar is not two items tall.
    expect(layout.sharedRow).toBeGreaterThan(0);
    expect(layout.height).toBeLessThan(2 * layout.tallest);
  };

  /** The element shows its whole text: nothing clipped sideways or below. */
  const isUncut = (locator: Locator): Promise<boolean> => locator.evaluate((element) => element.scrollWidth <= element.clientWidth && element.scrollHeight <= element.clientHeight);

  const isCutAtStart = (locator: Locator) => locator.evaluate(onPage<{ first: boolean; last: boolean }>(ENDS_SHOWN));

  beforeAll(async () => {
    flint = await flintOnSim({
      name: 'narrow',
      files: { [CONFLICT_PATH]: CONF, [LONG_PATH]: 'export const found = true;\n' },
      rules: [
        { match: { inputIncludes: 'case-table' }, answer: { text: TABLE_ANSWER } },
        { match: { inputIncludes: 'case-conflict' }, answer: { text: CONF_PATCH } },
      ],
    });
    page = flint.page;
    page.setDefaultTimeout(10_000);
    await page.getByRole('button', { name: /^Model connection: Model ready/ }).waitFor();
  });

  afterAll(() => flint?.close());

  it('the toggle for what the ignore rules hide is named for it: Show ignored files', async () => {
    await page.getByRole('checkbox', { name: 'Show ignored files' }).waitFor();
    expect(await page.getByText('Show hidden files').count()).toBe(0);
  });

  it('with no current file the pane’s head shows its whole message at 800, 1280 and 1600 px', async () => {
    for (const size of [SIZES[0], { width: 1280, height: 800 }, SIZES[1]]) {
      await resize(size);
      expect(await scope().innerText()).toBe('No current file: save one in your editor, or select one');
      expect(await isUncut(scope()), `the message at ${size.width} px`).toBe(true);
      await expectStatusBarOnOneLine();
    }
  });

  it('a wide Markdown table scrolls in its own box, from the keyboard too, and breaks no word, at both sizes; a long code line scrolls in its block', async () => {
    await askFlint(page, 'case-table please', { fresh: true });
    await eventually(() => page.getByLabel('Edit status').textContent(), (status) => status === 'Answer complete', 'the answer to end');
    await page.keyboard.press('Escape');
    await eventually(() => page.getByRole('dialog', { name: 'Ask Flint' }).isVisible(), (visible) => !visible, 'the bar to close');
    const region = page.getByRole('region', { name: 'Table: Column 1, Column 2, Column 3…' });
    for (const size of SIZES) {
      await resize(size);
      expect(await region.evaluate((box) => box.scrollWidth > box.clientWidth), `the table wider than its box at ${size.width} px`).toBe(true);
      expect(await table().evaluate((box) => box.getBoundingClientRect().right <= box.closest('.edit-pane')!.getBoundingClientRect().right)).toBe(true);
      expect(await table().evaluate(onPage<string[]>(BROKEN_WORDS))).toEqual([]);
      // Cells did wrap (between words): the check above had lines to look at.
      const [header, cell] = await Promise.all([table().locator('th').first().boundingBox(), table().locator('td').first().boundingBox()]);
      expect(cell!.height).toBeGreaterThan(1.5 * header!.height);
      await region.evaluate((box) => box.scrollTo({ left: 0 }));
      await region.focus();
      await page.keyboard.press('ArrowRight');
      // Scrolled, and done scrolling (the key's scroll is animated): the same place two frames running.
      const settledLeft = () =>
        region.evaluate(
          (box) =>
            new Promise<number>((resolve) => {
              const frame = box.ownerDocument.defaultView!;
              frame.requestAnimationFrame(() => {
                const left = box.scrollLeft;
                frame.requestAnimationFrame(() => resolve(box.scrollLeft === left ? left : -1));
              });
            }),
        );
      await eventually(settledLeft, (left) => left > 0, 'the table scrolled by the arrow key');
      // Back to its start for the screenshot.
      await region.evaluate((box) => box.scrollTo({ left: 0, behavior: 'instant' }));
      await eventually(settledLeft, (left) => left === 0, 'the table back at its start');
      // The code block's long line scrolls in its own box too (axe checks that it can take focus).
      expect(await page.getByRole('region', { name: 'Code, ts' }).evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
      await expectStatusBarOnOneLine();
      await expectNoSeriousViolations();
      await shoot(`table-${size.width}`);
    }
  });

  it('the status bar folds its least important items first, and keeps them for assistive technology', async () => {
    await resize(SIZES[1]);
    const latency = page.getByLabel('Latency');
    const detailWidth = () => latency.locator('.status-latency-detail').evaluate((detail) => detail.getBoundingClientRect().width);
    expect(await detailWidth()).toBeGreaterThan(1);
    expect(await bar().getAttribute('data-collapse')).toBe('');
    await resize(SIZES[0]);
    // Folded: a 1 px box on screen, its words still in the page for a screen reader.
    await eventually(detailWidth, (width) => width <= 1, 'the latency details folded at 800 px');
    expect(await latency.textContent()).toMatch(/^Flint \d+\.\d ms · first token \d+ ms · .* · total \d+ ms$/);
    expect(await bar().getAttribute('data-collapse')).toMatch(/^latency-detail/);
    expect(await page.getByRole('button', { name: /^Model connection: Model ready/ }).isVisible()).toBe(true);
    await expectStatusBarOnOneLine();
  });

  it('a conflict at 800 px shows the hunk and the user’s text one above the other, lines wrapped between words', async () => {
    await resize(SIZES[0]);
    await flint.openFile(CONFLICT_PATH);
    await askFlint(page, 'case-conflict please', { fresh: true });
    await eventually(() => card().getByLabel('Hunk state').textContent(), (state) => state === 'Ready', 'the hunk ready');
    await page.keyboard.press('Escape');
    await eventually(() => page.getByRole('dialog', { name: 'Ask Flint' }).isVisible(), (visible) => !visible, 'the bar to close');
    await writeFile(join(flint.project, CONFLICT_PATH), USERS_SAVE);
    await eventually(() => card().getByLabel('Hunk state').textContent(), (state) => state === 'Conflict', 'a conflict');
    const theirs = card().getByLabel('Your text now');
    await eventually(() => theirs.textContent().catch(() => ''), (text) => text?.includes('typed in my editor') ?? false, 'the user’s save in the card');
    for (const size of SIZES) {
      await resize(size);
      const hunk = (await card().locator('.hunk-body').boundingBox())!;
      const mine = (await theirs.boundingBox())!;
      expect(mine.y, `stacked at ${size.width} px`).toBeGreaterThanOrEqual(hunk.y + hunk.height - 1);
      expect(await card().evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
      expect(await card().evaluate(onPage<string[]>(BROKEN_WORDS))).toEqual([]);
      // The long lines did wrap: the check above had wrapped lines to look at.
      const rowHeights = await card().locator('.hunk-row').evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect().height));
      expect(Math.max(...rowHeights)).toBeGreaterThan(1.5 * Math.min(...rowHeights));
      expect(await isUncut(scope()), `the pane's head at ${size.width} px`).toBe(true);
      expect(await isUncut(page.getByLabel('Current file')), `the status bar's path at ${size.width} px`).toBe(true);
      await expectStatusBarOnOneLine();
      await expectNoSeriousViolations();
      await shoot(`conflict-${size.width}`);
    }
  });

  it('a long path is cut at its start, keeping the file’s name, in the pane’s head and the status bar at 800 px', async () => {
    await resize(SIZES[0]);
    await flint.openFile(LONG_PATH);
    expect(await isCutAtStart(scope())).toEqual({ first: false, last: true });
    expect(await isCutAtStart(page.getByLabel('Current file'))).toEqual({ first: false, last: true });
    // The path gave way before the connection's word did.
    expect(await page.locator('.status-connection-label').evaluate((label) => label.getBoundingClientRect().width)).toBeGreaterThan(1);
    expect(await scope().getAttribute('title')).toBe(LONG_PATH);
    await expectStatusBarOnOneLine();
    await shoot('long-path-800');
    // Below 800 px (Electron's window goes down to 640) the bar still keeps to one line.
    await resize({ width: 640, height: 600 });
    await expectStatusBarOnOneLine();
    expect(await isCutAtStart(page.getByLabel('Current file'))).toEqual({ first: false, last: true });
    expect(await isUncut(page.locator('.edit-pane .ask-box'))).toBe(true);
    await shoot('long-path-640');
  });

  it('ran without console errors or CSP violations', () => {
    expect(flint.errors).toEqual([]);
  });
});
