/**
 * Sizes a property test: a bounded number of seeded trials in `npm test` (CI), the full
 * number in `npm run soak` (which sets FLINT_SOAK=1).
 *
 * FLINT_SEED replays one run from a failing seed that a test printed.
 */
export const isSoak = process.env.FLINT_SOAK === '1';

/** `ci` trials normally, `soak` trials under `npm run soak`. */
export function trialCount(ci: number, soak: number): number {
  return isSoak ? soak : ci;
}

/** The first seed of a run: FLINT_SEED if given, else `fallback` (fixed, so CI is deterministic). */
export function baseSeed(fallback: number): number {
  const fromEnvironment = Number(process.env.FLINT_SEED);
  return Number.isInteger(fromEnvironment) && process.env.FLINT_SEED !== '' && process.env.FLINT_SEED !== undefined ? fromEnvironment : fallback;
}
