/**
 * Adversarial model output through the parser and anchoring: long runs of the characters
 * that made regexes backtrack (whitespace, `*`, backticks, quotes, colons, `@@`, `-`/`+`),
 * inside markers and headers with huge paths, in random chunkings, against files that
 * have such lines too. The result never depends on the chunking, and the work grows
 * linearly with the input (a growth ratio, never a duration: the bench has the figure).
 *
 * It tests shared code but lives in main, where that code runs on the main thread: the
 * soak sizing reads process.env, which the renderer's typecheck of src/shared rejects.
 *
 * The second half streams the variants models really write (padded markers, fences, bare
 * file names, a stray `>`, empty SEARCH, blank separators, hunks without context) and
 * checks what must hold on every one: the same events however chunked, no throw, and no
 * hunk line the answer didn't write.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { AnchorableFile, anchorHunk, type AnchorResult } from '../../shared/edits/anchor-hunk';
import { parseAnswer } from '../../../test/helpers/collect-answer';
import { EditStreamParser } from '../../shared/edits/edit-stream-parser';
import { isScreenPreview, oldLinesOf, type EditEvent, type EditFormat, type EditStreamParserOptions, type HunkLine, type ParsedAnswer } from '../../shared/edits/edit-types';
import { LINEAR_WORK_BOUND, workGrowth } from '../../../test/helpers/work-growth';

const RUNS = [' ', '\t', '*', '`', '"', "'", ':', '@', '-', '+', '#', '=', '<', '>', '/', '.', '\r', '\u00a0', '\u2028', '\u201c', 'a'];
const MARKERS = [
  '*** Begin Patch', '*** End Patch', '*** Update File: ', '*** Add File: ', '*** Delete File: ', '*** Move to: ', '*** End of File',
  '@@ ', '@@ -1,2 +3,4 @@ ', '<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE', '-', '+', ' ', '## ', '- **', '',
];
const BETWEEN = ['', 'x', 'a.ts', 'src/', '.', ' ', '\0'];

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** A marker, then runs of single characters (each up to `runLength` long) with a little text between. */
function adversarialLine(random: Random, runLength: number): string {
  const parts = [pick(random, MARKERS)];
  const runs = 1 + Math.floor(random() * 3);
  for (let run = 0; run < runs; run += 1) parts.push(pick(random, RUNS).repeat(1 + Math.floor(random() * runLength)), pick(random, BETWEEN));
  return parts.join('');
}

/** Lines of adversarial text, inside a patch envelope half the time; its shape depends on the seed only, not on `runLength`. */
function adversarialAnswer(random: Random, runLength: number): string {
  const lines = Array.from({ length: 1 + Math.floor(random() * 24) }, () => adversarialLine(random, runLength));
  const text = lines.join(random() < 0.2 ? '\r\n' : '\n');
  return random() < 0.5 ? `*** Begin Patch\n*** Update File: a.ts\n${text}\n*** End Patch\n` : text;
}

/**
 * A file with long runs of its own, and blocks holding the old lines of some of the
 * answer's hunks (some with the drift anchoring tolerates), so that hunks do anchor.
 */
function adversarialFile(random: Random, answer: string, runLength: number): AnchorableFile {
  const blocks = Array.from({ length: 1 + Math.floor(random() * 12) }, () => [adversarialLine(random, runLength)]);
  for (const hunk of parseAnswer(answer).files.flatMap((file) => file.hunks)) {
    if (random() < 0.3) continue;
    const drift = pick(random, [(line: string) => line, (line: string) => `${line}  `, (line: string) => `    ${line}`, (line: string) => `${line}\n`]);
    blocks.push(oldLinesOf(hunk.lines).flatMap((line) => drift(line).split('\n')));
  }
  for (let index = blocks.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [blocks[index], blocks[other]] = [blocks[other]!, blocks[index]!];
  }
  return new AnchorableFile(blocks.flat());
}

/** Random delta sizes: one character at a time, small tokens, or big network reads. */
function chunking(random: Random, length: number): number[] {
  const style = random();
  if (style < 0.2 && length < 64_000) return [1];
  const largest = style < 0.6 ? 16 : 8192;
  return Array.from({ length: 32 }, () => 1 + Math.floor(random() * largest));
}

/** Parses the answer in the given deltas and anchors each complete hunk in the file. */
function pipeline(answer: string, chunkSizes: readonly number[], file: AnchorableFile): { parsed: ParsedAnswer; anchored: AnchorResult[] } {
  const parsed = parseAnswer(answer, chunkSizes);
  const anchored = parsed.files.flatMap((parsedFile) => parsedFile.hunks.filter((hunk) => hunk.complete).map((hunk) => anchorHunk(file, hunk)));
  return { parsed, anchored };
}

