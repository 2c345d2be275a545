import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { KEY_HIDDEN, KeyRedactor, longestShownKeyStart, shortestHiddenKeyStart } from './key-redactor';

/** A small alphabet makes keys that repeat their own start (the hard case for a matcher). */
const ALPHABETS = ['ab', 'abc-', 'sk-proj_0123456789ABCDEFabcdef'];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)]!;
}

function randomString(next: () => number, alphabet: string, length: number): string {
  let text = '';
  for (let index = 0; index < length; index += 1) text += pick(next, [...alphabet]);
  return text;
}

/** Splits `text` into deltas at random points (empty deltas included: providers send them). */
function randomSplit(next: () => number, text: string, oneCharacter: boolean): string[] {
  if (oneCharacter) return [...text];
  const deltas: string[] = [];
  let start = 0;
  while (start < text.length) {
    const length = Math.floor(next() * 12);
    deltas.push(text.slice(start, start + length));
    start += length;
  }
  return deltas;
}

/** The longest suffix of `text` that is a proper prefix of `key`, by brute force. */
function longestKeyStart(text: string, key: string): string {
  for (let length = Math.min(key.length - 1, text.length); length > 0; length -= 1) {
    if (key.startsWith(text.slice(text.length - length))) return text.slice(text.length - length);
  }
  return '';
}

/**
 * What `deltas` should show, by brute force: the whole stream's keys (and, with `ended`, a
 * hidden start at its end) each read as the marker, after those of its first characters
 * that ended an earlier delta while the stream so far ended in a key start no longer than
 * `longestShownKeyStart` (those were shown with their delta).
 */
function expectedStreamed(deltas: readonly string[], key: string, ended: boolean): string {
  const stream = deltas.join('');
  const hideFrom = shortestHiddenKeyStart(key.length);
  const showUpTo = longestShownKeyStart(key.length);
  const hidden: [number, number][] = [];
  for (let at = stream.indexOf(key); at !== -1; at = stream.indexOf(key, at + key.length)) hidden.push([at, at + key.length]);
  /** The stream up to `end` with the keys that end by then replaced (by a character no key holds). */
  const replacedUpTo = (end: number): string => {
    let text = '';
    let from = 0;
    for (const [start, stop] of hidden.filter(([, stop]) => stop <= end)) {
      text += stream.slice(from, start) + '\u0000';
      from = stop;
    }
    return text + stream.slice(from, end);
  };
  const tail = longestKeyStart(replacedUpTo(stream.length), key);
  if (ended && tail.length >= hideFrom) hidden.push([stream.length - tail.length, stream.length]);
  const boundaries: number[] = [];
  for (let end = 0, index = 0; index < deltas.length - 1; index += 1) boundaries.push((end += deltas[index]!.length));
  let shown = '';
  let from = 0;
  for (const [start, stop] of hidden) {
    const early = boundaries.filter((end) => end > start && end < stop && longestKeyStart(replacedUpTo(end), key).length <= showUpTo);
    shown += stream.slice(from, start) + key.slice(0, Math.max(0, ...early.map((end) => end - start))) + KEY_HIDDEN;
    from = stop;
  }
  return shown + stream.slice(from);
}

/** Prose from the key's alphabet (so near-misses abound), with the key and starts of it planted at random. */
function randomStream(next: () => number, alphabet: string, key: string): string {
  let stream = '';
  for (let part = Math.floor(next() * 6); part >= 0; part -= 1) {
    stream += randomString(next, alphabet, Math.floor(next() * 30));
    if (next() < 0.6) stream += next() < 0.2 ? key.slice(0, 1 + Math.floor(next() * (key.length - 1))) : key;
  }
  // A third of the streams stop mid-key, as a dropped or cancelled answer can.
  if (next() < 0.3) stream += key.slice(0, 1 + Math.floor(next() * (key.length - 1)));
  return stream;
}

