/**
 * The pane's tok/s, end to end: a model that takes its time to start, then streams. While it
 * streams the pane shows main's estimate ("≈ N tok/s"); once the answer ends, the figure
 * the latency HUD shows — the same number, not one of its own. (The rate itself is tested
 * on an injected clock in src/main/ask/output-meter.test.ts; nothing here reads a clock.)
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { askFlint, eventually } from '../helpers/chromium';
import { E2E_OUTPUT, flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';

const ANSWER = `${Array.from({ length: 40 }, (_, index) => `Point ${index + 1} about the code.`).join('\n')}\n`;

describe('the model’s output rate in the pane', () => {
  let flint: FlintOnSim;
  let page: Page;
  const rate = () => page.locator('.edit-session-bar .review-rate').innerText().catch(() => '');

  beforeAll(async () => {
    flint = await flintOnSim({
      name: 'output-rate',
      files: { 'src/app.ts': 'export const app = 1;\n' },
      rules: [{ match: { inputIncludes: 'walk me through' }, answer: { text: ANSWER } }],
      // A second before the first token, then about three seconds of output.
      sim: { ttftMs: 1000, tokensPerSecond: 80, chunkTokens: 1 },
    });
    page = flint.page;
    page.setDefaultTimeout(10_000);
    await flint.openFile('src/app.ts');
  });

  afterAll(async () => {
    await flint?.close();
  });

  it('shows the model’s estimated rate while the answer streams, and the HUD’s measured figure once it ends', async () => {
    await askFlint(page, 'walk me through this file', { fresh: true });
    await eventually(rate, (text) => /^≈ \d+ tok\/s$/.test(text), 'the estimate while streaming');
    await page.screenshot({ path: join(E2E_OUTPUT, 'output-rate-streaming.png') });
    await eventually(() => page.getByLabel('Edit status').innerText(), (text) => text === 'Answer complete', 'the end of the answer');
    const measured = await eventually(rate, (text) => /^\d[\d,]* tok\/s$/.test(text), 'the measured figure');
    // The figures come after the answer's last batch (and render at a lower priority): waited for, not read at once.
    await eventually(() => page.getByLabel('Latency').innerText(), (text) => text.includes(` · ${measured} · `), 'the HUD’s figures of this request');
  });
});
