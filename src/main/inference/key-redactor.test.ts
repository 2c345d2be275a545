import { describe, expect, it } from 'vitest';
import { KEY_HIDDEN, KeyRedactor, longestShownKeyStart, redactAndCut, redactKey, shortestHiddenKeyStart } from './key-redactor';

const KEY = 'sk-live-4f9Qz7Lm2Xc8Vb1Nr6Tw';

/** Everything a redactor emits for `deltas`, flush included, and each push's output. */
function run(key: string | null, deltas: readonly string[]): { text: string; pieces: string[] } {
  const redactor = new KeyRedactor(key);
  const pieces = deltas.map((delta) => redactor.push(delta));
  pieces.push(redactor.flush());
  return { text: pieces.join(''), pieces };
}

describe('KeyRedactor', () => {
  it('hides a key that arrives inside one delta', () => {
    expect(run(KEY, [`Authorization: Bearer ${KEY}, as you sent it.`]).text).toBe(`Authorization: Bearer ${KEY_HIDDEN}, as you sent it.`);
  });

  it('hides a key split across two deltas at every position, after at most its public start', () => {
    const stream = `You sent "Bearer ${KEY}" to us.`;
    const keyStart = stream.indexOf(KEY);
    for (let cut = keyStart + 1; cut < keyStart + KEY.length; cut += 1) {
      const { text, pieces } = run(KEY, [stream.slice(0, cut), stream.slice(cut)]);
      // The first delta's part of the key shows only while it is 3 characters at most ("sk-"); a longer one is held back.
      const start = cut - keyStart <= 3 ? KEY.slice(0, cut - keyStart) : '';
      expect(text, `cut at ${cut}`).toBe(`You sent "Bearer ${start}${KEY_HIDDEN}" to us.`);
      expect(pieces[0]).toBe(`You sent "Bearer ${start}`);
    }
  });

  it('hides a key that arrives one character per delta', () => {
    const stream = `a ${KEY} b ${KEY}${KEY} c`;
    const { text, pieces } = run(KEY, [...stream]);
    const start = KEY.slice(0, 3);
    expect(text).toBe(`a ${start}${KEY_HIDDEN} b ${start}${KEY_HIDDEN}${start}${KEY_HIDDEN} c`);
    // Nothing of the key leaves but "sk-": each piece is one character or the placeholder.
    expect(pieces.filter((piece) => piece.length > 1)).toEqual([KEY_HIDDEN, KEY_HIDDEN, KEY_HIDDEN]);
  });

  it('shows a delta ending in a start of the key of up to 3 characters at once, and holds back a longer one', () => {
    const redactor = new KeyRedactor(KEY);
    expect(longestShownKeyStart(KEY.length)).toBe(3);
    // A delta that ends in "s" or "sk-" is not kept waiting for the next one.
    expect(redactor.push('ends in s')).toBe('ends in s');
    expect(redactor.push(': the prefix is sk-')).toBe(': the prefix is sk-');
    expect(redactor.held).toBe('');
    // Past 3 characters, held until the stream tells.
    expect(redactor.push('li')).toBe('');
    expect(redactor.held).toBe('li');
    expect(redactor.push('ve and then')).toBe('live and then');
    expect(redactor.held).toBe('');
    // Four characters in one delta: all held.
    expect(redactor.push(' sk-l')).toBe(' ');
    expect(redactor.held).toBe('sk-l');
    // Never the key, and shorter than the threshold to hide: shown at the end.
    expect(redactor.flush()).toBe('sk-l');
    expect(redactor.flush()).toBe('');
  });

  it('shows at most 3 characters of a key, and fewer of a short one', () => {
    expect([4, 5, 6, 7, 8, 40].map(longestShownKeyStart)).toEqual([1, 2, 2, 3, 3, 3]);
    expect(run('abcdefg', ['x abc', 'defg']).text).toBe(`x abc${KEY_HIDDEN}`);
    expect(run('abcdefg', ['x abcd', 'efg']).text).toBe(`x ${KEY_HIDDEN}`);
    expect(run('abcd', ['x ab', 'cd']).text).toBe(`x ${KEY_HIDDEN}`);
    expect(run('abcd', ['x a', 'bcd']).text).toBe(`x a${KEY_HIDDEN}`);
  });

  it('hides a stream that ends mid-key, at every length from 8 characters of the key on', () => {
    const hideFrom = shortestHiddenKeyStart(KEY.length);
    expect(hideFrom).toBe(8);
    for (let length = 1; length < KEY.length; length += 1) {
      const piece = KEY.slice(0, length);
      const whole = run(KEY, ['Bearer ', piece]).text;
      expect(whole, `${length} characters of the key in one delta`).toBe(length < hideFrom ? `Bearer ${piece}` : `Bearer ${KEY_HIDDEN}`);
      // A character at a time, its first 3 were shown as they came.
      const { text } = run(KEY, ['Bearer ', ...piece]);
      expect(text, `${length} characters of the key`).toBe(length < hideFrom ? `Bearer ${piece}` : `Bearer ${KEY.slice(0, 3)}${KEY_HIDDEN}`);
      expect(text).not.toContain(KEY.slice(0, hideFrom));
    }
  });

  it('hides half or more of a short key at the end, and lets a shorter start through', () => {
    expect([4, 5, 9, 15, 16, 40].map(shortestHiddenKeyStart)).toEqual([2, 3, 5, 8, 8, 8]);
    expect(run('abcdefghij', ['x abcd']).text).toBe('x abcd');
    expect(run('abcdefghij', ['x abcde']).text).toBe(`x ${KEY_HIDDEN}`);
  });

  it('hides a long held tail when flushed mid-stream, and starts afresh', () => {
    const redactor = new KeyRedactor(KEY);
    expect(redactor.push(`a ${KEY.slice(0, 12)}`)).toBe('a ');
    expect(redactor.flush()).toBe(KEY_HIDDEN);
    expect(redactor.push(KEY.slice(12))).toBe(KEY.slice(12));
    expect(redactor.flush()).toBe('');
  });

  it('never holds back more than the key length minus one', () => {
    const redactor = new KeyRedactor(KEY);
    redactor.push(KEY.slice(0, -1));
    expect(redactor.held).toBe(KEY.slice(0, -1));
    expect(redactor.push('!')).toBe(`${KEY.slice(0, -1)}!`);
    expect(redactor.held).toBe('');
  });

  it('finds a key whose start repeats inside it (a false start does not hide the real one)', () => {
    const key = 'abab-abac';
    expect(run(key, ['xabab-ab', 'ab-abac y']).text).toBe(`xabab-${KEY_HIDDEN} y`);
    expect(run('aaab', [...'aaaaaab']).text).toBe(`aaa${KEY_HIDDEN}`);
  });

  it('replaces back-to-back and self-overlapping occurrences left to right, like a whole-string replace', () => {
    expect(run('aaaa', ['aaaaaaaaa']).text).toBe(`${KEY_HIDDEN}${KEY_HIDDEN}a`);
    // A character at a time, each key's first "a" (below the threshold of 2 for a 4-character key) was shown as it came.
    expect(run('aaaa', [...'aaaaaaaaa']).text).toBe(`a${KEY_HIDDEN}a${KEY_HIDDEN}a`);
  });

  it('passes text through untouched without a key, or with one too short to hide', () => {
    expect(run(null, ['a', 'b']).pieces).toEqual(['a', 'b', '']);
    expect(run('abc', ['abc', 'abc']).text).toBe('abcabc');
    expect(run(KEY, ['', 'plain', '']).text).toBe('plain');
  });
});

