/**
 * Edit distance as fast as the `fastest-levenshtein` package Continue's matchLine uses
 * (bit-parallel: Myers 1999, blocked as in Hyyrö 2003), so the baseline is not slowed by
 * a naive distance. Written for this bench; `checkDistance` compares it with the plain
 * dynamic program (the diff bench runs it first).
 */

/** Per UTF-16 code unit: the bits of the pattern block where it occurs (cleared after each use). */
const positions = new Int32Array(0x10000);
const WORD = 32;

/** Levenshtein distance between `a` and `b` (UTF-16 code units). */
export function distance(a: string, b: string): number {
  // The shorter string is the bit pattern: fewer blocks.
  const pattern = a.length <= b.length ? a : b;
  const text = a.length <= b.length ? b : a;
  if (pattern.length === 0) return text.length;
  return pattern.length <= WORD ? singleWord(pattern, text) : blocked(pattern, text);
}

/** The pattern fits one word: no carries to keep (the top row's delta is always +1). */
function singleWord(pattern: string, text: string): number {
  const last = 1 << (pattern.length - 1);
  for (let index = 0; index < pattern.length; index += 1) positions[pattern.charCodeAt(index)]! |= 1 << index;
  let plus = -1;
  let minus = 0;
  let score = pattern.length;
  for (let column = 0; column < text.length; column += 1) {
    const match = positions[text.charCodeAt(column)]!;
    const crossVertical = match | minus;
    const crossHorizontal = (((match & plus) + plus) ^ plus) | match;
    let horizontalPlus = minus | ~(crossHorizontal | plus);
    let horizontalMinus = plus & crossHorizontal;
    if (horizontalPlus & last) score += 1;
    else if (horizontalMinus & last) score -= 1;
    horizontalPlus = (horizontalPlus << 1) | 1;
    horizontalMinus <<= 1;
    plus = horizontalMinus | ~(crossVertical | horizontalPlus);
    minus = horizontalPlus & crossVertical;
  }
  for (let index = 0; index < pattern.length; index += 1) positions[pattern.charCodeAt(index)] = 0;
  return score;
}

/**
 * Block by block down the pattern, each across the whole text. Per block and column:
 * vertical deltas (plus/minus bit vectors) in, the horizontal delta at the block's top
 * (`carries`, +1 on the first row) in, and the one at its bottom row out.
 */
function blocked(pattern: string, text: string): number {
  const carries = new Int8Array(text.length).fill(1);
  for (let start = 0; start < pattern.length; start += WORD) {
    const end = Math.min(pattern.length, start + WORD);
    const last = 1 << (end - start - 1);
    for (let index = start; index < end; index += 1) positions[pattern.charCodeAt(index)]! |= 1 << (index - start);
    let plus = -1;
    let minus = 0;
    for (let column = 0; column < text.length; column += 1) {
      const carry = carries[column]!;
      const match = positions[text.charCodeAt(column)]!;
      const crossVertical = match | minus;
      const equal = carry < 0 ? match | 1 : match;
      const crossHorizontal = (((equal & plus) + plus) ^ plus) | equal;
      let horizontalPlus = minus | ~(crossHorizontal | plus);
      let horizontalMinus = plus & crossHorizontal;
      carries[column] = horizontalPlus & last ? 1 : horizontalMinus & last ? -1 : 0;
      horizontalPlus = (horizontalPlus << 1) | (carry > 0 ? 1 : 0);
      horizontalMinus = (horizontalMinus << 1) | (carry < 0 ? 1 : 0);
      plus = horizontalMinus | ~(crossVertical | horizontalPlus);
      minus = horizontalPlus & crossVertical;
    }
    for (let index = start; index < end; index += 1) positions[pattern.charCodeAt(index)] = 0;
  }
  let score = pattern.length;
  for (let column = 0; column < carries.length; column += 1) score += carries[column]!;
  return score;
}

/** Throws unless `distance` agrees with the dynamic program on random pairs (short, one word, several blocks). */
export function checkDistance(): void {
  let seed = 7;
  const random = (below: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) % below);
  const word = (length: number): string => Array.from({ length }, () => 'abcab  {}'.charAt(random(9))).join('');
  for (let trial = 0; trial < 300; trial += 1) {
    const a = word(random(trial < 100 ? 8 : 90));
    const b = random(3) === 0 ? word(random(90)) : a.slice(random(a.length + 1)) + word(random(6));
    const expected = plainDistance(a, b);
    if (distance(a, b) !== expected || distance(b, a) !== expected) throw new Error(`levenshtein: "${a}" / "${b}" gave ${distance(a, b)}, expected ${expected}`);
  }
}

function plainDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let row = 1; row <= a.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= b.length; column += 1) {
      const substitution = previous[column - 1]! + (a[row - 1] === b[column - 1] ? 0 : 1);
      current.push(Math.min(previous[column]! + 1, current[column - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
