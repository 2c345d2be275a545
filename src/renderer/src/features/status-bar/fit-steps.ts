/**
 * How many collapse steps a row needs to fit: the fewest, tried in order.
 *
 * Pure (the measuring is injected), so the order and the limits are tested alone; the
 * hook that measures the status bar is use-fit-steps.ts.
 */

/**
 * The smallest `count` in 0..steps.length whose first `count` steps make the row fit, by
 * `overflowsWith` (called with each prefix tried, shortest first). When even every step
 * leaves it overflowing, all of them.
 */
export function stepsToFit<Step>(steps: readonly Step[], overflowsWith: (applied: readonly Step[]) => boolean): Step[] {
  for (let count = 0; count < steps.length; count += 1) {
    const applied = steps.slice(0, count);
    if (!overflowsWith(applied)) return applied;
  }
  return [...steps];
}
