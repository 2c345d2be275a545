/**
 * The live diff's figures: the main-process pipeline's throughput, and in Chromium
 * (serve shell + simulator process) frame rate, first-hunk paint and the Spark edit.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Page } from 'playwright-core';
import { EditApplier } from '../../src/main/edits/edit-applier';
import { ProjectFiles } from '../../src/main/fs/project-files';
import { conversationFor, startTurn } from '../helpers/conversations';
import { HunkBoard } from '../../src/main/edits/hunk-board';
import { decodeFileText } from '../../src/main/fs/file-text';
import { UndoJournal } from '../../src/main/edits/undo-journal';
import type { StreamSink } from '../../src/main/inference/model-stream';
import { createMemoryLogger } from '../../src/main/logger';
import { askFlint, eventually, openFlintPage } from '../helpers/chromium';
import { acknowledgements, ChromiumCpuMeter } from './browser-cpu';
import { ANSWER_COMPLETE, CLEAR_EDIT_MARKS, READ_EDIT_MARK, START_FRAME_PROBE, START_PAINT_FLOOR_PROBE, STOP_FRAME_PROBE, STOP_PAINT_FLOOR_PROBE } from './browser-probes';
import { simulatorServeEnv, startServeProcess } from '../helpers/serve-process';
import { startSimProcess } from '../helpers/sim-process';
import { simulatedTokens } from '../sim/sim-script';
import { median, percentile, round } from './statistics';

export interface EditFigures {
  pipeline_tok_s: number;
  render_fps_1000: number;
  render_longest_task_ms: number;
  first_hunk_paint_p95_ms: number;
  first_hunk_dom_p95_ms: number;
  paint_floor_p95_ms: number;
  /** first_hunk_paint_p95_ms − paint_floor_p95_ms, both from the same stream. */
  first_hunk_paint_over_floor_p95_ms: number;
  spark_edit_ms: number;
  adversarial_block_ms_per_mb: number;
  /** The renderer's CPU per 1,000 tokens of the 1,000 tok/s stream (browser-cpu.ts). */
  renderer_cpu_ms_per_1k_tok_edits: number;
}

const BIG_FILE = Array.from({ length: 2000 }, (_, index) => `export const value${index} = ${index}; // line ${index + 1}`).join('\n') + '\n';
const SMALL_FILE = ['export function greet(name: string): string {', "  return 'Hello, ' + name;", '}', '', 'export function farewell(name: string): string {', "  return 'Bye, ' + name;", '}', ''].join('\n');

/** A V4A patch of `count` hunks spread over the big file. */
function bigPatch(count: number, linesPerHunk: number): string {
  const hunks: string[] = [];
  const stride = Math.floor(2000 / count);
  for (let hunk = 0; hunk < count; hunk += 1) {
    const at = hunk * stride + 1;
    const added = Array.from({ length: linesPerHunk }, (_, index) => `+export const added${hunk}_${index} = ${hunk * 100 + index}; // inserted by the model`);
    hunks.push(`@@\n export const value${at - 1} = ${at - 1}; // line ${at}\n-export const value${at} = ${at}; // line ${at + 1}\n${added.join('\n')}\n export const value${at + 1} = ${at + 1}; // line ${at + 2}`);
  }
  return `Updating the constants.\n*** Begin Patch\n*** Update File: src/big.ts\n${hunks.join('\n')}\n*** End Patch\n`;
}

const SPARK_PATCH = `Greeting with a comma and a full stop now.
*** Begin Patch
*** Update File: src/small.ts
@@ export function greet
-  return 'Hello, ' + name;
+  const trimmed = name.trim();
+  return \`Hello, \${trimmed}.\`;
@@ export function farewell
-  return 'Bye, ' + name;
+  const trimmed = name.trim();
+  return \`Goodbye, \${trimmed}.\`;
*** End Patch
`;

