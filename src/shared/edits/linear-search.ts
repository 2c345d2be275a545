/**
 * Searches that stay linear in text + pattern whatever the input (Knuth–Morris–Pratt).
 *
 * Model output is untrusted and the user's files may hold anything: a 1 MB line of one
 * character is a normal minified file. V8's String.prototype.indexOf/includes is
 * quadratic on such input (a 1 MB run of `a` searched for `a…aba…a` takes tens of
 * seconds), and matching a hunk line by line from every start is quadratic in lines.
 * Anything that searches model text in file text goes through here.
 */
import { countWork } from '../work-meter';

/** Literals up to this long are searched natively (see foundIn). */
const NATIVE_SEARCH_MAX = 32;

/** A literal to look for in many texts; its failure table is built once. */
export class LiteralSearch {
  /** failure[i]: length of the longest proper border of literal[0..i]. */
  private readonly failure: Int32Array;

  constructor(readonly literal: string) {
    this.failure = new Int32Array(literal.length);
    let border = 0;
    let steps = literal.length;
    for (let index = 1; index < literal.length; index += 1) {
      const code = literal.charCodeAt(index);
      while (border > 0 && literal.charCodeAt(border) !== code) {
        border = this.failure[border - 1]!;
        steps += 1;
      }
      if (literal.charCodeAt(border) === code) border += 1;
      this.failure[index] = border;
    }
    countWork(steps);
  }

  /** Whether `text` contains the literal (the empty literal is in every text). */
  foundIn(text: string): boolean {
    const literal = this.literal;
    if (literal.length === 0) return true;
    if (text.length < literal.length) return false;
    // A short literal costs the native search at most its length per character: linear,
    // and several times faster than this loop (an `@@` hint is a name, scanned for in every line).
    if (literal.length <= NATIVE_SEARCH_MAX) {
      // Counted at the native search's worst case: text × literal.
      countWork(text.length * literal.length);
      return text.includes(literal);
    }
    let matched = 0;
    let steps = 0;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      steps += 1;
      while (matched > 0 && literal.charCodeAt(matched) !== code) {
        matched = this.failure[matched - 1]!;
        steps += 1;
      }
      if (literal.charCodeAt(matched) === code) matched += 1;
      if (matched === literal.length) {
        countWork(steps);
        return true;
      }
    }
    countWork(steps);
    return false;
  }
}

/**
 * Every start index ≥ `from` at which `pattern` occurs in `sequence` (elements compared
 * with `===`), in increasing order, overlapping occurrences included; lazily, so a caller
 * that needs two stops after two.
 *
 * Linear in elements compared; with strings, each comparison is paid for by the
 * characters matched before it, so the whole search is linear in characters too.
 */
export function* occurrences<T>(sequence: readonly T[], pattern: readonly T[], from = 0): Generator<number> {
  if (pattern.length === 0 || pattern.length > sequence.length - from) return;
  const failure = new Int32Array(pattern.length);
  let border = 0;
  // Comparisons made, reported before each yield and at the end (a caller may stop early).
  let steps = pattern.length;
  for (let index = 1; index < pattern.length; index += 1) {
    while (border > 0 && pattern[border] !== pattern[index]) {
      border = failure[border - 1]!;
      steps += 1;
    }
    if (pattern[border] === pattern[index]) border += 1;
    failure[index] = border;
  }
  let matched = 0;
  for (let index = from; index < sequence.length; index += 1) {
    const element = sequence[index];
    steps += 1;
    while (matched > 0 && pattern[matched] !== element) {
      matched = failure[matched - 1]!;
      steps += 1;
    }
    if (pattern[matched] === element) matched += 1;
    if (matched === pattern.length) {
      countWork(steps);
      steps = 0;
      yield index - pattern.length + 1;
      matched = failure[matched - 1]!;
    }
  }
  countWork(steps);
}
