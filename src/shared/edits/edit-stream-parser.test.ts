import { describe, expect, it } from 'vitest';
import { parseAnswer } from '../../../test/helpers/collect-answer';
import { EditStreamParser } from './edit-stream-parser';
import { isScreenPreview, newLinesOf, oldLinesOf, type EditEvent, type HunkLine } from './edit-types';
import * as fixtures from '../../../test/fixtures/edit-answers';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { LINEAR_WORK_BOUND, workGrowth } from '../../../test/helpers/work-growth';

describe('EditStreamParser: V4A', () => {
  it('reads files, hunks, hints and the prose around them', () => {
    const answer = parseAnswer(fixtures.V4A_TWO_HUNKS);
    expect(answer.prose).toEqual(["I'll rename the helper and fix the off-by-one.", '', '', 'Both changes keep the exports.']);
    expect(answer.problems).toEqual([]);
    expect(answer.files).toHaveLength(1);
    const [file] = answer.files;
    expect(file).toMatchObject({ operation: 'update', path: 'src/math.ts' });
    expect(file!.hunks.map((hunk) => hunk.contextHints)).toEqual([['export function range'], []]);
    expect(file!.hunks.every((hunk) => hunk.complete)).toBe(true);
    expect(oldLinesOf(file!.hunks[1]!.lines)).toEqual(['export function sum(values: number[]) {', '  let total = 1;', '  for (const value of values) total += value;']);
    expect(newLinesOf(file!.hunks[1]!.lines)).toEqual(['export function sum(values: number[]) {', '  let total = 0;', '  for (const value of values) total += value;']);
  });

  it('reads Add, Delete and Move with nested hints and End of File', () => {
    const answer = parseAnswer(fixtures.V4A_ADD_DELETE_MOVE);
    expect(answer.files.map((file) => [file.operation, file.path, file.moveTo])).toEqual([
      ['add', 'src/new-module.ts', undefined],
      ['delete', 'src/obsolete.ts', undefined],
      ['update', 'src/old-name.ts', 'src/new-name.ts'],
    ]);
    expect(newLinesOf(answer.files[0]!.hunks[0]!.lines)).toEqual(['export const created = true;', '', 'export function hello(): string {', "  return 'hi';", '}']);
    expect(answer.files[1]!.hunks).toEqual([]);
    expect(answer.files[2]!.hunks[0]).toMatchObject({ contextHints: ['class Greeter', 'greet()'], atEndOfFile: true, complete: true });
    expect(answer.problems).toEqual([]);
  });

  it('completes a patch that lacks End Patch, and says so', () => {
    const answer = parseAnswer(fixtures.MISSING_END_PATCH);
    expect(answer.files[0]!.hunks[0]!.complete).toBe(true);
    expect(answer.problems).toEqual(['The patch ended without "*** End Patch".']);
  });

  it('ignores stray markers and unknown headers, reporting each', () => {
    const answer = parseAnswer(fixtures.STRAY_MARKERS);
    expect(answer.files.map((file) => file.path)).toEqual(['a.ts']);
    expect(answer.problems).toEqual([
      'A stray "=======" marker outside a search/replace block was ignored.',
      'A second "*** Begin Patch" was ignored.',
      'An unknown marker "*** Frobnicate File: x" was ignored.',
      'A stray ">>>>>>> REPLACE" marker outside a search/replace block was ignored.',
    ]);
  });

  it('reads unprefixed lines as context and reports empty hunks', () => {
    const answer = parseAnswer(fixtures.UNPREFIXED_AND_EMPTY);
    const hunks = answer.files[0]!.hunks;
    // A hunk opens at its `@@` (to be on screen at once): the last, with no line, is an empty one.
    expect(hunks).toHaveLength(2);
    expect(hunks[1]!.lines).toEqual([]);
    expect(hunks[0]!.contextHints).toEqual(['first']);
    expect(hunks[0]!.lines).toEqual([
      { kind: 'context', text: 'context' },
      { kind: 'context', text: 'this line lost its prefix' },
      { kind: 'remove', text: 'old' },
      { kind: 'context', text: '' },
      { kind: 'add', text: 'new' },
    ]);
    expect(answer.problems).toEqual([
      'An unprefixed line in a hunk was read as context: "this line lost its prefix".',
      'An empty hunk (no lines) has nothing to apply.',
    ]);
  });

  it('ignores line numbers in unified-diff headers but keeps their hint', () => {
    const answer = parseAnswer(fixtures.UNIFIED_HEADERS);
    expect(answer.files[0]!.hunks[0]!.contextHints).toEqual(['function compute() {']);
    expect(answer.problems[0]).toContain('Line numbers');
  });

  it('accepts file headers without Begin Patch, and CRLF line endings', () => {
    expect(parseAnswer(fixtures.NO_BEGIN_PATCH).files[0]!.hunks[0]!.lines).toHaveLength(2);
    expect(parseAnswer(fixtures.NO_BEGIN_PATCH).problems[0]).toContain('without "*** Begin Patch"');
    expect(parseAnswer(fixtures.CRLF).files[0]!.hunks[0]!.lines).toEqual([
      { kind: 'remove', text: 'old' },
      { kind: 'add', text: 'new' },
    ]);
  });
});

