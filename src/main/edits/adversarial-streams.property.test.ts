/**
 * Adversarial model output through the parser and anchoring: long runs of the characters
 * that made regexes backtrack (whitespace, `*`, backticks, quotes, colons, `@@`, `-`/`+`),
 * inside markers and headers with huge paths, in random chunkings, against files that
 * have such lines too. The result never depends on the chunking, and the work grows
 * linearly with the input (a growth ratio, never a duration: the bench has the figure).
 *
 * It tests shared code but lives in main, where that code runs on the main thread: the
 * soak sizing reads process.env, which the renderer's typecheck of src/shared rejects.
 */
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { AnchorableFile, anchorHunk, type AnchorResult } from '../../shared/edits/anchor-hunk';
import { parseAnswer } from '../../../test/helpers/collect-answer';
import { oldLinesOf, type ParsedAnswer } from '../../shared/edits/edit-types';
import { growthRatio, LINEAR_GROWTH_BOUND } from '../../../test/fixtures/growth';

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
      expect(await growthRatio(run, 1_000), `FLINT_SEED=${seed}`).toBeLessThan(LINEAR_GROWTH_BOUND);
    }
  });
});
