/**
 * What the user did to an answer's hunks since the model last heard from Flint: the
 * latest decision on each hunk (rejected, written, undone) and the lines under a pending
 * hunk the user changed. The conversation sends it with the next turn (or a redirect) as
 * a short structured note, so the model does not propose a rejected change again or
 * overwrite the user's edit. Kept with the conversation between runs.
 */
import type { FileVersion } from './file-version';

/** Lines [start, start + count) of a version, 1-based. */
export interface LineRange {
  start: number;
  count: number;
}

export class DecisionLog {
  /** Each line of the note by what it is about (a hunk, or a changed range), latest last. */
  private readonly entries = new Map<string, string>();
  /** Hunks the model did not write as such (the lines left of a hunk accepted in part), by number: how the note names them. */
  private readonly names = new Map<number, string>();

  /** Hunk `number` is the lines the user left of hunk `of` (accepted in part): named so, as the model knows only hunk `of`. */
  nameRest(number: number, of: number): void {
    this.names.set(number, `hunk ${number} (the lines left of hunk ${of})`);
  }

  rejected(number: number, path: string): void {
    this.decided(number, path, 'rejected');
  }

  /** Written to disk; `revised`: as the user revised it (some of its lines, or its text edited), which the model must hear. */
  accepted(number: number, path: string, revised?: { kind: 'lines' | 'edited'; words: string }): void {
    if (revised?.kind === 'lines') this.decided(number, path, `accepted in part (${revised.words} written; the rest left as the file had it)`);
    else if (revised?.kind === 'edited') this.decided(number, path, 'accepted after the user edited it (the file you are shown has what was written)');
    else this.decided(number, path, 'accepted (written to disk)');
  }

  /** A rejection taken back: one the model has not heard yet is simply forgotten; one it has, it hears is open again. */
  restored(number: number, path: string): void {
    const unheard = this.entries.get(hunkKey(number));
    if (unheard?.endsWith(' rejected')) this.entries.delete(hunkKey(number));
    else this.decided(number, path, 'no longer rejected (the user took the rejection back; it is undecided again)');
  }

  undone(number: number, path: string): void {
    this.decided(number, path, 'undone (no longer on disk)');
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
      this.set(`lines:${lines} of ${path}`, `${lines} of ${path} changed by the user since your answer (under hunk ${number})`);
    }
  }

  /** The note's lines, kept until the model has them (a turn that fails keeps them for the next). */
  peek(): string[] {
    return [...this.entries.values()];
  }

  /** The model has these lines: later ones (and a later decision on the same hunk) stay for the next note. */
  forget(lines: readonly string[]): void {
    const sent = new Set(lines);
    for (const [key, line] of this.entries) if (sent.has(line)) this.entries.delete(key);
  }

  /**
   * Lines the model did not hear after all (kept from an earlier run, or sent with a turn
   * that failed): back in the note, unless a later decision on the same hunk replaced them.
   */
  putBack(lines: readonly string[]): void {
    for (const line of lines) if (!this.entries.has(keyOf(line))) this.entries.set(keyOf(line), line);
  }

  /** A hunk's latest decision replaces an earlier one (accepted, undone, accepted again: accepted). */
  private decided(number: number, path: string, what: string): void {
    this.set(hunkKey(number), `${this.names.get(number) ?? `hunk ${number}`} in ${path} ${what}`);
  }

  private set(key: string, line: string): void {
    // Moved to the end: the note reads in the order things happened.
    this.entries.delete(key);
    this.entries.set(key, line);
  }
}

const hunkKey = (number: number): string => `hunk:${number}`;

/** The key a line of the note is kept under, rebuilt from its words (lines come back from disk and from failed turns). */
function keyOf(line: string): string {
  const hunk = /^hunk (\d+) (?:in |\(the lines left of)/.exec(line);
  if (hunk) return hunkKey(Number(hunk[1]));
  const lines = /^(lines? .+?) changed by the user since your answer/.exec(line);
  return lines ? `lines:${lines[1]}` : `line:${line}`;
}