describe('EditStreamParser: search/replace', () => {
  it('reads blocks with the path line before them, fences and bold paths included', () => {
    const answer = parseAnswer(fixtures.SEARCH_REPLACE);
    expect(answer.files.map((file) => [file.path, file.hunks.length])).toEqual([
      ['src/app.py', 2],
      ['src/util.py', 1],
    ]);
    expect(oldLinesOf(answer.files[0]!.hunks[0]!.lines)).toEqual(['def main():', '    print("hello")']);
    expect(newLinesOf(answer.files[0]!.hunks[0]!.lines)).toEqual(['def main() -> None:', '    print("hello, world")']);
    // The path lines and fences head the blocks: they are not prose.
    expect(answer.prose).toEqual(['Here is the fix.', '', '', '']);
    expect(answer.problems).toEqual([]);
  });

  it('keeps a block without REPLACE partial, and a block without a path unmatched', () => {
    const cut = parseAnswer('a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n');
    expect(cut.files[0]!.hunks[0]!.complete).toBe(false);
    expect(cut.problems[0]).toContain('partial');
    const pathless = parseAnswer('Fix:\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n');
    expect(pathless.files[0]!.path).toBe('');
    expect(pathless.problems[0]).toContain('without a file path');
  });
});

describe('EditStreamParser: streaming', () => {
  it('gives the same answer for every split point of every fixture', () => {
    for (const [name, text] of Object.entries(fixtures.ALL_FIXTURES)) {
      const whole = parseAnswer(text);
      for (let split = 1; split < text.length; split += 1) {
        expect(parseAnswer(text, [split, text.length]), `${name} split at ${split}`).toEqual(whole);
      }
    }
  });

  it('gives the same answer for random chunkings, down to one character at a time', () => {
    const random = seededRandom(7);
    for (const text of Object.values(fixtures.ALL_FIXTURES)) {
      const whole = parseAnswer(text);
      expect(parseAnswer(text, [1])).toEqual(whole);
      for (let trial = 0; trial < 20; trial += 1) {
        const sizes = Array.from({ length: 8 }, () => 1 + Math.floor(random() * 12));
        expect(parseAnswer(text, sizes)).toEqual(whole);
      }
    }
  });

  it('emits a hunk line as soon as its newline arrives, not at the end', () => {
    const events: EditEvent[] = [];
    const parser = new EditStreamParser((event) => events.push(event));
    parser.push('*** Begin Patch\n*** Update File: a.ts\n@@\n-old\n+ne');
    expect(events.filter((event) => event.type === 'hunk-line')).toHaveLength(1);
    parser.push('w\n');
    expect(events.filter((event) => event.type === 'hunk-line')).toHaveLength(2);
  });

  it('leaves the hunk a truncated stream was writing partial, dropping its unfinished line', () => {
    const answer = parseAnswer(fixtures.V4A_TWO_HUNKS.slice(0, fixtures.V4A_TWO_HUNKS.indexOf('+  let total = 0;') + 5), [17], true);
    const hunks = answer.files[0]!.hunks;
    expect(hunks[0]!.complete).toBe(true);
    expect(hunks[1]!.complete).toBe(false);
    expect(hunks[1]!.lines.at(-1)).toEqual({ kind: 'remove', text: '  let total = 1;' });
    expect(answer.truncated).toBe(true);
  });

  it('keeps a context line that starts with spaces and asterisks, and never reuses a search/replace file across a patch', () => {
    const answer = parseAnswer('*** Begin Patch\n*** Update File: a.ts\n *** Note: keep me\n-old\n+new\n*** End Patch\n');
    expect(answer.files[0]!.hunks[0]!.lines[0]).toEqual({ kind: 'context', text: '*** Note: keep me' });
    const mixed = parseAnswer('a.ts\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n*** Begin Patch\n*** Update File: b.ts\n-p\n+q\n*** End Patch\n<<<<<<< SEARCH\nz\n=======\nw\n>>>>>>> REPLACE\n');
    expect(mixed.files.map((file) => file.path)).toEqual(['a.ts', 'b.ts', '']);
    expect(mixed.problems.some((problem) => problem.includes('without a file path'))).toBe(true);
  });

  it('takes linear time on a very long line streamed in tiny deltas', () => {
    const line = `+${'x'.repeat(400_000)}\n`;
    const answer = parseAnswer(`*** Begin Patch\n*** Update File: a.ts\n${line}*** End Patch\n`, [4]);
    expect(answer.files[0]!.hunks[0]!.lines[0]!.text).toHaveLength(400_000);
  });

  it('parses a 5 MB answer', () => {
    const hunk = '@@\n-old line\n+new line\n';
    const text = `*** Begin Patch\n*** Update File: big.ts\n${hunk.repeat(Math.ceil((5 * 1024 * 1024) / hunk.length))}*** End Patch\n`;
    const answer = parseAnswer(text, [4096]);
    expect(answer.files[0]!.hunks.length).toBeGreaterThan(200_000);
    expect(answer.problems).toEqual([]);
  });
});