describe('adversarial model output (property)', () => {
  const firstSeed = baseSeed(9_000);

  it('parses and anchors the same whatever the chunking', () => {
    for (let trial = 0; trial < trialCount(200, 5_000); trial += 1) {
      const seed = firstSeed + trial;
      const random = seededRandom(seed);
      const answer = adversarialAnswer(random, 1 + Math.floor(random() * 3_000));
      const file = adversarialFile(random, answer, 1 + Math.floor(random() * 3_000));
      const whole = pipeline(answer, [answer.length], file);
      for (let rechunk = 0; rechunk < 3; rechunk += 1) {
        expect(pipeline(answer, chunking(random, answer.length), file), `FLINT_SEED=${seed}`).toEqual(whole);
      }
    }
  });

  it('parses and anchors in time linear in the size of the answer and the file', async () => {
    for (let trial = 0; trial < trialCount(3, 40); trial += 1) {
      const seed = firstSeed + trial;
      // The same seed gives the same shape at every size: only the runs grow.
      const run = (runLength: number) => {
        const random = seededRandom(seed);
        const answer = adversarialAnswer(random, runLength);
        pipeline(answer, chunking(random, Infinity), adversarialFile(random, answer, runLength));
      };
      expect(await workGrowth(run, 1_000), `FLINT_SEED=${seed}`).toBeLessThanOrEqual(LINEAR_WORK_BOUND);
    }
  });
});

const PROJECT_FILES = new Set(['Makefile', 'src/a.ts', 'My Notes.md']);
const PATHS = ['Makefile', 'Dockerfile', 'src/a.ts', '`src/b.py`:', '**My Notes.md**', 'My Notes.md', '...', 'Fix:', '---', 'Here is the change:', ''];
const FENCES = ['', '', '```', '```python', '~~~'];
const BODY = ['x = 1', '', '    indented', '+plus', '-minus', ' space', '*** End Patch', '  *** Update File: z', '```', '<<<<<<< SEARCH', '=== not a divider'];
const HUNK_LINES = ['-old', '+new', ' context', '', ' ', 'unprefixed', '+*** End Patch', '-*** Update File: z', ' *** Note', '  *** End Patch', '\t*** Add File: y'];
const PROSE = ['Here is the fix.', '', 'Makefile', 'src/a.ts', '```', '```ts', '...', '---', '## Summary', 'Done.', ' *** Note'];
const padded = (random: Random, marker: string) => pick(random, ['', '', ' ', '  ', '\t']) + marker;
const some = (random: Random, items: readonly string[], most: number) => Array.from({ length: Math.floor(random() * (most + 1)) }, () => pick(random, items));

/** A search/replace block in one of the layouts models use: path then fence, fence then path, either alone, or neither. */
function searchReplaceBlock(random: Random): string[] {
  const path = pick(random, PATHS);
  const fence = pick(random, FENCES);
  const header = random() < 0.5 ? [path, fence] : [fence, path];
  if (random() < 0.3) header.splice(1, 0, '');
  const search = random() < 0.2 ? [] : some(random, BODY, 3);
  const lines = [...header.filter((line, index) => line !== '' || index === 1), pick(random, ['<<<<<<< SEARCH', '<<<<<<< SEARCH>', '<<<<<<<SEARCH']), ...search];
  lines.push('=======', ...some(random, BODY, 3), pick(random, ['>>>>>>> REPLACE', '>>>>>>> REPLACE>']));
  if (fence !== '' && random() < 0.8) lines.push(...(random() < 0.3 ? [''] : []), fence[0]!.repeat(3));
  return lines;
}

/** A V4A envelope with padded markers, blank lines between sections and hunks, hunks without context, in a fence or not. */
function patchEnvelope(random: Random): string[] {
  const lines = random() < 0.8 ? [padded(random, '*** Begin Patch')] : [];
  for (let section = 0; section < 1 + Math.floor(random() * 3); section += 1) {
    const operation = pick(random, ['Update', 'Update', 'Add', 'Delete']);
    lines.push(padded(random, `*** ${operation} File: ${pick(random, ['a.ts', 'b.txt', 'Makefile'])}`), ...some(random, [''], 1));
    if (operation === 'Add') lines.push(...some(random, ['+added', '', '+', '+*** End Patch'], 4));
    if (operation !== 'Update') continue;
    if (random() < 0.2) lines.push(padded(random, '*** Move to: moved.ts'));
    for (let hunk = 0; hunk < 1 + Math.floor(random() * 3); hunk += 1) {
      lines.push(...some(random, ['@@', '@@ def f():', '@@ -1,2 +1,2 @@'], 2), ...some(random, HUNK_LINES, 5), ...some(random, [''], 2));
      if (random() < 0.2) lines.push(padded(random, '*** End of File'), ...some(random, [''], 2));
    }
  }
  if (random() < 0.8) lines.push(padded(random, '*** End Patch'));
  const fence = pick(random, FENCES);
  return fence === '' ? lines : [fence, ...lines, ...(random() < 0.8 ? [fence[0]!.repeat(3)] : [])];
}

