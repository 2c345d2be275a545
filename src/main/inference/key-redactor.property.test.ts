import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { KEY_HIDDEN, KeyRedactor, shortestHiddenKeyStart } from './key-redactor';

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
 * What a whole stream should show, by brute force: every key replaced, then a start of the
 * key that ends the stream hidden too when it is `shortestHiddenKeyStart` long or more.
 */
function expectedShown(stream: string, key: string): string {
  const whole = stream.split(key).join(KEY_HIDDEN);
  const tail = longestKeyStart(stream.split(key).join('\u0000'), key);
  return tail.length >= shortestHiddenKeyStart(key.length) ? whole.slice(0, whole.length - tail.length) + KEY_HIDDEN : whole;
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
  it('emits exactly what a whole-string replace gives, and holds back only a possible key start', () => {
    const seed = baseSeed(20260613);
    const trials = trialCount(400, 20_000);
    for (let trial = 0; trial < trials; trial += 1) {
      const next = seededRandom(seed + trial);
      const alphabet = pick(next, ALPHABETS);
      const key = randomString(next, alphabet, 4 + Math.floor(next() * 20));
      const stream = randomStream(next, alphabet, key);
      const deltas = randomSplit(next, stream, next() < 0.3);
      const redactor = new KeyRedactor(key);
      let shown = '';
      let seen = '';
      for (const delta of deltas) {
        shown += redactor.push(delta);
        seen += delta;
        const held = redactor.held;
        const context = `seed ${seed + trial}, key ${JSON.stringify(key)}, deltas ${JSON.stringify(deltas)}`;
        expect(held.length, context).toBeLessThan(key.length);
        // What is held is the stream's tail, and nothing shorter would be safe to show.
        expect(shown + held, context).toBe(seen.split(key).join(KEY_HIDDEN));
        expect(held, context).toBe(longestKeyStart(seen.split(key).join('\u0000'), key));
      }
      shown += redactor.flush();
      expect(shown, `seed ${seed + trial}`).toBe(expectedShown(stream, key));
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
        expect(shown, context).toBe(expectedShown(deltas.slice(0, stop).join(''), key));
        // The marker ends in "]", which no test key holds: a key start at the end can only be shown text.
        expect(longestKeyStart(shown, key).length, context).toBeLessThan(shortestHiddenKeyStart(key.length));
      }
    }
  });

  it('hides a key split at every position across two deltas, whatever surrounds it', () => {
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
        expect(first + second, `key ${key}, cut ${cut}`).toBe(`${before}${KEY_HIDDEN}${after}`);
        expect(first).toBe(before);
      }
    }
  });
});
