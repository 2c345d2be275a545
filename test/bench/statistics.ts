/** Small statistics for bench figures. */

export function percentile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

export function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

export function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * Figures measured several times, combined per figure: the median of the runs, and each
 * figure's runs as "median (min–max)" for the log.
 */
export function medianOfRuns<T extends { [K in keyof T]: number }>(runs: readonly T[]): { medians: T; spreads: Array<[keyof T, string]> } {
  if (runs.length === 0) throw new Error('no runs to combine');
  const names = Object.keys(runs[0]!) as Array<keyof T>;
  const medians = {} as T;
  const spreads: Array<[keyof T, string]> = [];
  for (const name of names) {
    const values = runs.map((run) => run[name]);
    medians[name] = round(median(values)) as T[keyof T];
    spreads.push([name, `${medians[name]} (${round(Math.min(...values))}–${round(Math.max(...values))})`]);
  }
  return { medians, spreads };
}
