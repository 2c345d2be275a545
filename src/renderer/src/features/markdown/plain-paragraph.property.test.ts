/**
 * A plain paragraph read without the parser renders exactly as the parser renders it: on
 * random text of plain words and the characters Markdown is made of, and on every prefix of
 * a streamed answer (what the open block is, frame by frame). Whatever the reader takes, the
 * HTML is the parser's, byte for byte.
 */
import { Fragment, isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../../../test/helpers/soak';
import { markdownElement, parsedElement, plainElement } from './markdown-element';
import { plainParagraph, type PlainRun } from './plain-paragraph';

const html = (element: ReactElement): string => renderToStaticMarkup(element);

/** An element tree as React reconciles it: types, keys, props (the parser's hast `node` aside), children. */
function tree(node: ReactNode): unknown {
  if (Array.isArray(node)) return node.map(tree);
  if (!isValidElement(node)) return node;
  const { children, node: _hast, ...props } = node.props as { children?: ReactNode; node?: unknown };
  const type = node.type === Fragment ? 'Fragment' : node.type;
  return { type, key: node.key, props: Object.fromEntries(Object.entries(props).filter(([, value]) => value !== undefined)), children: tree(children) };
}

/** The fast path against the parser for `text`, which plainParagraph read as `runs`: the same HTML and the same element tree. */
function expectAsParsed(text: string, runs: PlainRun[], context: string): void {
  const parsed = parsedElement(text);
  expect(html(plainElement(runs)), context).toBe(html(parsed));
  expect(tree(plainElement(runs)), context).toEqual(tree(parsed));
}

/** What plain text is made of: words of several scripts, spaces, line breaks, punctuation, backticks. */
const PLAIN_PIECES = [
  ...['word', 'Plain', 'é', 'naïve', 'данные', '数据', 'x', 'b', '42', '1', 'www', 'WWW', 'http', 'mailto'],
  ...[' ', ' ', ' ', ' ', '  ', '\n', '\n', '\n\n'],
  ...['.', ',', ';', ':', '?', '!', "'", '"', '(', ')', '-', '--', '`', '`', '``', '```', '`f(x)`', '` a  b `'],
];
/** Every character some Markdown construct starts or ends with, and odd spaces. */
const SYNTAX_PIECES = ['*', '**', '_', '~', '~~', '[', ']', '<', '>', '&', '&amp;', '\\', '#', '|', '=', '+', '/', '//', '{', '$', '%', '^', '@', '\t', '\u00a0', '\r', '\0', '\r\n'];
/** Odd characters of Unicode: whitespace and line separators CommonMark does not count, a soft hyphen, a BOM, a combining mark, an astral letter. */
const ODD_PIECES = ['\f', '\v', '\u2028', '\u3000', '\ufeff', '\u00ad', 'e\u0301', '\u{1d49c}', 'ǃ'];

const pick = (random: () => number, pieces: readonly string[]): string => pieces[Math.floor(random() * pieces.length)]!;

/** Mostly plain pieces (so the reader often takes the text), now and then syntax. */
function randomText(random: () => number): string {
  let text = random() < 0.5 ? 'Start' : '';
  const length = 1 + Math.floor(random() * 24);
  const syntax = random() * 0.2;
  for (let index = 0; index < length; index += 1) {
    const roll = random();
    text += pick(random, roll < syntax ? SYNTAX_PIECES : roll < syntax + 0.03 ? ODD_PIECES : PLAIN_PIECES);
  }
  return text;
}

describe('plainParagraph', () => {
  it('renders what the parser renders, whenever it reads a paragraph itself (random text)', () => {
    const seed = baseSeed(22);
    const random = seededRandom(seed);
    const read = { any: 0, code: 0, lines: 0 };
    const trials = trialCount(4_000, 200_000);
    for (let trial = 0; trial < trials; trial += 1) {
      const text = randomText(random);
      const runs = plainParagraph(text);
      if (runs === null) continue;
      read.any += 1;
      if (runs.some((run) => 'code' in run)) read.code += 1;
      if (text.trim().includes('\n')) read.lines += 1;
      expectAsParsed(text, runs, `seed ${seed}, trial ${trial}: ${JSON.stringify(text)}`);
    }
    // The reader must take a fair share of each kind, or this checks nothing.
    expect(read.any).toBeGreaterThan(trials / 10);
    expect(read.code).toBeGreaterThan(trials / 200);
    // Multi-line plain text is the rarest: 29-45 in 4,000 trials over a thousand seeds, but for two (18).
    expect(read.lines).toBeGreaterThan(trials / 400);
  });

  it('renders what the parser renders at every prefix of a streamed answer (the open block, frame by frame)', () => {
    const answer = 'The loop in `parse()` reads one line past the end:\nit checks `i < n` after it reads `lines[i + 1]`, so the last call returns `undefined`.\nMove the check first.\n\n';
    let read = 0;
    for (let end = 1; end <= answer.length; end += 1) {
      const block = answer.slice(0, end);
      const runs = plainParagraph(block);
      if (runs !== null) {
        read += 1;
        expectAsParsed(block, runs, JSON.stringify(block));
      }
      // What the views render, whichever path it takes.
      expect(html(markdownElement(block)), JSON.stringify(block)).toBe(html(parsedElement(block)));
    }
    expect(read).toBeGreaterThan(answer.length / 2);
  });

  it('reads words, soft line breaks and code spans; trims what CommonMark trims', () => {
    expect(plainParagraph('Two lines\nof words, (plain); yes?  \n\n')).toEqual([{ text: 'Two lines\nof words, (plain); yes?' }]);
    expect(plainParagraph('Call ` f(x) ` or `a  b` then `')).toEqual([{ text: 'Call ' }, { code: 'f(x)' }, { text: ' or ' }, { code: 'a  b' }, { text: ' then `' }]);
    expect(plainParagraph('`<b>*x*</b>` is code')).toEqual([{ code: '<b>*x*</b>' }, { text: ' is code' }]);
  });

  it('leaves to the parser what it does not read: emphasis, links, HTML, entities, escapes, autolinks, markers, hard breaks, long code', () => {
    for (const text of ['a *b*', 'a _b_', 'see [x]', 'a <b>', 'a &amp; b', 'a \\* b', 'go to www.example.com', '# Title', '1. one', '- item', '> quote', 'a  \nb', 'a\n b', 'a ``b`` c', '```ts', 'a `b\nc`', 'a | b', 'Title\n===', '', '\n\nword', 'tab\there', 'a\u00a0b']) {
      expect(plainParagraph(text), JSON.stringify(text)).toBeNull();
    }
  });
});