describe('KeyRedactor, for any split of any stream', () => {
  it('emits what a whole-string replace gives, and holds back only a key start longer than three characters', () => {
    const seed = baseSeed(20260613);
    const trials = trialCount(400, 20_000);
    for (let trial = 0; trial < trials; trial += 1) {
      const next = seededRandom(seed + trial);
      const alphabet = pick(next, ALPHABETS);
      const key = randomString(next, alphabet, 4 + Math.floor(next() * 20));
      const showUpTo = longestShownKeyStart(key.length);
      const stream = randomStream(next, alphabet, key);
      const deltas = randomSplit(next, stream, next() < 0.3);
      const redactor = new KeyRedactor(key);
      let shown = '';
      for (const [index, delta] of deltas.entries()) {
        shown += redactor.push(delta);
        const seen = deltas.slice(0, index + 1);
        const held = redactor.held;
        const context = `seed ${seed + trial}, key ${JSON.stringify(key)}, deltas ${JSON.stringify(deltas)}`;
        expect(held.length, context).toBeLessThan(key.length);
        // What is held is the stream's tail, and only while that tail is a start of the key too long to show at once.
        expect(shown + held, context).toBe(expectedStreamed(seen, key, false));
        const keyStart = longestKeyStart(seen.join('').split(key).join('\u0000'), key);
        if (keyStart.length <= showUpTo) expect(held, context).toBe('');
        else expect(keyStart.endsWith(held), context).toBe(true);
      }
      shown += redactor.flush();
      expect(shown, `seed ${seed + trial}`).toBe(expectedStreamed(deltas, key, true));
      // Whole keys never show (the oracle above pins how much of one shows before its marker).
      expect(shown.includes(key), `seed ${seed + trial}`).toBe(false);
    }
  });

  it('ends a stream at any point showing less than the threshold’s worth of a key start at the end', () => {
    const seed = baseSeed(20260614);
    for (let trial = 0; trial < trialCount(100, 5_000); trial += 1) {
      const next = seededRandom(seed + trial);
      const alphabet = pick(next, ALPHABETS);
      const key = randomString(next, alphabet, 4 + Math.floor(next() * 20));
      const stream = randomStream(next, alphabet, key);
      const deltas = randomSplit(next, stream, false);
      // Ended (completed, failed, cancelled, dropped) after each delta in turn.
      for (let stop = 0; stop <= deltas.length; stop += 1) {
        const redactor = new KeyRedactor(key);
        const shown = deltas.slice(0, stop).map((delta) => redactor.push(delta)).join('') + redactor.flush();
        const context = `seed ${seed + trial}, key ${JSON.stringify(key)}, deltas ${JSON.stringify(deltas.slice(0, stop))}`;
        expect(shown, context).toBe(expectedStreamed(deltas.slice(0, stop), key, true));
        // The marker ends in "]", which no test key holds: a key start at the end can only be shown text.
        expect(longestKeyStart(shown, key).length, context).toBeLessThan(shortestHiddenKeyStart(key.length));
      }
    }
  });

  it('hides a key split at every position across two deltas, showing at most its first three characters', () => {
    const next = seededRandom(baseSeed(77));
    for (let trial = 0; trial < trialCount(60, 2_000); trial += 1) {
      const key = randomString(next, pick(next, ALPHABETS), 4 + Math.floor(next() * 40));
      const before = randomString(next, 'xyz ', Math.floor(next() * 10));
      const after = randomString(next, 'xyz ', Math.floor(next() * 10));
      const stream = `${before}${key}${after}`;
      for (let cut = before.length + 1; cut < before.length + key.length; cut += 1) {
        const redactor = new KeyRedactor(key);
        const first = redactor.push(stream.slice(0, cut));
        const second = redactor.push(stream.slice(cut)) + redactor.flush();
        // The first delta shows the key's start only while it is at most `longestShownKeyStart` long.
        const start = cut - before.length <= longestShownKeyStart(key.length) ? key.slice(0, cut - before.length) : '';
        expect(first + second, `key ${key}, cut ${cut}`).toBe(`${before}${start}${KEY_HIDDEN}${after}`);
        expect(first).toBe(`${before}${start}`);
      }
    }
  });
});
