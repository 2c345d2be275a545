/**
 * Which removed line each added line of a change takes the place of, so it can keep that
 * line's ending in a file of mixed line endings.
 *
 * A line that is both removed and added unchanged (search/replace blocks repeat every
 * line they keep) is that same line: matched first, by a longest common subsequence.
 * Between those, added lines take the places of removed lines in order; added lines
 * beyond those have no place (they take the file's dominant ending). Runs too long for a
 * table (more than MAX_CELLS pairs) are paired in order only: linear, and still exact text.
 */

const MAX_CELLS = 250_000;

/** For each of `added`, the index in `removed` of the line it replaces, or null. */
export function placesOfAdded(removed: readonly string[], added: readonly string[]): Array<number | null> {
  const places: Array<number | null> = added.map(() => null);
  const common = removed.length === 1 ? onlyPair(removed[0]!, added) : removed.length > 0 && added.length > 0 && removed.length * added.length <= MAX_CELLS ? commonLines(removed, added) : [];
  // Between two unchanged lines (and before the first, after the last), added lines take
  // the places of the removed ones in order.
  let removedFrom = 0;
  let addedFrom = 0;
  for (const [removedAt, addedAt] of [...common, [removed.length, added.length] as [number, number]]) {
    for (let offset = 0; addedFrom + offset < addedAt && removedFrom + offset < removedAt; offset += 1) places[addedFrom + offset] = removedFrom + offset;
    if (addedAt < added.length) places[addedAt] = removedAt;
    removedFrom = removedAt + 1;
    addedFrom = addedAt + 1;
  }
  return places;
}

/** With one removed line (the common change), the longest common subsequence without a table: it and the first added line equal to it. */
function onlyPair(removed: string, added: readonly string[]): Array<[number, number]> {
  const at = added.indexOf(removed);
  return at === -1 ? [] : [[0, at]];
}

/** The pairs (removed index, added index) of a longest common subsequence of equal lines. */
function commonLines(removed: readonly string[], added: readonly string[]): Array<[number, number]> {
  const width = added.length + 1;
  // lengths[i * width + j]: LCS length of removed[i..] and added[j..].
  const lengths = new Int32Array((removed.length + 1) * width);
  for (let i = removed.length - 1; i >= 0; i -= 1) {
    for (let j = added.length - 1; j >= 0; j -= 1) {
      lengths[i * width + j] = removed[i] === added[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < removed.length && j < added.length) {
    if (removed[i] === added[j]) {
      pairs.push([i, j]);
      i += 1;
      j += 1;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) i += 1;
    else j += 1;
  }
  return pairs;
}
