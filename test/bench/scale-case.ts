/**
 * One Accept-all case, run in its own process by scale-bench.ts (`node --expose-gc
 * --import tsx test/bench/scale-case.ts LINES HUNKS`): a fresh heap for the heap figure,
 * and a process the bench can kill when the case runs past its time.
 *
 * Streams a V4A patch of HUNKS one-line hunks spread over a LINES-line file through a
 * real Conversation and EditService, then accepts them all. Prints two JSON lines on
 * stdout: the heap kept once every hunk is pending, then the Accept all time (after
 * checking the file on disk holds exactly the expected bytes).
 *
 * With FLINT_BENCH_CPU_PROF=folder, Accept all alone is profiled (100 µs samples) into
 * folder/accept-all-LINES-HUNKS.cpuprofile; the time it reports is then the profiled one.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { benchWorkspace, DrivenSession } from './session-driver';

/** What the case reports once its hunks are pending. */
export interface HeapReport {
  kind: 'heap';
  fileBytes: number;
  keptBytes: number;
  /** Patch streamed → every hunk pending (ms). */
  streamMs: number;
}

/** What the case reports once Accept all is done and checked. */
export interface AcceptReport {
  kind: 'accept';
  acceptMs: number;
}

const PATH = 'src/big.ts';
const DELTA = 64;
const CONTEXT = 3;

const original = (index: number): string => `export const value${index} = ${index};`;
const changed = (index: number): string => `export const value${index} = ${index + 1};`;

/** The file, the model's answer (one-line hunks with 3 lines of context each side) and the file after all are accepted. */
export function acceptAllWorkload(lines: number, hunks: number, path = PATH): { file: string; answer: string; expected: string } {
  const step = Math.floor(lines / hunks);
  if (step < 2 * CONTEXT + 1) throw new Error(`${hunks} hunks do not fit in ${lines} lines with ${CONTEXT} lines of context`);
  const targets = Array.from({ length: hunks }, (_, hunk) => hunk * step + Math.floor(step / 2));
  const sections = targets.map((index) => {
    const before = Array.from({ length: CONTEXT }, (_, offset) => ` ${original(index - CONTEXT + offset)}`);
    const after = Array.from({ length: CONTEXT }, (_, offset) => ` ${original(index + 1 + offset)}`);
    return ['@@', ...before, `-${original(index)}`, `+${changed(index)}`, ...after].join('\n');
  });
  const answer = `Bumping ${hunks} constants.\n*** Begin Patch\n*** Update File: ${path}\n${sections.join('\n')}\n*** End Patch\n`;
  const changedAt = new Set(targets);
  const text = (edited: boolean): string => {
    let out = '';
    for (let index = 0; index < lines; index += 1) out += `${edited && changedAt.has(index) ? changed(index) : original(index)}\n`;
    return out;
  };
  return { file: text(false), answer, expected: text(true) };
}

/**
 * Streams a small edit to pending first: the code it runs is compiled (bytecode lives on
 * the heap too), so the heap figure counts what an edit keeps, not what running once costs.
 */
async function warmUp(project: string, journals: string): Promise<void> {
  const path = 'src/warm-up.ts';
  const workload = acceptAllWorkload(200, 4, path);
  await writeFile(join(project, path), workload.file);
  const driven = await DrivenSession.open(project, journals, [path]);
  driven.sink.onDelta(workload.answer);
  await driven.endAndSettle(4);
  await driven.dispose();
}

/** A full collection, with or without --expose-gc. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  v8.setFlagsFromString('--expose_gc');
  return vm.runInNewContext('gc') as () => void;
}

async function runCase(lines: number, hunks: number): Promise<void> {
  const gc = collector();
  const workload = acceptAllWorkload(lines, hunks);
  const workspace = await benchWorkspace('flint-bench-scale-');
  const emit = (report: HeapReport | AcceptReport): void => void process.stdout.write(`${JSON.stringify(report)}\n`);
  try {
    await mkdir(join(workspace.project, 'src'));
    await writeFile(join(workspace.project, PATH), workload.file);
    const fileBytes = Buffer.byteLength(workload.file);
    await warmUp(workspace.project, workspace.journals);
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    const started = performance.now();
    const driven = await DrivenSession.open(workspace.project, workspace.journals, [PATH]);
    for (let offset = 0; offset < workload.answer.length; offset += DELTA) driven.sink.onDelta(workload.answer.slice(offset, offset + DELTA));
    await driven.endAndSettle(hunks);
    const streamMs = performance.now() - started;
    gc();
    gc();
    emit({ kind: 'heap', fileBytes, keptBytes: process.memoryUsage().heapUsed - before, streamMs });

    const profiler = await startProfiler();
    const acceptStarted = performance.now();
    const accepted = await driven.session.hunks.acceptAll();
    const acceptMs = performance.now() - acceptStarted;
    await profiler?.(`accept-all-${lines}-${hunks}.cpuprofile`);
    if (accepted !== hunks) throw new Error(`Accept all wrote ${accepted} of ${hunks} hunks`);
    const onDisk = await readFile(join(workspace.project, PATH), 'utf8');
    if (onDisk !== workload.expected) throw new Error(`after Accept all, ${PATH} does not hold the expected text (${onDisk.length} vs ${workload.expected.length} characters)`);
    emit({ kind: 'accept', acceptMs });
    await driven.dispose();
  } finally {
    await workspace.remove();
  }
}

/** Starts the CPU profiler when FLINT_BENCH_CPU_PROF names a folder; the function returned stops it and writes the profile there. */
async function startProfiler(): Promise<((name: string) => Promise<void>) | null> {
  const folder = process.env.FLINT_BENCH_CPU_PROF;
  if (!folder) return null;
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  return async (name) => {
    const { profile } = await session.post('Profiler.stop');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, name), JSON.stringify(profile));
    session.disconnect();
  };
}

if (process.argv[1]?.endsWith('scale-case.ts')) {
  const [lines, hunks] = process.argv.slice(2).map(Number);
  runCase(lines!, hunks!).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
