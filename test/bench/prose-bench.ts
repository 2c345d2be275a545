/**
 * Prose live to the last token (`--only=prose`): from the moment the simulator writes a
 * delta to its socket to the moment its characters are in the page's DOM and painted, at
 * 25 tokens/s (a slow model: every delta alone) and 1,000 tokens/s; then a 4,000 tokens/s
 * answer (Spark's bursts) of prose and a patch, for the frame rate.
 *
 * Every word of the answer is unique (`q` and three base-36 digits: one simulated token), so
 * the page knows which delta a character came in. The simulator runs in this process and
 * stamps each delta as it writes it; the page stamps each word when it enters the DOM (a
 * MutationObserver) and when that frame has been painted (the next animation frame, then a
 * task after it). Both stamps are epoch ms (performance.timeOrigin + now) on one machine.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { askFlint, eventually, openFlintPage } from '../helpers/chromium';
import { simulatorServeEnv, startServeProcess } from '../helpers/serve-process';
import { SimScriptSchema, simulatedTokens } from '../sim/sim-script';
import { startSimulator } from '../sim/simulator';
import { acknowledgements, ChromiumCpuMeter } from './browser-cpu';
import { ANSWER_COMPLETE, START_FRAME_PROBE, STOP_FRAME_PROBE } from './browser-probes';
import { median, percentile, round } from './statistics';

export interface ProseFigures {
  answer_text_lag_25_p95_ms: number;
  answer_text_lag_1000_p95_ms: number;
  /**
   * Delta written → its characters in the DOM: the sockets and Flint's own work. In the DOM
   * means in the hidden span of text arrived since the last frame (TurnProse.tsx), which
   * that frame formats before painting: what the user sees is the lag figure.
   */
  answer_text_dom_25_p95_ms: number;
  answer_text_dom_1000_p95_ms: number;
  /** In the DOM → painted: within a frame. */
  answer_text_paint_after_dom_p95_ms: number;
  render_fps_4000: number;
  render_longest_task_4000_ms: number;
  /** The renderer's CPU per 1,000 tokens of the 1,000 tok/s answer (browser-cpu.ts). */
  renderer_cpu_ms_per_1k_tok_prose: number;
}

const WORD = /q[0-9a-z]{3}/g;

/** The answers' words: each one unique. */
const wordOf = (index: number): string => `q${index.toString(36).padStart(3, '0')}`;
const wordsOf = (from: number, count: number): string[] => Array.from({ length: count }, (_, index) => wordOf(from + index));

/** `count` unique words from `from`, 12 to a line, a blank line after every 4 lines (Markdown blocks). */
function proseOf(from: number, count: number): string {
  let text = '';
  for (let index = 0; index < count; index += 1) {
    text += wordOf(from + index);
    const inLine = (index + 1) % 12;
    text += inLine !== 0 ? ' ' : (index + 1) % 48 === 0 ? '\n\n' : '\n';
  }
  return `${text.trimEnd()}\n`;
}

/** The 1,000 tok/s answer. */
const FAST_PROSE = proseOf(1000, 3000);

const FILE = Array.from({ length: 400 }, (_, index) => `export const value${index} = ${index};`).join('\n') + '\n';

/** Prose, a 40-hunk patch of FILE, more prose. */
function burstAnswer(): string {
  const hunks = Array.from({ length: 40 }, (_, hunk) => {
    const at = hunk * 10 + 5;
    return `@@\n export const value${at - 1} = ${at - 1};\n-export const value${at} = ${at};\n+export const value${at} = ${at * 10}; // changed\n+export const extra${hunk} = ${hunk};`;
  });
  return `${proseOf(20_000, 600)}\n*** Begin Patch\n*** Update File: src/file.ts\n${hunks.join('\n')}\n*** End Patch\n\n${proseOf(21_000, 600)}`;
}

