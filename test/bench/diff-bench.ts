/**
 * Flint's edit pipeline against a whole-file streaming line diff (Continue's streamDiff,
 * in ./stream-diff-baseline), on the same change (`--only=diff`).
 *
 * Flint: the V4A answer fed in ~16-character deltas to EditStreamParser, each hunk
 * anchored as it completes (one AnchorableFile for the file), the new file built from
 * the anchored hunks. Baseline: the whole new file's lines fed through streamDiff against
 * the old lines, the new file taken from its same and new lines. Both results are
 * checked against the expected file; Flint's must equal it.
 */
import { performance } from 'node:perf_hooks';
import { AnchorableFile, anchorHunk, type AnchorResult } from '../../src/shared/edits/anchor-hunk';
import { EditStreamParser } from '../../src/shared/edits/edit-stream-parser';
import type { HunkLine } from '../../src/shared/edits/edit-types';
import { buildWorkload, type DiffWorkload, type WorkloadSpec } from './diff-workloads';
import { median, round } from './statistics';
import { checkDistance } from './stream-diff-baseline/levenshtein';
import { streamDiff } from './stream-diff-baseline/stream-diff';

export interface DiffFigures {
  /** The smallest streamDiff time / Flint time across the workloads. */
  diff_speedup_min: number;
}

const WORKLOADS: readonly WorkloadSpec[] = [
  { name: '300 lines, 3 hunks', lines: 300, hunks: 3, kind: 'edit' },
  { name: '2,000 lines, 20 hunks', lines: 2_000, hunks: 20, kind: 'edit' },
  { name: '10,000 lines, added lines repeat the file', lines: 10_000, hunks: 20, kind: 'repeat' },
  { name: '10,000 lines, 100 scattered hunks', lines: 10_000, hunks: 100, kind: 'edit' },
];

/** Untimed runs first, so both sides are measured compiled. */
const WARM_UP_RUNS = 3;
/** Per workload and side: at least this many timed runs (after the warm-up)… */
const MIN_RUNS = 5;
/** …and more, up to MAX_RUNS, while the side has taken less than this. */
const RUN_BUDGET_MS = 1_500;
const MAX_RUNS = 50;

type Anchored = Extract<AnchorResult, { status: 'anchored' }>;

export async function measureDiff(log: (line: string) => void): Promise<DiffFigures> {
  log("Comparing Flint's pipeline with Continue's streamDiff (whole-file line diff)…");
  checkDistance();
  const ratios: number[] = [];
  for (const spec of WORKLOADS) {
    const workload = buildWorkload(spec);
    const flint = await timeRuns(async () => checkFlint(workload, flintRun(workload)));
    let baselineDiff = { removed: 0, added: 0, exact: true };
    const baseline = await timeRuns(async () => (baselineDiff = await baselineRun(workload)));
    const ratio = baseline / flint;
    ratios.push(ratio);
    const note = baseline > 5 && ratio < 2 ? ' (below the 2× wanted where the baseline takes > 5 ms)' : '';
    log(
      `  ${workload.name}: Flint ${round(flint, 2)} ms, streamDiff ${round(baseline, 2)} ms → ${round(ratio, 2)}×${note}; ` +
        `true change −${workload.removed} +${workload.added}, streamDiff's −${baselineDiff.removed} +${baselineDiff.added}` +
        (baselineDiff.exact ? '' : ", and streamDiff's result is NOT the new file"),
    );
  }
  return { diff_speedup_min: round(Math.min(...ratios), 2) };
}

/** Median milliseconds of `run`, after the warm-up runs. */
async function timeRuns(run: () => Promise<unknown>): Promise<number> {
  for (let warmUp = 0; warmUp < WARM_UP_RUNS; warmUp += 1) await run();
  const times: number[] = [];
  let spent = 0;
  while (times.length < MIN_RUNS || (spent < RUN_BUDGET_MS && times.length < MAX_RUNS)) {
    const started = performance.now();
    await run();
    const elapsed = performance.now() - started;
    times.push(elapsed);
    spent += elapsed;
  }
  return median(times);
}

/** Parse + anchor each hunk as it completes + build the new file. */
function flintRun(workload: DiffWorkload): string[] {
  const file = new AnchorableFile(workload.oldLines);
  const anchored: Anchored[] = [];
  let hunk: { lines: HunkLine[]; contextHints: string[]; atEndOfFile: boolean } = { lines: [], contextHints: [], atEndOfFile: false };
  const parser = new EditStreamParser((event) => {
    switch (event.type) {
      case 'hunk-open':
        hunk = { lines: [], contextHints: event.contextHints, atEndOfFile: false };
        return;
      case 'hunk-hints':
        hunk.contextHints = event.contextHints;
        return;
      case 'hunk-line':
        hunk.lines.push(event.line);
        return;
      case 'hunk-at-end':
        hunk.atEndOfFile = true;
        return;
      case 'hunk-complete': {
        const result = anchorHunk(file, hunk);
        if (result.status !== 'anchored') throw new Error(`${workload.name}: hunk ${event.hunkIndex} is ${result.reason}`);
        anchored.push(result);
        return;
      }
      default:
        return;
    }
  });
  for (const delta of workload.deltas) parser.push(delta);
  parser.finish(false);
  return applied(workload.oldLines, anchored);
}

/** The file with every anchored hunk's lines in place (hunks do not overlap). */
function applied(lines: readonly string[], anchored: Anchored[]): string[] {
  const sorted = [...anchored].sort((a, b) => a.start - b.start);
  const out: string[] = [];
  let copied = 0;
  for (const hunk of sorted) {
    for (let index = copied; index < hunk.start; index += 1) out.push(lines[index]!);
    for (const line of hunk.replacement) out.push(line);
    copied = hunk.end;
  }
  for (let index = copied; index < lines.length; index += 1) out.push(lines[index]!);
  return out;
}

function checkFlint(workload: DiffWorkload, lines: readonly string[]): void {
  if (!sameLines(lines, workload.newLines)) throw new Error(`${workload.name}: Flint's result is not the expected file`);
}

/** The whole new file through streamDiff; how many lines its diff removes and adds, and whether it rebuilds the new file. */
async function baselineRun(workload: DiffWorkload): Promise<{ removed: number; added: number; exact: boolean }> {
  async function* rewritten(): AsyncGenerator<string> {
    for (const line of workload.newLines) yield line;
  }
  const result: string[] = [];
  let removed = 0;
  let added = 0;
  for await (const line of streamDiff(workload.oldLines, rewritten())) {
    if (line.type === 'old') removed += 1;
    else result.push(line.line);
    if (line.type === 'new') added += 1;
  }
  return { removed, added, exact: sameLines(result, workload.newLines) };
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, index) => line === b[index]);
}