describe('EditStreamParser: adversarial lines (work linear in the input: counted, never timed)', () => {
  const grows = (line: (size: number) => string, size: number, chunk = 4096) => workGrowth((n) => parseAnswer(line(n), [chunk]), size);

  it('parses a 200 KB run of * in a prose line in linear work (a trailing-class regex took 75 s)', async () => {
    expect(parseAnswer(`a${'*'.repeat(10)}a\n`).prose).toEqual([`a${'*'.repeat(10)}a`]);
    expect(await grows((size) => `a${'*'.repeat(size)}a\n`, 12_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });

  it('parses long runs of whitespace, colons, quotes and backticks in linear work', async () => {
    for (const character of [' ', ':', '`', '"', "'", '#', '@', '<', '=']) {
      expect(await grows((size) => `a${character.repeat(size)}a\n`, 12_500), JSON.stringify(character)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
    }
  });

  it('reads file headers and Move to with a 200 KB whitespace run in linear work', async () => {
    const patch = (header: string) => (size: number) => `*** Begin Patch\n*** Update File: a.ts\n${header}${' '.repeat(size)}x\n-old\n+new\n*** End Patch\n`;
    expect(parseAnswer(patch('*** Move to: b')(3)).files[0]!.moveTo).toBe('b   x');
    expect(await grows(patch('*** Move to: b'), 12_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
    expect(parseAnswer(patch('*** Update File: c')(3)).files[1]!.path).toBe('c   x');
    expect(await grows(patch('*** Update File: c'), 12_500)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });

  it('takes linear time over a 1 MB line streamed one character at a time', async () => {
    expect(await grows((size) => `+${'x'.repeat(size)}\n`, 65_536, 1)).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
  });

  it('reads markers as before: a header path is one line, a path may touch the colon', () => {
    expect(parseAnswer('*** Begin Patch\n*** Update File:a.ts\n-x\n+y\n*** End Patch\n').files[0]!.path).toBe('a.ts');
    // A line separator inside a header makes it no header: an argument is one line.
    expect(parseAnswer('*** Begin Patch\n*** Update File: a\u2028b.ts\n*** End Patch\n').problems[0]).toContain('unknown marker');
    expect(parseAnswer('*** Begin Patch\n*** Update File: a.ts\n*** Move to:   \n-x\n*** End Patch\n').files[0]!.moveTo).toBe('');
  });

  it('finds the file a search/replace block names in headings, lists, quotes and emphasis', () => {
    const pathOf = (line: string) => parseAnswer(`${line}\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n`).files[0]!.path;
    expect(['## `src/a.ts`', '- **src/a.ts**:', "* 'src/a.ts'", '"src/a.ts":', '#src/a.ts', '***src/a.ts***'].map(pathOf)).toEqual(Array(6).fill('src/a.ts'));
    expect(['-src/a.ts', 'see src/a.ts', 'https://x.io/a.ts', `${'a'.repeat(301)}.ts`, '**'].map(pathOf)).toEqual(['-src/a.ts', '', '', '', '']);
  });
});

describe('EditStreamParser: fuzzing', () => {
  const alphabet = ['*** Begin Patch\n', '*** End Patch\n', '*** Update File: a\n', '*** Add File: b\n', '*** Delete File: c\n', '*** Move to: d\n', '@@\n', '@@ x\n', '-a\n', '+b\n', ' c\n', '\n', '<<<<<<< SEARCH\n', '=======\n', '>>>>>>> REPLACE\n', 'path.ts\n', '*** End of File\n', 'text', '\r\n', '\u0000', '💥', '*', '@'];
  // What models really write: padded markers, fences, a stray `>`, bare names, empty SEARCH, blank and one-space lines.
  const variants = [' *** Begin Patch\n', ' *** End Patch\n', '  *** Update File: b.txt\n', '  *** Add File: x\n', ' *** Delete File: c\n', ' *** Move to: d\n', ' *** End of File\n', ' *** Note\n', '```\n', '```python\n', '<<<<<<< SEARCH>\n', '>>>>>>> REPLACE>\n', 'Makefile\n', '...\n', 'Fix:\n', ' \n', '<<<<<<< SEARCH\n=======\n'];
  const pieces = [...alphabet, ...variants];
  /** The events, previews of unfinished lines aside (they depend on the chunking by design); those are checked on their own. */
  const eventsOf = (text: string, sizes: number[], truncated: boolean) => {
    const events: EditEvent[] = [];
    const parser = new EditStreamParser((event) => events.push(event));
    const previews = new Map<number, HunkLine>();
    const checkPreview = (event: EditEvent): boolean => {
      // A preview grows, then is the start of a line that follows in its hunk (after the
      // blank lines held before it), before the hunk completes; only a cut stream leaves one.
      const same = (preview: HunkLine, line: HunkLine) => line.kind === preview.kind && line.text.startsWith(preview.text);
      const where = () => JSON.stringify(text);
      if (event.type === 'hunk-partial') {
        const before = previews.get(event.hunkIndex);
        if (before) expect(same(before, event.line), `${JSON.stringify(before)} then ${JSON.stringify(event.line)} in ${where()}`).toBe(true);
        previews.set(event.hunkIndex, event.line);
      } else if (event.type === 'hunk-line') {
        const preview = previews.get(event.hunkIndex);
        if (preview && same(preview, event.line)) previews.delete(event.hunkIndex);
      } else if (event.type === 'hunk-complete') {
        expect(previews.get(event.hunkIndex), `a preview no line followed in ${where()}`).toBeUndefined();
      }
      return !isScreenPreview(event);
    };
    let offset = 0;
    for (const size of sizes.length > 0 ? sizes : [text.length]) {
      parser.push(text.slice(offset, offset + size));
      offset += size;
    }
    parser.push(text.slice(offset));
    parser.finish(truncated);
    return events.filter(checkPreview);
  };

  it('never throws, always finishes, gives the same events however it is chunked, and keeps hunk events in order, on random and mutated streams', () => {
    const random = seededRandom(42);
    const sources = [...Object.values(fixtures.ALL_FIXTURES)];
    for (let trial = 0; trial < 2000; trial += 1) {
      let text: string;
      if (trial % 2 === 0) {
        text = Array.from({ length: 1 + Math.floor(random() * 40) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      } else {
        const base = sources[trial % sources.length]!;
        const at = Math.floor(random() * base.length);
        const cut = Math.floor(random() * 20);
        text = base.slice(0, at) + pieces[Math.floor(random() * pieces.length)] + base.slice(at + cut);
      }
      const truncated = random() < 0.5;
      const sizes: number[] = [];
      for (let length = 0; length < text.length; length += sizes.at(-1)!) sizes.push(1 + Math.floor(random() * 9));
      const events = eventsOf(text, sizes, truncated);
      expect(events, JSON.stringify(text)).toEqual(eventsOf(text, [], truncated));
      expect(events.at(-1)?.type).toBe('done');
      const open = new Set<number>();
      for (const event of events) {
        if (event.type === 'hunk-open') open.add(event.hunkIndex);
        if (event.type === 'hunk-line' || event.type === 'hunk-complete') expect(open.has(event.hunkIndex)).toBe(true);
        if (event.type === 'hunk-complete') open.delete(event.hunkIndex);
      }
    }
  });
});

