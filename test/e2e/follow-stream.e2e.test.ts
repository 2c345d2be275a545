/**
 * Views follow the stream (issue 22 part 5), end to end in Chromium: the ask bar's answer
 * and the pane stick to the newest text while a long answer streams; scrolled up with the
 * wheel, each stays where the user put it and offers "New text below"; activating it (a
 * click in the pane, the keyboard in the bar) returns to the bottom and following resumes;
 * a queued message and a follow-up sent while scrolled up are brought into view.
 *
 * Nothing here reads a clock: each step waits for the scroll positions, the growth of the
 * content and the events (scrollend) that prove it.
 */
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { askFlint, eventually } from '../helpers/chromium';
import { E2E_OUTPUT, flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';

/** Far longer than the test (over two minutes at this pace): it is stopped with Esc once the queued message is in. */
const LONG = `${Array.from({ length: 1000 }, (_, index) => `Step ${index + 1}: the answer keeps going, so the view has to keep up with it.`).join('\n\n')}\n`;
/** Page-side: notes (window.flintSawControl) whether a "New text below" control ever shows in the pane from now on. */
const SAW_CONTROL = `window.flintSawControl = false;
new MutationObserver((records) => {
  if (records.some((record) => [...record.addedNodes].some((node) => node instanceof Element && node.matches('.edit-session .new-text-below')))) window.flintSawControl = true;
}).observe(document.body, { childList: true, subtree: true });`;
/** Page-side source (not a function: the test runner's helpers must not reach the page). */
const FOCUSED_LABEL = `document.activeElement?.getAttribute('aria-label')`;
/** How much the content must grow for a step to count as "while it streamed". */
const GROWTH = 300;
const STREAM_WAIT = 30_000;
/** A file of constants, and a patch changing MANY_HUNKS of them, each its own hunk with a few added lines. */
const MANY_HUNKS = 80;
const MANY_FILE = Array.from({ length: MANY_HUNKS * 10 }, (_, index) => `export const value${index} = ${index};`).join('\n') + '\n';
const MANY_PATCH = `Changing them.\n*** Begin Patch\n*** Update File: src/many.ts\n${Array.from({ length: MANY_HUNKS }, (_, hunk) => {
  const at = hunk * 10 + 5;
  const added = Array.from({ length: 4 }, (_, line) => `+export const added${hunk}_${line} = ${line};`).join('\n');
  return `@@\n export const value${at - 1} = ${at - 1};\n-export const value${at} = ${at};\n${added}\n export const value${at + 1} = ${at + 1};`;
}).join('\n')}\n*** End Patch\n`;
/** The pane's newest text: its last turn (its status line included). */
const PANE_LAST = 'section.turn';
/** The bar's newest text: its last turn. */
const BAR_LAST = '.ask-bar-turn';

interface Box {
  top: number;
  height: number;
  viewport: number;
}

const fromBottom = (box: Box): number => box.height - box.top - box.viewport;

describe('views follow the stream (Chromium, serve shell, simulator)', () => {
  let flint: FlintOnSim;
  let page: Page;

  const bar = (): Locator => page.getByRole('dialog', { name: 'Ask Flint' });
  const input = (): Locator => bar().getByRole('textbox', { name: 'Ask Flint' });
  const barView = (): Locator => bar().locator('.ask-bar-answer');
  const paneView = (): Locator => page.locator('.edit-session');
  const barControl = (): Locator => bar().getByRole('button', { name: 'New text below' });
  const paneControl = (): Locator => paneView().getByRole('button', { name: 'New text below' });
  const boxOf = (view: Locator): Promise<Box> => view.evaluate((element) => ({ top: element.scrollTop, height: element.scrollHeight, viewport: element.clientHeight }));
  const shoot = (name: string) => page.screenshot({ path: join(E2E_OUTPUT, `follow-stream-${name}.png`) });

  /** The newest text's end (the end of the last element matching `last`) shows in the view: how far above the view's bottom, negative if below it. */
  const newestEnd = (view: Locator, last: string): Promise<number> =>
    view.evaluate((element, selector) => {
      const items = element.querySelectorAll(selector);
      const newest = items[items.length - 1];
      return newest ? element.getBoundingClientRect().bottom - newest.getBoundingClientRect().bottom : Number.NaN;
    }, last);

  /**
   * The view's content grows by GROWTH px, and the view is at its bottom then: it follows.
   * Both views keep room below their text (follow-room.ts): their newest text (`last`, the
   * last turn) must also be in sight, anywhere in the view, as the room fills.
   */
  const followsGrowth = async (view: Locator, what: string, last?: string): Promise<void> => {
    const start = await boxOf(view);
    await eventually(() => boxOf(view), (box) => box.height > start.height + GROWTH && fromBottom(box) <= 2, `${what} to grow and be at its bottom`, STREAM_WAIT);
    if (last === undefined) return;
    // Read between frames, text that came after the last one is not placed yet: seen once placed.
    const viewport = (await boxOf(view)).viewport;
    await eventually(() => newestEnd(view, last), (end) => end >= -1 && end <= viewport, `${what}: the newest text in sight`);
  };

  /** Scrolls the view up with the mouse wheel over it, and waits for the scroll to end (smooth or not); returns where it ended. */
  const wheelUp = async (view: Locator, pixels: number): Promise<Box> => {
    const before = await boxOf(view);
    await view.evaluate((element, from) => {
      element.removeAttribute('data-wheeled');
      element.addEventListener('scrollend', function ended() {
        if (element.scrollTop > from - 50) return;
        element.setAttribute('data-wheeled', 'ended');
        element.removeEventListener('scrollend', ended);
      });
    }, before.top);
    await view.hover({ position: { x: 40, y: 80 } });
    await page.mouse.wheel(0, -pixels);
    await eventually(() => view.getAttribute('data-wheeled'), (value) => value === 'ended', 'the wheel’s scroll to end');
    return boxOf(view);
  };

  /** The view stays where the user put it (`at`) while the content grows by GROWTH px below. */
  const staysPut = async (view: Locator, at: Box, what: string): Promise<void> => {
    const grown = await eventually(() => boxOf(view), (box) => box.height > at.height + GROWTH, `${what} to grow`, STREAM_WAIT);
    expect(Math.abs(grown.top - at.top), `${what} stays where the user put it`).toBeLessThanOrEqual(1);
  };

  /**
   * The element matched by `selector` in the view is on screen in it, and the view is at its
   * bottom — or, given `newest` (a view keeps room below its text, follow-room.ts, and may
   * stand a little above its very bottom), its newest text is in sight instead.
   */
  const inViewAtBottom = async (view: Locator, selector: string, what: string, newest?: string): Promise<void> => {
    const seen = () =>
      view.evaluate(
        (element, [target, last]) => {
          const item = element.querySelector(target!);
          if (!item) return { shown: false, atBottom: false };
          const outer = element.getBoundingClientRect();
          const inner = item.getBoundingClientRect();
          const lasts = last ? element.querySelectorAll(last) : [];
          const newestBottom = lasts.length > 0 ? lasts[lasts.length - 1]!.getBoundingClientRect().bottom : Number.NaN;
          const atBottom = last ? newestBottom <= outer.bottom + 1 && newestBottom >= outer.top : element.scrollHeight - element.scrollTop - element.clientHeight <= 2;
          return { shown: inner.top >= outer.top - 1 && inner.top < outer.bottom - 8, atBottom };
        },
        [selector, newest] as const,
      );
    await eventually(seen, (state) => state.shown && state.atBottom, `${what} in view at the bottom`, STREAM_WAIT);
  };

  beforeAll(async () => {
    flint = await flintOnSim({
      name: 'follow-stream',
      files: { 'src/app.ts': 'export const app = 1;\n', 'src/many.ts': MANY_FILE },
      rules: [
        { match: { inputIncludes: 'change every constant' }, answer: { text: MANY_PATCH }, tokensPerSecond: 1500 },
        // Follow-ups carry the earlier turns, so the newest words are matched first.
        { match: { inputIncludes: 'one more thing' }, answer: { text: 'One more thing, answered briefly.\n' } },
        { match: { inputIncludes: 'walk me through everything' }, answer: { text: LONG }, tokensPerSecond: 120 },
      ],
      sim: { ttftMs: 20, tokensPerSecond: 2000, chunkTokens: 2 },
    });
    page = flint.page;
    page.setDefaultTimeout(10_000);
    await flint.openFile('src/app.ts');
  });

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') await shoot(`failed-${context.task.name.slice(0, 24).replace(/\W+/g, '-')}`).catch(() => undefined);
  });

  afterAll(async () => {
    await flint?.close();
  });

  it('sticks to the newest text in the bar and the pane while a long answer streams', async () => {
    await askFlint(page, 'walk me through everything', { fresh: true });
    // Overflowing both views by a screen and more, each at its bottom.
    await eventually(() => boxOf(paneView()), (box) => box.height > box.viewport + 600, 'the pane to overflow', STREAM_WAIT);
    await eventually(() => boxOf(barView()), (box) => box.height > box.viewport + 600, 'the bar to overflow', STREAM_WAIT);
    await followsGrowth(paneView(), 'the pane', PANE_LAST);
    await followsGrowth(barView(), 'the bar', BAR_LAST);
    expect(await paneControl().count()).toBe(0);
    expect(await barControl().count()).toBe(0);
    await shoot('following');
  }, 60_000);

  it('stays where the user scrolled to, and offers "New text below"', async () => {
    const pane = await wheelUp(paneView(), 600);
    expect(fromBottom(pane)).toBeGreaterThan(300);
    await staysPut(paneView(), pane, 'the pane');
    await eventually(() => paneControl().isVisible(), (shown) => shown, 'the pane’s New text below');

    const answer = await wheelUp(barView(), 400);
    expect(fromBottom(answer)).toBeGreaterThan(200);
    await staysPut(barView(), answer, 'the bar');
    await eventually(() => barControl().isVisible(), (shown) => shown, 'the bar’s New text below');
    // The pane kept its place meanwhile.
    expect(Math.abs((await boxOf(paneView())).top - pane.top)).toBeLessThanOrEqual(1);
    await shoot('new-text-below');
  }, 60_000);

  it('returns to the bottom and follows again on "New text below" (a click; Enter from the keyboard)', async () => {
    await paneControl().click();
    await eventually(() => paneControl().count(), (count) => count === 0, 'the pane’s control to go');
    await followsGrowth(paneView(), 'the pane', PANE_LAST);

    await barControl().focus();
    await page.keyboard.press('Enter');
    await eventually(() => barControl().count(), (count) => count === 0, 'the bar’s control to go');
    await followsGrowth(barView(), 'the bar', BAR_LAST);
    // Focus went back to the question, so the user can type on.
    await eventually(() => page.evaluate<string | undefined>(FOCUSED_LABEL), (label) => label === 'Ask Flint', 'focus back in the input');
  }, 60_000);

  it('brings a message queued while scrolled up into view, and keeps it there as the answer above grows', async () => {
    await wheelUp(paneView(), 600);
    await wheelUp(barView(), 400);
    await input().fill('and then add a summary');
    await input().press('Tab');
    await inViewAtBottom(paneView(), 'section[data-turn="2"] .turn-words', 'the queued message in the pane', PANE_LAST);
    await inViewAtBottom(barView(), '.ask-bar-turn.is-queued', 'the queued message in the bar', BAR_LAST);
    // Turn 1 still streams above it: the views follow, the queued message stays in sight.
    await followsGrowth(paneView(), 'the pane', PANE_LAST);
    await inViewAtBottom(paneView(), 'section[data-turn="2"] .turn-words', 'the queued message in the pane', PANE_LAST);
    await shoot('queued');
  }, 60_000);

  it('brings a follow-up sent while scrolled up into view', async () => {
    // Stop: the queued message is not sent (its answer was stopped), and nothing streams.
    await input().press('Escape');
    await eventually(() => barView().getAttribute('aria-busy'), (busy) => busy === 'false', 'the stop');
    const pane = await wheelUp(paneView(), 600);
    const answer = await wheelUp(barView(), 400);
    expect(fromBottom(pane)).toBeGreaterThan(300);
    expect(fromBottom(answer)).toBeGreaterThan(200);
    expect(await paneControl().count()).toBe(0);

    await askFlint(page, 'one more thing');
    await eventually(() => page.locator('section[data-turn="3"] .edit-prose').innerText().catch(() => ''), (text) => text.includes('One more thing, answered'), 'the follow-up’s answer', STREAM_WAIT);
    await inViewAtBottom(paneView(), 'section[data-turn="3"]', 'the follow-up in the pane', PANE_LAST);
    await inViewAtBottom(barView(), 'div.ask-bar-turn:last-of-type', 'the follow-up in the bar', BAR_LAST);
    expect(await barView().locator('.ask-bar-turn').last().innerText()).toContain('One more thing, answered');
    await shoot('follow-up');
  }, 60_000);

  it('keeps following a stream of hunks whose cards fold as they complete (the pane’s text shrinks under the view)', async () => {
    await page.keyboard.press('Escape');
    // Watched throughout, not only at the end: a misread that the next growth undid would leave no trace there.
    await page.evaluate(SAW_CONTROL);
    await askFlint(page, 'change every constant', { fresh: true });
    // Each hunk's card folds to its header once it is drawn in the file: the text shrinks while it grows.
    await eventually(() => page.locator('.hunk-card.is-folded').count(), (count) => count >= 60, 'sixty folded cards', STREAM_WAIT);
    await eventually(() => page.getByLabel('Edit status').innerText(), (status) => status === 'Answer complete', 'the answer to complete', STREAM_WAIT);
    expect(await page.evaluate('window.flintSawControl'), 'no "New text below", ever: the pane never read its own moves as the user’s').toBe(false);
    expect(await paneControl().count()).toBe(0);
    await inViewAtBottom(paneView(), `.hunk-card[data-hunk-number="${MANY_HUNKS}"]`, 'the last hunk', PANE_LAST);
    await shoot('hunks');
  }, 60_000);

  it('ran without console errors', () => {
    expect(flint.errors).toEqual([]);
  });
});
