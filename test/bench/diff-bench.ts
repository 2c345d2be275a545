/**
 * Flint's per-token path in main against a whole-file streaming line diff (Continue's
 * streamDiff, in ./stream-diff-baseline), on the same change (`--only=diff`).
 *
 * Flint: the V4A answer fed in deltas of ~4 and ~16 characters through a real Conversation
 * — parser, HunkBoard (anchoring, the line-in-progress previews), UpdateBatcher, one batch
 * per frame (see per-token-run.ts) — until every hunk is settled and sent. Baseline: the
 * whole new file's lines fed through streamDiff against the old lines, the new file taken
 * from its same and new lines. The runs of the three are interleaved (each round runs each
 * once), so a busy moment of the machine falls on all of them. Flint's result is checked
 * (its hunks, as the renderer receives them, make the expected file); streamDiff's is told.
 *
 * The goal (DESIGN.md): never slower than streamDiff, and ≥ 2× where it needs > 5 ms, judged
 * on each side's fastest run (what it needs: a busy machine only adds to it); the ratio of
 * the medians is told beside. Each workload's line says how many hunk updates Flint built,
 * against the updates the answer needs without previews or batching (one per hunk opened,
 * line and hunk settled), and how many went out (with a preview of the line in progress)
 * in how many batches.
 */
import { performance } from 'node:perf_hooks';
import { buildWorkload, deltasOf, type DiffWorkload, type WorkloadSpec } from './diff-workloads';
import { appliedFile, fileTextOf, neededUpdates, perTokenRun, type Received, type UpdateCounts } from './per-token-run';
import { median, round } from './statistics';
import { checkDistance } from './stream-diff-baseline/levenshtein';
import { streamDiff } from './stream-diff-baseline/stream-diff';

export interface DiffFigures {
  /** The smallest streamDiff time / Flint time (fastest runs) across the workloads and delta sizes. */
  diff_speedup_min: number;
  /** How many workloads miss the goal (≥ 2× where streamDiff takes > 5 ms, never slower). */
  diff_goal_misses: number;
}

const WORKLOADS: readonly WorkloadSpec[] = [
  { name: 'w1: 300 lines, 3 hunks', lines: 300, hunks: 3, kind: 'edit' },
  { name: 'w2: 2,000 lines, 20 hunks', lines: 2_000, hunks: 20, kind: 'edit' },
  { name: 'w2-rep: 2,000 lines, 20 hunks adding 51 lines, 50 repeating the file', lines: 2_000, hunks: 20, kind: 'repeat' },
  { name: 'w3: 10,000 lines, 100 scattered hunks', lines: 10_000, hunks: 100, kind: 'edit' },
  { name: 'w3-rep: 10,000 lines, 20 hunks adding 51 lines, 50 repeating the file', lines: 10_000, hunks: 20, kind: 'repeat' },
  { name: 'real-m: @codemirror/language (2,516 lines), a feature: 10 hunks changing, adding, removing lines', lines: 2_516, hunks: 10, kind: 'feature', source: 'node_modules/@codemirror/language/dist/index.js' },
  { name: 'real-l: @codemirror/view (11,975 lines), a refactor: 30 hunks changing or removing lines', lines: 11_975, hunks: 30, kind: 'refactor', source: 'node_modules/@codemirror/view/dist/index.js' },
];

/** Delta sizes Flint is fed: a token (~4 characters), and a provider sending a few at once. */
const DELTA_SIZES = [4, 16] as const;
/** Baseline time past which Flint must be 2× faster (below it: never slower). */
const GOAL_THRESHOLD_MS = 5;
/**
 * Untimed rounds first, so every side is measured compiled, as in the app where the path is
 * hot after an answer or two: WARM_UP_ROUNDS, or fewer once they took WARM_UP_MS.
 */
const WARM_UP_ROUNDS = 30;
const WARM_UP_MS = 1_500;
/** At least this many timed rounds… */
const MIN_ROUNDS = 7;
/** …and more, up to MAX_ROUNDS, while the workload has taken less than this. */
const ROUND_BUDGET_MS = 3_000;
const MAX_ROUNDS = 400;

interface Side {
  label: string;
  run: () => Promise<unknown>;
  times: number[];
}

