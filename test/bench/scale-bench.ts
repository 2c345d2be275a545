/**
 * Edits at scale, through the real thing (a Conversation on an EditService, real files,
 * journal and guarded writes): Accept all of many hunks in a large file, the heap an
 * edit keeps while it is pending, and the longest task while a 5 MB line streams
 * (`--only=scale`).
 *
 * Each Accept-all case runs in its own process (scale-case.ts, `node --expose-gc
 * --import tsx`): a fresh heap for the heap figure, and a process to kill when a case
 * runs past its limit (then its figure is a lower bound, and says so). Environment:
 * FLINT_BENCH_ACCEPT_LIMIT_MS (default 30000) raises the limit;
 * FLINT_BENCH_CPU_PROF=folder writes a CPU profile of each case's Accept all there.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { AcceptReport, HeapReport } from './scale-case';
import { benchWorkspace, COMPLETED, DrivenSession, nextTask } from './session-driver';
import { round } from './statistics';

export interface ScaleFigures {
  /** Accept all of 50 pending one-line hunks in a 100,000-line file (ms). */
  accept_all_100k_ms: number;
  /** Accept all of 1,000 pending one-line hunks in a 40,000-line file (ms). */
  accept_all_1000_hunks_ms: number;
  /** Heap kept once all hunks are pending, the worse case of the two above (MB). */
  edit_heap_kept_mb: number;
  /** That heap over the file's size in bytes. */
  edit_heap_kept_ratio: number;
  /** The longest task while one 5 MB line streams in small deltas (ms). */
  long_line_max_delta_ms: number;
}

const CASE_SCRIPT = fileURLToPath(new URL('./scale-case.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Streaming the patch until every hunk is pending: a limit only against a hang. */
const STREAM_LIMIT_MS = 300_000;
const ACCEPT_LIMIT_MS = Number(process.env.FLINT_BENCH_ACCEPT_LIMIT_MS ?? 30_000);
const LONG_LINE_CHARS = 5 * 1024 * 1024;
const LONG_LINE_DELTA = 16;

export async function measureScale(log: (line: string) => void): Promise<ScaleFigures> {
  log('Accept all through a Conversation + EditService (each case in its own node --expose-gc)…');
  const large = await runCase(100_000, 50, log);
  const many = await runCase(40_000, 1_000, log);
  const worse = [large, many].sort((a, b) => b.heap.keptBytes / b.heap.fileBytes - a.heap.keptBytes / a.heap.fileBytes)[0]!;
  log(`Streaming one ${LONG_LINE_CHARS / 1024 / 1024} MB line in ${LONG_LINE_DELTA}-character deltas (each its own task)…`);
  const added = await longLine('add');
  const updated = await longLine('update');
  log(`  as an Add File section: longest task ${round(added.longest)} ms (${added.where}); as an update hunk's + line: ${round(updated.longest)} ms (${updated.where})`);
  return {
    accept_all_100k_ms: round(large.acceptMs),
    accept_all_1000_hunks_ms: round(many.acceptMs),
    edit_heap_kept_mb: round(worse.heap.keptBytes / 1024 / 1024),
    edit_heap_kept_ratio: round(worse.heap.keptBytes / worse.heap.fileBytes, 2),
    long_line_max_delta_ms: round(Math.max(added.longest, updated.longest)),
  };
}

interface CaseResult {
  heap: HeapReport;
  /** Measured, or a lower bound when the case was stopped at its limit. */
  acceptMs: number;
}

/** Runs scale-case.ts for one size; logs what it reports. */
async function runCase(lines: number, hunks: number, log: (line: string) => void): Promise<CaseResult> {
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', CASE_SCRIPT, String(lines), String(hunks)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const label = `${hunks.toLocaleString('en')} hunks in ${lines.toLocaleString('en')} lines`;
  let heap: HeapReport | null = null;
  let accept: AcceptReport | null = null;
  let heapAt = 0;
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    let newline: number;
    while ((newline = stdout.indexOf('\n')) !== -1) {
      const line = stdout.slice(0, newline);
      stdout = stdout.slice(newline + 1);
      // Reports are JSON objects; anything else on stdout is not ours to read.
      if (!line.startsWith('{')) continue;
      const report = JSON.parse(line) as HeapReport | AcceptReport;
      if (report.kind === 'heap') [heap, heapAt] = [report, performance.now()];
      else accept = report;
    }
  });
  const started = performance.now();
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stopped = false;
  const timer = setInterval(() => {
    const now = performance.now();
    if (heap ? now - heapAt > ACCEPT_LIMIT_MS : now - started > STREAM_LIMIT_MS) {
      stopped = true;
      child.kill('SIGKILL');
    }
  }, 100);
  const code = await exited;
  clearInterval(timer);
  const reportedHeap = heap as HeapReport | null;
  const reportedAccept = accept as AcceptReport | null;
  if (!reportedHeap) throw new Error(`${label}: ${stopped ? 'streaming did not finish in time' : `the case failed (exit ${code})`}\n${stderr}`);
  if (!stopped && (!reportedAccept || code !== 0)) throw new Error(`${label}: the case failed (exit ${code})\n${stderr}`);
  const acceptMs = reportedAccept?.acceptMs ?? performance.now() - heapAt;
  log(
    `  ${label}: streamed to all pending in ${round(reportedHeap.streamMs)} ms; heap kept ${round(reportedHeap.keptBytes / 1024 / 1024)} MB ` +
      `for a ${round(reportedHeap.fileBytes / 1024 / 1024, 2)} MB file (${round(reportedHeap.keptBytes / reportedHeap.fileBytes, 1)}×); ` +
      (reportedAccept ? `Accept all ${round(acceptMs)} ms` : `Accept all did not finish within ${ACCEPT_LIMIT_MS} ms: the figure is a lower bound`),
  );
  return { heap: reportedHeap, acceptMs };
}

