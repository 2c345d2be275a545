/**
 * The oracle of the exact-or-nothing property: what every file of a generated project
 * holds once exactly the accepted hunks are, worked out from the generator's plan with
 * none of Flint's own splicing or anchoring code.
 */
import { encodeFile, type Ending, type Op, type PlannedHunk, type ProjectFile, type Scenario } from './patch-generator';
import { isRevised } from './revision-oracle';

/**
 * The oracle: what every file of the project holds once exactly the `accepted` hunks are
 * (absent: no such file). Untouched and kept lines keep their text and terminator; a line
 * added in place of a removed one takes its terminator, other added lines the file's
 * dominant one (CRLF only if more lines end so than with LF); a file without a final
 * newline still has none; a created file ends every line with LF.
 */
export function expectedProject(scenario: Scenario, accepted: ReadonlySet<string>): Map<string, Uint8Array> {
  const taken = scenario.hunks.filter((hunk) => accepted.has(hunk.id) && !hunk.bad);
  const result = new Map<string, Uint8Array>();
  for (const file of scenario.files) {
    const mine = taken.filter((hunk) => hunk.path === file.path);
    if (mine.some((hunk) => hunk.effect === 'delete')) continue;
    const move = mine.find((hunk) => hunk.effect === 'move');
    result.set(move?.moveTo ?? file.path, encodeFile(withUpdates(file, mine.filter((hunk) => hunk.effect === 'update'), scenario.format === 'search-replace')));
  }
  for (const hunk of taken) if (hunk.effect === 'create') result.set(hunk.path, new TextEncoder().encode(hunk.lines.map((line) => `${line.text}\n`).join('')));
  return result;
}

function withUpdates(file: ProjectFile, hunks: readonly PlannedHunk[], searchReplace: boolean): Pick<ProjectFile, 'bom' | 'lines' | 'endings'> {
  const crlf = file.endings.filter((ending) => ending === '\r\n').length;
  const eol: Ending = crlf > file.endings.filter((ending) => ending === '\n').length ? '\r\n' : '\n';
  const lines: string[] = [];
  const endings: Ending[] = [];
  const keep = (index: number): void => {
    lines.push(file.lines[index]!);
    endings.push(file.endings[index]!);
  };
  let at = 0;
  for (const hunk of [...hunks].sort((a, b) => a.start - b.start)) {
    for (; at < hunk.start; at += 1) keep(at);
    // Between kept lines: a line removed and added unchanged is the same line (a longest
    // common subsequence); between those, the i-th other added line takes the ending of the
    // i-th other removed one; lines beyond take the dominant one.
    let run: Op[] = [];
    const change = (): void => {
      const removed = run.flatMap((op) => ('remove' in op ? [op.remove] : []));
      const added = run.flatMap((op) => ('add' in op ? [op.add] : []));
      const places = placesByText(removed.map((index) => file.lines[index]!), added);
      added.forEach((text, index) => {
        lines.push(text);
        const place = places[index];
        endings.push(place === null || place === undefined ? eol : file.endings[removed[place]!]!);
      });
      run = [];
    };
    // Search/replace has no context lines: a kept line is removed and added unchanged, and
    // which of several equal lines is "the same line" only the text can say (see placesByText).
    for (const op of searchReplace && !isRevised(hunk) ? asRemovesAndAdds(file, hunk.ops) : hunk.ops) {
      if (!('keep' in op)) run.push(op);
      else {
        change();
        keep(op.keep);
      }
    }
    change();
    at = hunk.end;
  }
  for (; at < file.lines.length; at += 1) keep(at);
  const hadFinalNewline = file.endings.at(-1) !== '';
  for (let index = 0; index < endings.length - 1; index += 1) if (endings[index] === '') endings[index] = eol;
  if (endings.length > 0) endings[endings.length - 1] = hadFinalNewline ? endings.at(-1) || eol : '';
  return { bom: file.bom, lines, endings };
}

/**
 * For each added line, the index of the removed line it takes the place of, or null: equal
 * lines matched by a plain longest-common-subsequence table first, then the others in order
 * between them.
 */
function placesByText(removed: readonly string[], added: readonly string[]): Array<number | null> {
  const table: number[][] = Array.from({ length: removed.length + 1 }, () => Array<number>(added.length + 1).fill(0));
  for (let i = removed.length - 1; i >= 0; i -= 1) {
    for (let j = added.length - 1; j >= 0; j -= 1) table[i]![j] = removed[i] === added[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  }
  const places: Array<number | null> = added.map(() => null);
  const gaps: Array<[number, number]> = [];
  let [i, j] = [0, 0];
  while (i < removed.length && j < added.length) {
    if (removed[i] === added[j]) {
      places[j] = i;
      gaps.push([i, j]);
      i += 1;
      j += 1;
    } else if (table[i + 1]![j]! >= table[i]![j + 1]!) i += 1;
    else j += 1;
  }
  let [fromRemoved, fromAdded] = [0, 0];
  for (const [atRemoved, atAdded] of [...gaps, [removed.length, added.length] as [number, number]]) {
    for (let k = 0; fromAdded + k < atAdded && fromRemoved + k < atRemoved; k += 1) places[fromAdded + k] = fromRemoved + k;
    [fromRemoved, fromAdded] = [atRemoved + 1, atAdded + 1];
  }
  return places;
}

/** A search/replace hunk's ops as the block reads: every old line removed, then every new line added (kept ones with the file's text). */
function asRemovesAndAdds(file: ProjectFile, ops: readonly Op[]): Op[] {
  const removes = ops.flatMap((op): Op[] => ('keep' in op ? [{ remove: op.keep }] : 'remove' in op ? [op] : []));
  const adds = ops.flatMap((op): Op[] => ('keep' in op ? [{ add: file.lines[op.keep]! }] : 'add' in op ? [op] : []));
  return [...removes, ...adds];
}
