import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../../test/helpers/seeded-random';
import { splitMarkdown, type MarkdownBlocks } from './markdown-blocks';

const ANSWER = [
  '# Walk-through',
  '',
  'The parser reads whole lines.',
  'It holds a few.',
  '',
  '```ts',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  '',
  '- one',
  '- two',
  '',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  'The end',
].join('\n');

/** What the blocks render: the closed ones, then the open one. */
const blocksOf = (split: MarkdownBlocks): string[] => [...split.closed, split.source.slice(split.openStart)];

describe('splitMarkdown', () => {
  it('cuts after blank lines, never inside a code fence, and loses no character', () => {
    const split = splitMarkdown(ANSWER);
    expect(blocksOf(split)).toEqual([
      '# Walk-through\n\n',
      'The parser reads whole lines.\nIt holds a few.\n\n',
      '```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n',
      '- one\n- two\n\n\n',
      '| a | b |\n|---|---|\n| 1 | 2 |\n\n',
      'The end',
    ]);
    expect(blocksOf(split).join('')).toBe(ANSWER);
  });

  it('gives the same blocks however the text grew, and never changes a closed block but by blank lines', () => {
    const random = seededRandom(5);
    for (let trial = 0; trial < 50; trial += 1) {
      let split: MarkdownBlocks | undefined;
      let length = 0;
      while (length < ANSWER.length) {
        length = Math.min(ANSWER.length, length + 1 + Math.floor(random() * 12));
        const before = split?.closed ?? [];
        split = splitMarkdown(ANSWER.slice(0, length), split);
        for (const [index, block] of before.entries()) expect(split.closed[index]!.trimEnd()).toBe(block.trimEnd());
      }
      expect(blocksOf(split!)).toEqual(blocksOf(splitMarkdown(ANSWER)));
    }
  });

  it('reads each line once as the text grows: a later split starts where the last one stopped', () => {
    const first = splitMarkdown('Intro\n\nA line\n');
    const next = splitMarkdown('Intro\n\nA line\nmore', first);
    expect(next.scanned).toBe(first.scanned);
    expect(next.closed).toEqual(['Intro\n\n']);
  });

  it('starts again when the text is not a continuation (another conversation)', () => {
    const first = splitMarkdown('Intro\n\nA line\n');
    expect(blocksOf(splitMarkdown('Other\n', first))).toEqual(['Other\n']);
  });

  it('keeps a tilde fence open through backtick lines, and closes it only with as long a fence', () => {
    expect(blocksOf(splitMarkdown('~~~~\n```\n\n~~~\n\n~~~~\n\nafter'))).toEqual(['~~~~\n```\n\n~~~\n\n~~~~\n\n', 'after']);
  });
});