/** In the page: every word's first moment in the DOM and the paint after it. */
const START_WORD_PROBE = `(() => {
  const state = { seen: new Map(), waiting: [] , running: true };
  window.benchWords = state;
  const now = () => performance.timeOrigin + performance.now();
  const painted = () => {
    const at = now();
    for (const word of state.waiting) state.seen.get(word).paint = at;
    state.waiting = [];
  };
  const read = (text, at) => {
    for (const word of text.match(/q[0-9a-z]{3}/g) ?? []) {
      if (state.seen.has(word)) continue;
      state.seen.set(word, { dom: at, paint: undefined });
      if (state.waiting.push(word) === 1) requestAnimationFrame(() => setTimeout(painted, 0));
    }
  };
  state.observer = new MutationObserver((records) => {
    if (!state.running) return;
    const at = now();
    for (const record of records) {
      if (record.type === 'characterData') read(record.target.data, at);
      else for (const node of record.addedNodes) read(node.textContent ?? '', at);
    }
  });
  state.observer.observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/** Stops the probe once the frame after its last words is painted (their paint stamps are taken then). */
const STOP_WORD_PROBE = `(async () => {
  const state = window.benchWords;
  state.running = false;
  state.observer.disconnect();
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return [...state.seen].map(([word, at]) => [word, at.dom, at.paint ?? null]);
})()`;

interface Lags {
  dom: number[];
  paint: number[];
  afterDom: number[];
}

export async function measureProse(log: (line: string) => void): Promise<ProseFigures> {
  log('Prose from the socket to the screen…');
  const workspace = await mkdtemp(join(tmpdir(), 'flint-bench-prose-'));
  const project = join(workspace, 'project');
  await mkdir(join(project, 'src'), { recursive: true });
  await writeFile(join(project, 'src', 'file.ts'), FILE);
  const sentAt = new Map<string, number>();
  const sim = await startSimulator({
    apiKey: 'sk-bench',
    chunkTokens: 4,
    onDelta: (text) => {
      const at = performance.timeOrigin + performance.now();
      for (const word of text.match(WORD) ?? []) if (!sentAt.has(word)) sentAt.set(word, at);
    },
    script: SimScriptSchema.parse({
      rules: [
        { match: { inputIncludes: 'prose at 25' }, answer: { text: proseOf(0, 150) }, tokensPerSecond: 25, ttftMs: 120 },
        { match: { inputIncludes: 'prose at 1000' }, answer: { text: FAST_PROSE }, tokensPerSecond: 1000, ttftMs: 120 },
        { match: { inputIncludes: 'burst at 4000' }, answer: { text: burstAnswer() }, tokensPerSecond: 4000, ttftMs: 120 },
      ],
    }),
  });
  const serve = await startServeProcess([project], simulatorServeEnv(join(workspace, 'config'), sim.baseUrl, 'sk-bench'));
  const { browser, page, requests } = await openFlintPage(serve.url);
  try {
    await eventually(() => page.getByLabel('Model connection').innerText(), (text) => text.includes('ready'), 'a warm connection', 20_000);
    const meter = await ChromiumCpuMeter.open(browser);
    const slow = await timedAnswer(page, 'prose at 25', sentAt, 1, wordsOf(0, 150));
    const acksBefore = acknowledgements(requests);
    const { result: fast, cpu } = await meter.perThousandTokens(simulatedTokens(FAST_PROSE).length, () => timedAnswer(page, 'prose at 1000', sentAt, 4, wordsOf(1000, 3000)));
    const batches = acknowledgements(requests) - acksBefore;
    const p = (values: number[]) => `p50 ${round(median(values))}, p95 ${round(percentile(values, 0.95))} ms`;
    for (const [rate, lags] of [['25', slow], ['1,000', fast]] as const) {
      log(`  at ${rate} tok/s (${lags.paint.length} words): delta written → in the DOM ${p(lags.dom)}; → painted ${p(lags.paint)}; DOM → painted ${p(lags.afterDom)}`);
    }
    log(`  Chromium's CPU per 1,000 tokens at 1,000 tok/s: ${round(cpu.rendererMs)} ms in the renderer, ${round(cpu.totalMs)} ms in all its processes; ${batches} batches`);
    await page.evaluate(START_FRAME_PROBE);
    const started = performance.now();
    await askFlint(page, 'burst at 4000', { fresh: true });
    await eventually(() => page.evaluate(ANSWER_COMPLETE) as Promise<boolean>, (done) => done, 'the 4,000 tok/s answer', 60_000);
    const seconds = (performance.now() - started) / 1000;
    const render = (await page.evaluate(STOP_FRAME_PROBE)) as { frames: number; longest: number };
    log(`  4,000 tok/s, prose and 40 hunks: ${round(render.frames / seconds)} fps, longest task ${round(render.longest)} ms`);
    return {
      answer_text_lag_25_p95_ms: round(percentile(slow.paint, 0.95)),
      answer_text_lag_1000_p95_ms: round(percentile(fast.paint, 0.95)),
      answer_text_dom_25_p95_ms: round(percentile(slow.dom, 0.95)),
      answer_text_dom_1000_p95_ms: round(percentile(fast.dom, 0.95)),
      answer_text_paint_after_dom_p95_ms: round(percentile([...slow.afterDom, ...fast.afterDom], 0.95)),
      renderer_cpu_ms_per_1k_tok_prose: round(cpu.rendererMs),
      render_fps_4000: round(render.frames / seconds),
      render_longest_task_4000_ms: round(render.longest),
    };
  } finally {
    await browser.close();
    await serve.stop();
    await sim.close();
    await rm(workspace, { recursive: true, force: true });
  }
}

/** Asks, waits for the answer's end, checks every one of its `words` reached the page, and pairs each word's send with its DOM and paint stamps. */
async function timedAnswer(page: Page, question: string, sentAt: ReadonlyMap<string, number>, chunkTokens: number, words: readonly string[]): Promise<Lags> {
  await page.evaluate(START_WORD_PROBE);
  await askFlint(page, `${question} (${chunkTokens} tokens a delta)`, { fresh: true });
  await eventually(() => page.evaluate(ANSWER_COMPLETE) as Promise<boolean>, (done) => done, `the answer to "${question}"`, 60_000);
  const seen = (await page.evaluate(STOP_WORD_PROBE)) as [string, number, number | null][];
  const shown = new Set(seen.map(([word]) => word));
  const missing = words.filter((word) => !shown.has(word));
  if (missing.length > 0) throw new Error(`${missing.length} words of "${question}" never reached the page: ${missing.slice(0, 10).join(' ')}`);
  const lags: Lags = { dom: [], paint: [], afterDom: [] };
  for (const [word, dom, paint] of seen) {
    const sent = sentAt.get(word);
    if (sent === undefined || paint === null) continue;
    lags.dom.push(dom - sent);
    lags.paint.push(paint - sent);
    lags.afterDom.push(paint - dom);
  }
  if (lags.paint.length === 0) throw new Error(`no word of "${question}" was seen painted`);
  return lags;
}