/**
 * The longest task while one 5 MB line streams as model output, through a real session
 * and board: each delta is its own task, timed with everything it queued (a
 * setImmediate after it), as are the end of the stream and the turns until the hunk is
 * pending. `kind`: the line as an Add File section, or as an update hunk's `+` line.
 */
async function longLine(kind: 'add' | 'update'): Promise<{ longest: number; where: string }> {
  const workspace = await benchWorkspace('flint-bench-long-line-');
  const unit = 'var a=1;function f(b){return b+a}';
  const line = unit.repeat(Math.ceil(LONG_LINE_CHARS / unit.length)).slice(0, LONG_LINE_CHARS);
  const answer =
    kind === 'add'
      ? `Adding the bundle.\n*** Begin Patch\n*** Add File: bundle.min.js\n+${line}\n*** End Patch\n`
      : `Adding the bundle inline.\n*** Begin Patch\n*** Update File: small.ts\n@@\n one\n+${line}\n two\n*** End Patch\n`;
  await writeFile(join(workspace.project, 'small.ts'), 'one\ntwo\nthree\n');
  const driven = await DrivenSession.open(workspace.project, workspace.journals, ['small.ts']);
  const longest = { longest: 0, where: '' };
  const task = async (where: string, work: () => void): Promise<void> => {
    const started = performance.now();
    work();
    await nextTask();
    const elapsed = performance.now() - started;
    if (elapsed > longest.longest) Object.assign(longest, { longest: elapsed, where });
  };
  try {
    const deltas = Math.ceil(answer.length / LONG_LINE_DELTA);
    for (let delta = 0; delta < deltas; delta += 1) {
      const offset = delta * LONG_LINE_DELTA;
      await task(`delta ${delta + 1} of ${deltas}`, () => driven.sink.onDelta(answer.slice(offset, offset + LONG_LINE_DELTA)));
    }
    await task('the end of the stream', () => driven.sink.onEnd(COMPLETED));
    const deadline = performance.now() + 60_000;
    for (let turn = 1; driven.count('pending') !== 1; turn += 1) {
      if (performance.now() > deadline) throw new Error(`the 5 MB line (${kind}) never became a pending hunk`);
      await task(`turn ${turn} after the end`, () => driven.session.flush());
    }
  } finally {
    await driven.dispose();
    await workspace.remove();
  }
  return longest;
}