export async function measureDiff(log: (line: string) => void): Promise<DiffFigures> {
  log("Comparing Flint's per-token path in main (parse → board → batch) with Continue's streamDiff (whole-file line diff)…");
  checkDistance();
  const ratios: number[] = [];
  const misses: string[] = [];
  for (const spec of WORKLOADS) {
    const workload = buildWorkload(spec);
    const text = fileTextOf(workload.oldLines);
    const needed = neededUpdates(workload.answer);
    const counts = new Map<number, UpdateCounts>();
    for (const size of DELTA_SIZES) counts.set(size, await checkFlint(workload, deltasOf(workload.answer, size)));
    let baselineDiff = { removed: 0, added: 0, exact: true };
    const sides: Side[] = [
      { label: 'streamDiff', run: async () => (baselineDiff = await baselineRun(workload)), times: [] },
      ...DELTA_SIZES.map((size) => {
        const deltas = deltasOf(workload.answer, size);
        return { label: `${size}`, run: () => perTokenRun(workload, text, deltas), times: [] };
      }),
    ];
    await interleave(sides);
    const [baseline, ...flint] = sides.map(timesOf);
    const parts = flint.map((times, index) => {
      const size = DELTA_SIZES[index]!;
      const { ratio, miss, words } = verdict(baseline!, times);
      ratios.push(ratio);
      if (miss) misses.push(`${workload.name.split(':')[0]} (${size}-character deltas: ${round(ratio, 2)}×)`);
      const { built, sent, batches, previews } = counts.get(size)!;
      return `${size}-char deltas ${words} (hunk updates: ${built} built for ${needed} needed; ${sent} sent, ${previews} with a preview, in ${batches} batches)`;
    });
    log(`  ${workload.name}: streamDiff ${round(baseline!.fastest, 2)} ms (median ${round(baseline!.median, 2)}); Flint ${parts.join('; ')}`);
    log(
      `    true change −${workload.removed} +${workload.added}, streamDiff's −${baselineDiff.removed} +${baselineDiff.added}` +
        (baselineDiff.exact ? '' : ", and streamDiff's result is NOT the new file"),
    );
  }
  log(misses.length === 0 ? `  Every workload holds: ≥ 2× where streamDiff takes > ${GOAL_THRESHOLD_MS} ms, never slower.` : `  MISSING the goal (≥ 2× where streamDiff takes > ${GOAL_THRESHOLD_MS} ms, never slower): ${misses.join(', ')}`);
  return { diff_speedup_min: round(Math.min(...ratios), 2), diff_goal_misses: misses.length };
}

interface Times {
  fastest: number;
  median: number;
}

function timesOf(side: Side): Times {
  return { fastest: Math.min(...side.times), median: median(side.times) };
}

/**
 * Flint against streamDiff on their fastest runs — what each needs; a busy machine only adds
 * to it, and on a shared one the medians of even interleaved runs swing by half — the ratio
 * of medians said beside it.
 */
function verdict(baseline: Times, flint: Times): { ratio: number; miss: boolean; words: string } {
  const ratio = baseline.fastest / flint.fastest;
  const miss = ratio < 1 || (baseline.fastest > GOAL_THRESHOLD_MS && ratio < 2);
  const words = `${round(flint.fastest, 2)} ms → ${round(ratio, 2)}×${miss ? ' MISS' : ''} (medians ${round(flint.median, 2)} ms, ${round(baseline.median / flint.median, 2)}×)`;
  return { ratio, miss, words };
}

/** Runs every side once per round (rotating which goes first), warm-up rounds untimed. */
async function interleave(sides: Side[]): Promise<void> {
  let warming = 0;
  let warmedUp = 0;
  let spent = 0;
  for (let round = 0; sides[0]!.times.length < MAX_ROUNDS; round += 1) {
    const timed = warmedUp >= WARM_UP_ROUNDS || (warmedUp > 0 && warming >= WARM_UP_MS);
    if (timed && sides[0]!.times.length >= MIN_ROUNDS && spent >= ROUND_BUDGET_MS) return;
    for (let turn = 0; turn < sides.length; turn += 1) {
      const side = sides[(round + turn) % sides.length]!;
      const started = performance.now();
      await side.run();
      const elapsed = performance.now() - started;
      if (!timed) {
        warming += elapsed;
        continue;
      }
      side.times.push(elapsed);
      spent += elapsed;
    }
    if (!timed) warmedUp += 1;
  }
}

/** One untimed run that keeps what the renderer receives: its hunks must make the expected file. */
async function checkFlint(workload: DiffWorkload, deltas: readonly string[]): Promise<UpdateCounts> {
  const receive = new Map<string, Received>();
  const counts = await perTokenRun(workload, fileTextOf(workload.oldLines), deltas, receive);
  if (!sameLines(appliedFile(workload.oldLines, receive.values()), workload.newLines)) {
    throw new Error(`${workload.name}: Flint's result (${deltas[0]!.length}-character deltas) is not the expected file`);
  }
  return counts;
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
