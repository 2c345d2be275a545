import { describe, expect, it } from 'vitest';
import { describeChange, unifiedDiff, type RecentChange } from './recent-change';
import { seededRandom } from '../../../test/helpers/seeded-random';

const numbered = (count: number, prefix = 'line') => Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`);

function replaced(lines: readonly string[], replacements: Record<number, string>): string[] {
  return lines.map((line, index) => replacements[index + 1] ?? line);
}

function changeOf(before: readonly string[], after: readonly string[]): RecentChange {
  const change = describeChange(before, after);
  if (!change) throw new Error('expected a change');
  return change;
}

interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  body: string[];
}

/** Parses the diff strictly: headers, then hunks whose bodies must match their header counts. */
function parseUnifiedDiff(diff: string, path: string): Hunk[] {
  const lines = diff.split('\n');
  expect(lines[0]).toBe(`--- a/${path}`);
  expect(lines[1]).toBe(`+++ b/${path}`);
  const hunks: Hunk[] = [];
  for (const line of lines.slice(2)) {
    const header = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(line);
    if (header) {
      hunks.push({ oldStart: Number(header[1]), oldCount: Number(header[2]), newStart: Number(header[3]), newCount: Number(header[4]), body: [] });
      continue;
    }
    expect(hunks.length, `a body line before any hunk header: ${line}`).toBeGreaterThan(0);
    expect(line[0], `a body line without a ' ', '-' or '+' prefix: ${line}`).toMatch(/^[ +-]$/);
    hunks.at(-1)!.body.push(line);
  }
  for (const hunk of hunks) {
    expect(hunk.body.filter((line) => line[0] === ' ' || line[0] === '-').length).toBe(hunk.oldCount);
    expect(hunk.body.filter((line) => line[0] === ' ' || line[0] === '+').length).toBe(hunk.newCount);
  }
  return hunks;
}

/** Applies the hunks to `before` as `patch` would, requiring every context and removed line to match exactly. */
function applyHunks(before: readonly string[], hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  let cursor = 0;
  for (const hunk of hunks) {
    const at = hunk.oldStart - 1;
    expect(at).toBeGreaterThanOrEqual(cursor);
    out.push(...before.slice(cursor, at));
    cursor = at;
    for (const line of hunk.body) {
      if (line[0] === '+') {
        out.push(line.slice(1));
        continue;
      }
      expect(before[cursor], `old line ${cursor + 1}`).toBe(line.slice(1));
      if (line[0] === ' ') out.push(line.slice(1));
      cursor += 1;
    }
  }
  out.push(...before.slice(cursor));
  return out;
}


function randomEdit(before: readonly string[], next: () => number): string[] {
  const after = [...before];
  const edits = 1 + Math.floor(next() * 4);
  for (let edit = 0; edit < edits; edit += 1) {
    const at = Math.floor(next() * (after.length + 1));
    const removeCount = Math.floor(next() * 3);
    const inserted = Array.from({ length: Math.floor(next() * 3) }, () => `new ${Math.floor(next() * 5)}`);
    after.splice(at, removeCount, ...inserted);
  }
  return after;
}

describe('describeChange', () => {
  it('returns null when nothing changed', () => {
    expect(describeChange(numbered(5), numbered(5))).toBeNull();
    expect(describeChange([], [])).toBeNull();
  });

  it('describes one edited line by its 1-based line and counts', () => {
    const before = numbered(5);
    const change = changeOf(before, replaced(before, { 3: 'edited' }));
    expect(change.lines).toEqual({ startLine: 3, endLine: 3, added: 1, removed: 1, places: 1 });
    expect(change.places).toEqual([{ oldStart: 2, removed: ['line 3'], start: 2, added: ['edited'] }]);
  });

  it('describes an insertion as added lines only, spanning the new lines', () => {
    const before = numbered(3);
    const after = ['line 1', 'line 2', 'new a', 'new b', 'line 3'];
    const change = changeOf(before, after);
    expect(change.lines).toEqual({ startLine: 3, endLine: 4, added: 2, removed: 0, places: 1 });
    expect(change.places).toEqual([{ oldStart: 2, removed: [], start: 2, added: ['new a', 'new b'] }]);
  });

  it('points a deletion in the middle at the line that now follows it', () => {
    const change = changeOf(['a', 'b', 'c', 'd'], ['a', 'd']);
    expect(change.lines).toEqual({ startLine: 2, endLine: 2, added: 0, removed: 2, places: 1 });
    expect(change.places[0]!.removed).toEqual(['b', 'c']);
  });

  it('points a deletion at the end of the file at the new last line', () => {
    const after = ['a'];
    const change = changeOf(['a', 'b', 'c'], after);
    expect(change.lines).toMatchObject({ startLine: 1, endLine: 1, removed: 2 });
    expect(after[change.lines.startLine - 1]).toBe('a');
  });

  it('points a deletion at the start of the file at the new first line', () => {
    const change = changeOf(['a', 'b', 'c'], ['c']);
    expect(change.lines).toMatchObject({ startLine: 1, endLine: 1, removed: 2, added: 0 });
  });

  it('counts two distant edits as two places, with a span covering both', () => {
    const before = numbered(30);
    const change = changeOf(before, replaced(before, { 3: 'first edit', 25: 'second edit' }));
    expect(change.lines).toEqual({ startLine: 3, endLine: 25, added: 2, removed: 2, places: 2 });
    expect(change.places.map((place) => place.start)).toEqual([2, 24]);
  });

  it('gives later places their position in the new text when earlier places changed the line count', () => {
    const before = numbered(30);
    const after = [...before];
    after.splice(4, 0, 'inserted 1', 'inserted 2');
    after[21] = 'edited';
    const change = changeOf(before, after);
    expect(change.places).toHaveLength(2);
    const last = change.places[1]!;
    expect(last).toMatchObject({ oldStart: 19, removed: ['line 20'], start: 21, added: ['edited'] });
    expect(change.lines).toMatchObject({ startLine: 5, endLine: 22, added: 3, removed: 1 });
  });

  it('describes every random edit so that each place matches both texts and lies within the span', () => {
    const next = seededRandom(1);
    for (let round = 0; round < 300; round += 1) {
      const before = Array.from({ length: Math.floor(next() * 25) }, () => `old ${Math.floor(next() * 6)}`);
      const after = randomEdit(before, next);
      const change = describeChange(before, after);
      if (before.join('\n') === after.join('\n') && before.length === after.length) {
        expect(change).toBeNull();
        continue;
      }
      expect(change, `round ${round}`).not.toBeNull();
      const { places, lines } = change!;
      for (const place of places) {
        expect(before.slice(place.oldStart, place.oldStart + place.removed.length)).toEqual(place.removed);
        expect(after.slice(place.start, place.start + place.added.length)).toEqual(place.added);
        if (place.added.length > 0) {
          expect(place.start + 1).toBeGreaterThanOrEqual(lines.startLine);
          expect(place.start + place.added.length).toBeLessThanOrEqual(lines.endLine);
        }
      }
      expect(lines.startLine).toBeGreaterThanOrEqual(1);
      expect(lines.endLine).toBeGreaterThanOrEqual(lines.startLine);
      expect(lines.endLine).toBeLessThanOrEqual(Math.max(after.length, 1));
      expect(lines.places).toBe(places.length);
    }
  });
});

describe('unifiedDiff', () => {
  it('shows one edited line with three lines of context on each side', () => {
    const before = numbered(20);
    const after = replaced(before, { 10: 'edited' });
    const diff = unifiedDiff('src/app.ts', changeOf(before, after), after);
    expect(diff).toBe(
      ['--- a/src/app.ts', '+++ b/src/app.ts', '@@ -7,7 +7,7 @@', ' line 7', ' line 8', ' line 9', '-line 10', '+edited', ' line 11', ' line 12', ' line 13'].join('\n'),
    );
  });

  it('writes header counts that match the body, and hunks that turn the old text into the new', () => {
    const before = numbered(40);
    const after = [...before];
    after.splice(30, 2);
    after.splice(5, 1, 'five a', 'five b', 'five c');
    const change = changeOf(before, after);
    const hunks = parseUnifiedDiff(unifiedDiff('x.txt', change, after), 'x.txt');
    expect(hunks).toHaveLength(2);
    expect(applyHunks(before, hunks)).toEqual(after);
    for (const hunk of hunks) {
      expect(after.slice(hunk.newStart - 1, hunk.newStart - 1 + hunk.newCount)).toEqual(hunk.body.filter((line) => line[0] !== '-').map((line) => line.slice(1)));
    }
  });

  it('clips the context at the start and the end of the file', () => {
    const before = numbered(4);
    const after = replaced(before, { 1: 'top', 4: 'bottom' });
    const hunks = parseUnifiedDiff(unifiedDiff('x.txt', changeOf(before, after), after), 'x.txt');
    expect(hunks).toEqual([{ oldStart: 1, oldCount: 4, newStart: 1, newCount: 4, body: ['-line 1', '+top', ' line 2', ' line 3', '-line 4', '+bottom'] }]);
  });

  it('merges places whose context would touch into one hunk', () => {
    const before = numbered(30);
    const after = replaced(before, { 5: 'first', 10: 'second' });
    const hunks = parseUnifiedDiff(unifiedDiff('x.txt', changeOf(before, after), after), 'x.txt');
    expect(hunks).toHaveLength(1);
    expect(hunks[0]).toMatchObject({ oldStart: 2, oldCount: 12, newStart: 2, newCount: 12 });
    expect(applyHunks(before, hunks)).toEqual(after);
  });

  it('merges places six unchanged lines apart and splits places seven apart, as diff -U3 does', () => {
    const before = numbered(40);
    const sixApart = replaced(before, { 10: 'a', 17: 'b' });
    expect(parseUnifiedDiff(unifiedDiff('x.txt', changeOf(before, sixApart), sixApart), 'x.txt')).toHaveLength(1);
    const sevenApart = replaced(before, { 10: 'a', 18: 'b' });
    const hunks = parseUnifiedDiff(unifiedDiff('x.txt', changeOf(before, sevenApart), sevenApart), 'x.txt');
    expect(hunks.map((hunk) => [hunk.oldStart, hunk.oldCount])).toEqual([
      [7, 7],
      [15, 7],
    ]);
  });

  it('keeps distant places in separate hunks', () => {
    const before = numbered(60);
    const after = replaced(before, { 3: 'near the top', 50: 'near the bottom' });
    const hunks = parseUnifiedDiff(unifiedDiff('x.txt', changeOf(before, after), after), 'x.txt');
    expect(hunks.map((hunk) => hunk.newStart)).toEqual([1, 47]);
    expect(applyHunks(before, hunks)).toEqual(after);
  });

  it('produces a valid diff that reproduces the new text for random edits', () => {
    const next = seededRandom(2);
    for (let round = 0; round < 300; round += 1) {
      const before = Array.from({ length: 1 + Math.floor(next() * 40) }, () => `old ${Math.floor(next() * 8)}`);
      const after = randomEdit(before, next);
      if (after.length === 0) continue;
      const change = describeChange(before, after);
      if (!change) continue;
      const hunks = parseUnifiedDiff(unifiedDiff('r.txt', change, after), 'r.txt');
      expect(applyHunks(before, hunks), `round ${round}`).toEqual(after);
      for (let index = 1; index < hunks.length; index += 1) {
        const previous = hunks[index - 1]!;
        // Separate hunks never overlap or touch: their contexts would otherwise have merged them.
        expect(hunks[index]!.newStart).toBeGreaterThan(previous.newStart + previous.newCount);
      }
    }
  });
});
