/**
 * How the work of a piece of code grows with its input, counted, never timed.
 *
 * The code under test reports its work (`countWork`, src/shared/work-meter.ts); the count
 * depends on the input only, so the verdict is the same on any machine, idle or loaded.
 * Wall-clock growth ratios of the same cases are reported by `npm run bench -- --only=growth`.
 */
import { measureWork } from '../../src/shared/work-meter';

/**
 * Linear work grows as its input: 1. Quadratic work grows `factor` times faster (16). The
 * bound leaves room for an n log n sort and for constant work that a small input does not
 * amortize, and none for anything quadratic.
 */
export const LINEAR_WORK_BOUND = 1.5;

/**
 * The work of `run(size * factor)` over `factor` times the work of `run(size)`: about 1
 * (or below, when fixed costs weigh on the small run) for linear work, `factor` for
 * quadratic. Throws if the code counted nothing: a test of an uninstrumented path proves nothing.
 */
export async function workGrowth(run: (size: number) => unknown, size: number, factor = 16): Promise<number> {
  const small = await measureWork(() => run(size));
  const large = await measureWork(() => run(size * factor));
  if (small === 0 || large === 0) throw new Error('workGrowth: the code counted no work (is it instrumented with countWork?)');
  return large / (small * factor);
}
