/**
 * A plain paragraph read without the parser renders exactly as the parser renders it: on
 * random text of plain words and the characters Markdown is made of, and on every prefix of
 * a streamed answer (what the open block is, frame by frame). Whatever the reader takes, the
 * HTML is the parser's, byte for byte.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../../../test/helpers/soak';
import { markdownElement, parsedElement } from './markdown-element';
import { plainParagraph } from './plain-paragraph';

const html = (element: ReturnType<typeof parsedElement>): string => renderToStaticMarkup(element);

/** What plain text is made of: words of several scripts, spaces, line breaks, punctuation, backticks. */
const PLAIN_PIECES = [
  ...['word', 'Plain', 'é', 'naïve', 'данные', '数据', 'x', 'b', '42', '1', 'www', 'WWW', 'http', 'mailto'],
  ...[' ', ' ', ' ', ' ', '  ', '\n', '\n', '\n\n'],
  ...['.', ',', ';', ':', '?', '!', "'", '"', '(', ')', '-', '--', '`', '`', '``', '```'],
];
/** Every character some Markdown construct starts or ends with, and odd spaces. */
const SYNTAX_PIECES = ['*', '**', '_', '~', '~~', '[', ']', '<', '>', '&', '&amp;', '\\', '#', '|', '=', '+', '/', '//', '{', '$', '%', '^', '@', '\t', '\u00a0', '\r', '\0', '\r\n'];

const pick = (random: () => number, pieces: readonly string[]): string => pieces[Math.floor(random() * pieces.length)]!;

/** Mostly plain pieces (so the reader often takes the text), now and then syntax. */
function randomText(random: () => number): string {
  let text = random() < 0.5 ? 'Start' : '';
  const length = 1 + Math.floor(random() * 24);
  const syntax = random() * 0.2;
  for (let index = 0; index < length; index += 1) text += pick(random, random() < syntax ? SYNTAX_PIECES : PLAIN_PIECES);
  return text;
}

describe('plainParagraph', () => {
  it('renders what the parser renders, whenever it reads a paragraph itself (random text)', () => {
    const seed = baseSeed(22);
    const random = seededRandom(seed);
    let read = 0;
    const trials = trialCount(4_000, 200_000);
    for (let trial = 0; trial < trials; trial += 1) {
      const text = randomText(random);
      if (plainParagraph(text) === null) continue;
      read += 1;
      expect(html(markdownElement(text)), `seed ${seed}, trial ${trial}: ${JSON.stringify(text)}`).toBe(html(parsedElement(text)));
    }
    // The reader must take a fair share, or this checks nothing.
    expect(read).toBeGreaterThan(trials / 10);
  });

  it('renders what the parser renders at every prefix of a streamed answer (the open block, frame by frame)', () => {
    const answer = 'The loop in `parse()` reads one line past the end:\nit checks `i < n` after it reads `lines[i + 1]`, so the last call returns `undefined`.\nMove the check first.\n\n';
    let read = 0;
    for (let end = 1; end <= answer.length; end += 1) {
      const block = answer.slice(0, end);
      if (plainParagraph(block) !== null) read += 1;
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