export async function measureEdits(log: (line: string) => void): Promise<EditFigures> {
  log('Measuring the edit pipeline in main (parse + anchor + diff)…');
  const pipeline = await measurePipeline();
  log('Streaming adversarial model output (long runs of whitespace, *, quotes, colons) through main…');
  const adversarial = await measureAdversarialBlock();
  log('Streaming edits into Chromium through the serve shell…');
  const browser = await measureBrowser(log);
  return { pipeline_tok_s: pipeline, adversarial_block_ms_per_mb: adversarial, ...browser };
}

/** Tokens per second that parse + anchor + hunk updates sustain, fed as fast as the CPU allows. */
async function measurePipeline(): Promise<number> {
  const answer = bigPatch(20, 3);
  const tokens = simulatedTokens(answer);
  const folder = await mkdtemp(join(tmpdir(), 'flint-bench-pipeline-'));
  const file = decodeFileText(new TextEncoder().encode(BIG_FILE), 'src/big.ts');
  const rates: number[] = [];
  try {
    for (let run = 0; run < 7; run += 1) {
      let sink: StreamSink | null = null;
      let pending = 0;
      const applier = new EditApplier(new ProjectFiles(folder), await UndoJournal.open(join(folder, `journal-${run}.jsonl`)));
      const session = conversationFor({
        id: `bench-${run}`,
        openBoard: (report) => new HunkBoard({ applier, readText: async () => file, report, logger: createMemoryLogger() }),
        emit: (update) => {
          pending += update.hunks.filter((hunk) => hunk.state === 'pending').length;
        },
        focus: { focus: 'whole-file' },
        openStream: async (_prompt, streamSink) => {
          sink = streamSink;
          return { cancel: () => undefined, done: new Promise(() => undefined) };
        },
      });
      await startTurn(session, { instructions: '', input: 'bench' }, new Map([['src/big.ts', file]]));
      const started = performance.now();
      for (const token of tokens) sink!.onDelta(token);
      sink!.onEnd({ outcome: 'completed', latency: { keypressToWriteMs: 0, requestToFirstDeltaMs: 0, tokensPerSecond: 0, totalMs: 0, outputTokens: 0, model: 'bench' } });
      // Anchoring settles in microtasks; the last batch is flushed by hand.
      await new Promise((resolve) => setImmediate(resolve));
      session.flush();
      const elapsed = (performance.now() - started) / 1000;
      if (pending < 20) throw new Error(`only ${pending} of 20 hunks anchored`);
      rates.push(tokens.length / elapsed);
      session.dispose();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
  return Math.round(median(rates));
}

/**
 * The longest main-thread block per MB of adversarial model output (budget 50 ms/MB).
 *
 * 200 KB runs of whitespace, `*`, backticks, quotes and colons in prose, a header path,
 * an `@@` hint and hunk lines, against a file with such lines, streamed in 16-character
 * deltas through a real edit session: each delta is its own task, as from the socket, and
 * a block is a delta's task with everything it queued (parsing, settling, the batch).
 */
async function measureAdversarialBlock(): Promise<number> {
  const run = (character: string) => character.repeat(200_000);
  const path = `src/long.ts`;
  const file = decodeFileText(new TextEncoder().encode(`a\n${run('*')}:\n${run(' ')}x\n${run('"')}\nb  \n`), path);
  const prose = [`a${run('*')}a`, `${run('`')}${path}${run(':')}`, `'${run("'")}x`];
  const patch = [`*** Update File: ${path}${run(' ')}`, `@@ ${run(' ')}x`, ` ${run(' ')}x${run(' ')}`, ` ${run('"')}`, '-b', '+c', '*** End Patch'];
  const answer = `${[...prose, '*** Begin Patch', ...patch].join('\n')}\n`;
  const folder = await mkdtemp(join(tmpdir(), 'flint-bench-adversarial-'));
  let sink: StreamSink | null = null;
  let anchored = false;
  const applier = new EditApplier(new ProjectFiles(folder), await UndoJournal.open(join(folder, 'journal.jsonl')));
  const session = conversationFor({
    id: 'bench-adversarial',
    openBoard: (report) => new HunkBoard({ applier, readText: async () => file, report, logger: createMemoryLogger() }),
    emit: (update) => {
      anchored ||= update.hunks.some((hunk) => hunk.state === 'pending');
    },
    focus: { focus: 'whole-file' },
    openStream: async (_prompt, streamSink) => {
      sink = streamSink;
      return { cancel: () => undefined, done: new Promise(() => undefined) };
    },
  });
  let longest = 0;
  try {
    await startTurn(session, { instructions: '', input: 'bench' }, new Map([[path, file]]));
    for (let offset = 0; offset < answer.length; offset += 16) {
      const started = performance.now();
      sink!.onDelta(answer.slice(offset, offset + 16));
      await new Promise((resolve) => setImmediate(resolve));
      longest = Math.max(longest, performance.now() - started);
    }
    sink!.onEnd({ outcome: 'completed', latency: { keypressToWriteMs: 0, requestToFirstDeltaMs: 0, tokensPerSecond: 0, totalMs: 0, outputTokens: 0, model: 'bench' } });
    await new Promise((resolve) => setImmediate(resolve));
    session.flush();
    if (!anchored) throw new Error('the adversarial hunk did not anchor');
  } finally {
    session.dispose();
    await rm(folder, { recursive: true, force: true });
  }
  return round(longest / (answer.length / (1024 * 1024)));
}

async function measureBrowser(log: (line: string) => void): Promise<Omit<EditFigures, 'pipeline_tok_s' | 'adversarial_block_ms_per_mb'>> {
  const workspace = await mkdtemp(join(tmpdir(), 'flint-bench-edits-'));
  const project = join(workspace, 'project');
  await mkdir(join(project, 'src'), { recursive: true });
  await writeFile(join(project, 'src', 'big.ts'), BIG_FILE);
  await writeFile(join(project, 'src', 'small.ts'), SMALL_FILE);
  // ~10 s of tokens at 1,000 tok/s.
  let renderPatch = bigPatch(100, 6);
  while (simulatedTokens(renderPatch).length < 10_000) renderPatch = bigPatch(100, Math.ceil(6 * 10_000 / simulatedTokens(renderPatch).length));
  await writeFile(
    join(workspace, 'script.json'),
    JSON.stringify({
      rules: [
        { match: { inputIncludes: 'render benchmark' }, answer: { text: renderPatch }, tokensPerSecond: 1000, ttftMs: 120 },
        { match: { inputIncludes: 'spark benchmark' }, answer: { text: SPARK_PATCH }, tokensPerSecond: 1000, ttftMs: 120 },
      ],
    }),
  );
  const sim = await startSimProcess(['--script', join(workspace, 'script.json'), '--chunk-tokens', '4', '--api-key', 'sk-bench']);
  const serve = await startServeProcess([project], simulatorServeEnv(join(workspace, 'config'), sim.baseUrl, 'sk-bench'));
  const { browser, page, requests } = await openFlintPage(serve.url);
  try {
    const meter = await ChromiumCpuMeter.open(browser);
    await eventually(() => page.getByLabel('Model connection').innerText(), (text) => text.includes('ready'), 'a warm connection', 20_000);
    await select(page, 'big.ts');
    // Let the file view finish its first parse of the 2,000-line file: streaming is measured, not opening.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    log('  10 s of edits at 1,000 tok/s…');
    await page.evaluate(START_FRAME_PROBE);
    // The floor is sampled while the hunks stream: the same page, frames and load.
    await page.evaluate(START_PAINT_FLOOR_PROBE);
    const renderStarted = performance.now();
    const acksBefore = acknowledgements(requests);
    const { cpu } = await meter.perThousandTokens(simulatedTokens(renderPatch).length, async () => {
      await ask(page, 'render benchmark');
      // A CSS query, not getByLabel: Playwright's accessible-name engine over a growing DOM
      // would itself cause the long tasks being measured.
      await eventually(() => page.evaluate(ANSWER_COMPLETE) as Promise<boolean>, (done) => done, 'the long answer', 60_000);
    });
    const seconds = (performance.now() - renderStarted) / 1000;
    const render = (await page.evaluate(STOP_FRAME_PROBE)) as { frames: number; longest: number; paints: number[]; received: number[]; dom: number[] };
    const floor = (await page.evaluate(STOP_PAINT_FLOOR_PROBE)) as { latencies: number[]; unobserved: number };
    if (floor.latencies.length === 0) throw new Error(`the paint floor probe saw none of its ${floor.unobserved} elements painted`);
    const p = (values: number[]) => `min ${round(Math.min(...values))}, p50 ${round(median(values))}, p95 ${round(percentile(values, 0.95))} ms`;
    log(`  a hunk from its first byte in main (${render.paints.length} hunks): → renderer ${p(render.received)}; → in the DOM ${p(render.dom)}; → painted ${p(render.paints)}`);
    log(`  the floor, a one-element change on the same page while they streamed → painted (${floor.latencies.length}, ${floor.unobserved} unobserved): ${p(floor.latencies)}`);
    log(`  Chromium's CPU per 1,000 tokens: ${round(cpu.rendererMs)} ms in the renderer, ${round(cpu.totalMs)} ms in all its processes; ${acknowledgements(requests) - acksBefore} batches`);
    await page.getByRole('button', { name: 'Reject all' }).click();

    log('  the simulated Spark edit, 10 times…');
    await select(page, 'small.ts');
    const spark: number[] = [];
    for (let run = 0; run < 10; run += 1) {
      await page.evaluate(CLEAR_EDIT_MARKS);
      await ask(page, `spark benchmark ${run}`);
      const latency = await eventually(
        () => page.evaluate(READ_EDIT_MARK) as Promise<number | undefined>,
        (value) => value !== undefined,
        'the final diff to paint',
        20_000,
      );
      spark.push(latency!);
      await page.getByRole('button', { name: 'Reject all' }).click();
    }
    log(`  spark edit: median ${round(median(spark))} ms, p95 ${round(percentile(spark, 0.95))} ms`);
    return {
      render_fps_1000: round(render.frames / seconds),
      render_longest_task_ms: round(render.longest),
      first_hunk_paint_p95_ms: round(percentile(render.paints, 0.95)),
      first_hunk_dom_p95_ms: round(percentile(render.dom, 0.95)),
      paint_floor_p95_ms: round(percentile(floor.latencies, 0.95)),
      first_hunk_paint_over_floor_p95_ms: round(percentile(render.paints, 0.95) - percentile(floor.latencies, 0.95)),
      spark_edit_ms: round(median(spark)),
      renderer_cpu_ms_per_1k_tok_edits: round(cpu.rendererMs),
    };
  } finally {
    await browser.close();
    await serve.stop();
    await sim.stop();
    await rm(workspace, { recursive: true, force: true });
  }
}

async function select(page: Page, name: string): Promise<void> {
  const tree = page.getByRole('tree', { name: 'Files' });
  if ((await tree.getByRole('treeitem', { name, exact: true }).count()) === 0) await tree.getByRole('treeitem', { name: 'src', exact: true }).click();
  await tree.getByRole('treeitem', { name, exact: true }).click();
  await eventually(() => page.getByLabel('Current file').innerText(), (text) => text.endsWith(name), `${name} to be current`);
}

async function ask(page: Page, prompt: string): Promise<void> {
  // A new conversation each time: a follow-up would carry the earlier turns (and match their rules).
  await askFlint(page, prompt, { fresh: true });
}