describe('redactKey', () => {
  it('hides every occurrence in a whole string', () => {
    expect(redactKey(`${KEY}/${KEY}`, KEY)).toBe(`${KEY_HIDDEN}/${KEY_HIDDEN}`);
    expect(redactKey('nothing to hide', KEY)).toBe('nothing to hide');
    expect(redactKey(`${KEY}`, null)).toBe(KEY);
  });

  it('hides a piece of the key that ends the string, as at a stream’s end', () => {
    expect(redactKey(`cut short: ${KEY.slice(0, 20)}`, KEY)).toBe(`cut short: ${KEY_HIDDEN}`);
    expect(redactKey(`ends in ${KEY.slice(0, 7)}`, KEY)).toBe(`ends in ${KEY.slice(0, 7)}`);
    // Inside the text, followed by something else, a start of the key is not the key (documented limit).
    expect(redactKey(`${KEY.slice(0, 20)}!`, KEY)).toBe(`${KEY.slice(0, 20)}!`);
  });

  it('hides only the exact key, not a URL-encoded copy (documented limit)', () => {
    const key = 'sk-a+b/c=d';
    expect(redactKey(`raw ${key} encoded ${encodeURIComponent(key)}`, key)).toBe(`raw ${KEY_HIDDEN} encoded ${encodeURIComponent(key)}`);
  });
});

describe('redactAndCut', () => {
  it('leaves a short enough string whole, key hidden', () => {
    expect(redactAndCut(`a ${KEY} b`, KEY, 100)).toBe(`a ${KEY_HIDDEN} b`);
    expect(redactAndCut('plain words', null, 5)).toBe('plain');
  });

  it('hides the key before cutting, so a cut through the key leaves only the marker’s start', () => {
    for (let inside = 1; inside < KEY.length; inside += 1) {
      expect(redactAndCut(`${'.'.repeat(50 - inside)}${KEY} after`, KEY, 50)).toBe(`${'.'.repeat(50 - inside)}${KEY_HIDDEN} after`.slice(0, 50));
    }
  });

  it('hides a start of the key that the cut leaves at the end, at every length from the threshold on', () => {
    const hideFrom = shortestHiddenKeyStart(KEY.length);
    for (let length = 1; length < KEY.length; length += 1) {
      // The server sent a start of the key followed by other words; the cut drops the words.
      const quoted = redactAndCut(`${'.'.repeat(50 - length)}${KEY.slice(0, length)} and other words`, KEY, 50);
      expect(quoted, `${length} characters of the key`).toBe(`${'.'.repeat(50 - length)}${length < hideFrom ? KEY.slice(0, length) : KEY_HIDDEN}`);
      expect(quoted).not.toContain(KEY.slice(0, hideFrom));
    }
  });
});
