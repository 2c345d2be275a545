/**
 * Sizes a property test: a bounded number of seeded trials in `npm test` (CI), the full
 * number in `npm run soak` (which sets FLINT_SOAK=1).
 *
 * FLINT_SEED replays one run from a failing seed that a test printed.
 */
// Read through globalThis: renderer tests are compiled without Node's types.
const environment = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};

export const isSoak = environment.FLINT_SOAK === '1';

/** `ci` trials normally, `soak` trials under `npm run soak`. */
export function trialCount(ci: number, soak: number): number {
  return isSoak ? soak : ci;
}

/** The first seed of a run: FLINT_SEED if given, else `fallback` (fixed, so CI is deterministic). */
export function baseSeed(fallback: number): number {
  const fromEnvironment = Number(environment.FLINT_SEED);
  return Number.isInteger(fromEnvironment) && environment.FLINT_SEED !== '' && environment.FLINT_SEED !== undefined ? fromEnvironment : fallback;
}
