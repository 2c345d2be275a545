/**
 * Debian's Chromium driven by playwright-core: never a downloaded browser.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.FLINT_CHROMIUM ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<BrowserContext> {
  const profile = await mkdtemp(join(tmpdir(), 'flint-chromium-'));
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Polls `read` until `check` passes; the last failure explains a timeout. */
export async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    last = await read();
    if (check(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Timed out waiting for ${what}; last value: ${JSON.stringify(last)}`);
}

/**
 * A browser on Flint's page, collecting console errors and page errors (CSP violations show
 * up there), and the channel of every request the page sends (see `requestsBefore`).
 */
export async function openFlintPage(url: string): Promise<{ browser: BrowserContext; page: Page; errors: string[]; requests: string[] }> {
  const browser = await launchChromium();
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  const requests = recordRequests(page);
  await page.goto(url);
  return { browser, page, errors, requests };
}

/** The contract channel of each request frame (`{ id, channel, input }`, one-way ones without the id) the page sends over the serve shell's sockets, in order. */
function recordRequests(page: Page): string[] {
  const channels: string[] = [];
  page.on('websocket', (socket) =>
    socket.on('framesent', ({ payload }) => {
      try {
        const channel = (JSON.parse(String(payload)) as { channel?: unknown }).channel;
        if (typeof channel === 'string') channels.push(channel);
      } catch {
        // Not a request frame.
      }
    }),
  );
  return channels;
}

/**
 * The requests the page sent from `requests[mark]` on, up to its last `marker` request,
 * once a marker has gone out.
 *
 * The page sends its requests in order, so a later action's request proves that whatever a
 * key pressed before it asked of main went out already: "the key asked nothing" is then
 * decided by what was sent, not by how long the test waited for it.
 */
export async function requestsBefore(requests: readonly string[], mark: number, marker: string): Promise<string[]> {
  const sent = await eventually(async () => requests.slice(mark), (since) => since.includes(marker), `a ${marker} request from the page`);
  return sent.slice(0, sent.lastIndexOf(marker));
}

/**
 * Opens the ask bar with the in-app shortcut (the default Ctrl+Shift+Space) and asks. In a
 * bar still showing its answer Enter follows it up; `fresh` closes the bar first, so the
 * question starts a new conversation, as one asked from a new opening does — and waits
 * until that conversation replaced the one on screen: until then the pane still shows the
 * previous one, whose cards and "Answer complete" must not be read as the new answer's
 * (an Esc sent on that reading stops the new answer instead of closing the bar).
 */
export async function askFlint(page: Page, text: string, options: { deep?: boolean; fresh?: boolean } = {}): Promise<void> {
  const bar = page.getByRole('dialog', { name: 'Ask Flint' });
  const input = bar.getByRole('textbox', { name: 'Ask Flint' });
  const shown = options.fresh ? await sessionOnScreen(page) : null;
  if (options.fresh && (await input.isVisible())) await bar.getByRole('button', { name: 'Close the ask bar' }).click();
  if (!(await input.isVisible())) await page.keyboard.press('Control+Shift+Space');
  await input.fill(text);
  await input.press(options.deep ? 'Alt+Enter' : 'Enter');
  if (options.fresh) await eventually(() => sessionOnScreen(page), (id) => id !== null && id !== shown, 'the new conversation on screen');
}

/** The id of the conversation the diff pane shows, or null. */
async function sessionOnScreen(page: Page): Promise<string | null> {
  const session = page.locator('.edit-session');
  return (await session.count()) === 0 ? null : session.getAttribute('data-session');
}
