/**
 * What the user did to an answer's hunks since the model last heard from Flint: which
 * were rejected or written, and which lines under a pending hunk the user changed. The
 * conversation sends it with the next turn (or a redirect) as a short structured note,
 * so the model does not propose a rejected change again or overwrite the user's edit.
 */
import type { FileVersion } from './file-version';

/** Lines [start, start + count) of a version, 1-based. */
export interface LineRange {
  start: number;
  count: number;
}

export class DecisionLog {
  /** In order, without repeats (a range changed twice is said once). */
  private readonly entries = new Set<string>();

  rejected(number: number, path: string): void {
    this.entries.add(`hunk ${number} in ${path} rejected`);
  }

  accepted(number: number, path: string): void {
    this.entries.add(`hunk ${number} in ${path} accepted (written to disk)`);
  }

  undone(number: number, path: string): void {
    this.entries.add(`hunk ${number} in ${path} undone (no longer on disk)`);
  }

  /**
   * The user saved `path`: the changes that touch `range` of `base` (a pending hunk's
   * lines in the text the model saw) are noted in that text's line numbers, which are
   * the ones the model knows.
   */
  userChanged(number: number, path: string, base: FileVersion, current: FileVersion, range: LineRange): void {
    const first = range.start - 1;
    const end = first + Math.max(range.count, 1);
    for (const region of current.changesSince(base)) {
      if (region.end < first || region.start > end) continue;
      const from = region.start + 1;
      const to = Math.max(region.end, region.start + 1);
      const lines = from === to ? `line ${from}` : `lines ${from}–${to}`;
      this.entries.add(`${lines} of ${path} changed by the user since your answer (under hunk ${number})`);
    }
  }

  /** The note's lines, and a fresh start. */
  take(): string[] {
    const lines = [...this.entries];
    this.entries.clear();
    return lines;
  }

  /** The note's lines, kept until the model has them (a turn that fails keeps them for the next). */
  peek(): string[] {
    return [...this.entries];
  }

  /** The model has these lines: later ones stay for the next note. */
  forget(lines: readonly string[]): void {
    for (const line of lines) this.entries.delete(line);
  }
}
