/**
 * Counts work, so that tests prove an algorithm linear by counting, never by a clock.
 *
 * Code that promises time linear in its input reports what it does with `countWork`:
 * characters scanned, elements compared, lines visited. A test measures the units of a
 * run on an input and on one 16 times larger (`measureWork`); linear work grows 16-fold,
 * quadratic work 256-fold — on any machine, loaded or not.
 *
 * The cost model, so that a regression shows in the count:
 * - a loop of Flint's own counts its iterations, inner loops included (summed in a local
 *   and reported once per call, not per step);
 * - a built-in that scans (trim, slice, indexOf of a character, a join) counts the
 *   characters or elements it is given;
 * - a built-in substring search (`includes`, `indexOf` of a string) counts text × pattern,
 *   its worst case in V8 — so only a bounded pattern keeps it linear;
 * - a regex test counts its subject's length: that holds only for regexes a static
 *   analysis finds linear, which `test/integration/regex-complexity.test.ts` checks for
 *   every regex in src/.
 *
 * In production no meter runs: `countWork` compares one module variable with null.
 */

let meter: { units: number } | null = null;

/** Reports `units` of work done (see the cost model above). */
export function countWork(units: number): void {
  if (meter !== null) meter.units += units;
}

/**
 * The units counted while `run` runs (awaited if it returns a promise). Test-only: one
 * measure at a time, and nothing else may run meanwhile that counts.
 */
export async function measureWork(run: () => unknown): Promise<number> {
  if (meter !== null) throw new Error('measureWork: a measure is already running');
  const measuring = { units: 0 };
  meter = measuring;
  try {
    await run();
    return measuring.units;
  } finally {
    meter = null;
  }
}