/** Prose, blocks and envelopes in any order, with CRLF sometimes and an unfinished last line sometimes. */
function variantAnswer(random: Random): string {
  const lines: string[] = [];
  for (let piece = 0; piece < 1 + Math.floor(random() * 6); piece += 1) {
    lines.push(...pick(random, [() => some(random, PROSE, 3), () => searchReplaceBlock(random), () => patchEnvelope(random)])());
  }
  const text = lines.join(random() < 0.15 ? '\r\n' : '\n');
  return random() < 0.8 ? `${text}\n` : text;
}

function eventsOf(answer: string, chunkSizes: readonly number[], truncated: boolean, options: EditStreamParserOptions): EditEvent[] {
  const events: EditEvent[] = [];
  const parser = new EditStreamParser((event) => events.push(event), options);
  let offset = 0;
  for (let index = 0; offset < answer.length; index += 1) {
    const size = chunkSizes[index % chunkSizes.length]!;
    parser.push(answer.slice(offset, offset + size));
    offset += size;
  }
  parser.finish(truncated);
  // Previews of unfinished lines depend on the chunking by design (edit-stream-parser.test.ts checks them).
  return events.filter((event) => !isScreenPreview(event));
}

/** A line the parser reads as an envelope marker once trimmed (never content of a patch, except behind its `+`/`-`). */
function isEnvelopeLine(line: string): boolean {
  const trimmed = line.trim();
  if (['*** Begin Patch', '*** End Patch', '*** End of File'].includes(trimmed)) return true;
  const marker = ['*** Update File:', '*** Add File:', '*** Delete File:', '*** Move to:'].find((prefix) => trimmed.startsWith(prefix));
  return marker !== undefined && !/[\r\u2028\u2029]/.test(trimmed.slice(marker.length).trim());
}

/** Whether `line` of the answer is where `hunkLine` came from: the line itself, or the line without the prefix of its kind. */
function isSourceOf(line: string, hunkLine: HunkLine, inPatch: boolean): boolean {
  const prefix = hunkLine.kind === 'add' ? '+' : hunkLine.kind === 'remove' ? '-' : ' ';
  if (line[0] === prefix && line.slice(1) === hunkLine.text) return !(inPatch && hunkLine.kind === 'context' && isEnvelopeLine(line));
  return line === hunkLine.text && !(inPatch && isEnvelopeLine(line));
}

/** The first hunk line the answer didn't write, in order (null if none): the parser only ever strips a known prefix. */
function inventedHunkLine(answer: string, events: readonly EditEvent[]): HunkLine | null {
  const lines = answer.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const formats = new Map<number, EditFormat>();
  const fileOfHunk = new Map<number, number>();
  let next = 0;
  for (const event of events) {
    if (event.type === 'file') formats.set(event.fileIndex, event.format);
    if (event.type === 'hunk-open') fileOfHunk.set(event.hunkIndex, event.fileIndex);
    if (event.type !== 'hunk-line') continue;
    const inPatch = formats.get(fileOfHunk.get(event.hunkIndex)!) === 'patch';
    while (next < lines.length && !isSourceOf(lines[next]!, event.line, inPatch)) next += 1;
    if (next === lines.length) return event.line;
    next += 1;
  }
  return null;
}

describe('edit variants models write (property)', () => {
  const firstSeed = baseSeed(19_000);

  it('gives the same events however chunked, never throws, and never writes a hunk line the answer didn’t', () => {
    for (let trial = 0; trial < trialCount(1_000, 50_000); trial += 1) {
      const seed = firstSeed + trial;
      const random = seededRandom(seed);
      const answer = variantAnswer(random);
      const options = random() < 0.5 ? { isProjectPath: (candidate: string) => PROJECT_FILES.has(candidate) } : {};
      const truncated = random() < 0.3;
      const whole = eventsOf(answer, [answer.length || 1], truncated, options);
      expect(whole.at(-1), `FLINT_SEED=${seed}`).toEqual({ type: 'done', truncated });
      expect(inventedHunkLine(answer, whole), `FLINT_SEED=${seed}`).toBeNull();
      for (let rechunk = 0; rechunk < 3; rechunk += 1) {
        expect(eventsOf(answer, chunking(random, answer.length), truncated, options), `FLINT_SEED=${seed}`).toEqual(whole);
      }
    }
  });
});
