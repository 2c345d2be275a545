/**
 * Hides the API key in text that leaves main: streamed answers, error messages, log lines.
 * A piece of the key that ends a text (a stream cut off mid-key, a message shortened
 * mid-key) is hidden too, when it is long enough to matter.
 *
 * A provider (or a proxy in front of it) can echo the Authorization header back, in an
 * error or in the answer itself. Main holds the key, so main scrubs every string that
 * came from the network before the page or the log sees it.
 *
 * Only the exact key string is hidden: not "Bearer " in front of it, not a URL-encoded or
 * otherwise re-spelled copy. Keys are visible ASCII (see `checkKeyIsSendable`), so the
 * common spellings of a key are the key itself; a transformed copy is out of reach of any
 * exact matcher and would need the provider's cooperation to find. Nor is a start of the
 * key inside a text, followed by other characters: it is not the key, and only at an end
 * can the reader not tell whether the key went on.
 *
 * Invariants of `KeyRedactor`, for any split of a stream into deltas:
 * - what it emits (pushes, then the final flush) is `redactKey(whole stream)`: leftmost,
 *   non-overlapping occurrences replaced, and a trailing piece of the key hidden when it
 *   is long enough to matter (`shortestHiddenKeyStart`). One difference, by design: a key
 *   (or a hidden piece at the end) whose first characters, at most `longestShownKeyStart`,
 *   ended an earlier delta shows them before the marker (see below);
 * - it holds back a delta's last characters only when they are a start of the key longer
 *   than `longestShownKeyStart` (at most `key.length - 1` of them), and emits everything
 *   else at once. Holding back every start held each delta that ended in "s" (for a key
 *   "sk-…") until the next delta came: 40 ms at 25 tokens/s, and as long as the model
 *   paused. If the key does go on, it hides from there;
 * - it runs in time linear in the stream's length (Knuth–Morris–Pratt), whatever the
 *   key or the text: no regular expressions on untrusted input.
 */

/** What a hidden key reads as. */
export const KEY_HIDDEN = '[key hidden]';

/**
 * Keys shorter than this are not hidden: a local server's placeholder key ("x", "no")
 * would otherwise punch holes in ordinary words, and hides nothing worth hiding.
 */
export const MIN_HIDDEN_KEY_LENGTH = 4;

/**
 * How long a start of the key must be to be hidden where text ends (a stream's end, a
 * cut): the key's first 8 characters, or its first half when the key is shorter than 16.
 *
 * A stream cut off mid-key (or a message shortened mid-key) would otherwise show up to
 * `key.length - 1` characters of it, nearly the whole secret. Short starts are not hidden:
 * "s" or "sk-" end ordinary text all the time, and tell an attacker nothing the key's
 * public format does not. Eight characters, or half a short key, are rarely a coincidence
 * and are a real piece of the secret. The price is that text ending in a public prefix of
 * that length (say "sk-proj-") reads as hidden: harmless, and only at the very end.
 */
export function shortestHiddenKeyStart(keyLength: number): number {
  return Math.min(8, Math.ceil(keyLength / 2));
}

/**
 * How long a start of the key that ends a delta may be and still be shown with it, not held
 * back for the next delta: 3 characters ("s", "sk", "sk-", "gsk", "csk"), and fewer for a
 * key shorter than 8 (less than `shortestHiddenKeyStart`).
 *
 * What ends a delta is often a start of the key by chance: every word ending in "s" starts
 * "sk-…". Held back, it waits for the next delta, however long the model pauses. Shown, it
 * stays on screen if the key does follow, before the marker: so the bound is small. Three
 * characters are the public prefix of most keys, and fewer than the providers' own key
 * lists show of each key ("sk-…abcd").
 */
export function longestShownKeyStart(keyLength: number): number {
  return Math.min(3, shortestHiddenKeyStart(keyLength) - 1);
}

/**
 * A streaming key scrubber: push deltas in, get redacted text out, flush at the end.
 *
 * Each stream gets its own (the held tail belongs to one stream). Flush on every ending
 * (completed, failed, cancelled, incomplete, dropped): the held tail never completed the
 * key, so it is shown, unless the start of the key the stream ends with is long enough to
 * hide.
 */
export class KeyRedactor {
  private readonly key: string | null;
  /** KMP failure function: `fallback[i]` is the longest proper border of `key[0..i]`. */
  private readonly fallback: Int32Array;
  /** How many characters of the key the stream currently ends with. */
  private matched = 0;
  /** How many of those `matched` characters were shown already (at most `showUpTo`); the rest are held back. */
  private shown = 0;
  /** A start of the key this long or shorter is shown with its delta (`longestShownKeyStart`). */
  private readonly showUpTo: number;
  /** A stream that ends in a start of the key at least this long hides it (`shortestHiddenKeyStart`). */
  private readonly hideFrom: number;

  constructor(apiKey: string | null) {
    this.key = apiKey !== null && apiKey.length >= MIN_HIDDEN_KEY_LENGTH ? apiKey : null;
    this.fallback = this.key ? borders(this.key) : new Int32Array(0);
    // Without a key nothing is held; the bound only keeps an empty tail empty.
    this.hideFrom = this.key ? shortestHiddenKeyStart(this.key.length) : 1;
    this.showUpTo = this.key ? longestShownKeyStart(this.key.length) : 0;
  }

  /** The characters held back right now (a piece of a proper prefix of the key; empty when none). */
  get held(): string {
    return this.key ? this.key.slice(this.shown, this.matched) : '';
  }

  /** Takes the next delta; returns what can be shown now, key occurrences replaced. */
  push(text: string): string {
    const key = this.key;
    if (!key) return text;
    const fallback = this.fallback;
    // Positions below are in the virtual buffer `key[0..heldBefore) + text`: the key start
    // the stream ended with, then the delta. Its first `shownBefore` characters are on
    // screen already, so emitting starts after them.
    const heldBefore = this.matched;
    const shownBefore = this.shown;
    let matched = heldBefore;
    let out = '';
    let emitFrom = shownBefore;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      while (matched > 0 && key.charCodeAt(matched) !== code) matched = fallback[matched - 1]!;
      if (key.charCodeAt(matched) === code) matched += 1;
      if (matched === key.length) {
        const end = heldBefore + index + 1;
        // A start of this key that an earlier delta showed stays; the marker takes the rest.
        out += this.slice(text, heldBefore, emitFrom, end - key.length) + KEY_HIDDEN;
        emitFrom = end;
        matched = 0;
      }
    }
    const tailFrom = heldBefore + text.length - matched;
    out += this.slice(text, heldBefore, emitFrom, tailFrom);
    this.matched = matched;
    // Of the key start the stream now ends with: what is on screen already (a match in this
    // delta ends after all of that, so then none), then the rest, shown now too while short.
    this.shown = Math.max(0, shownBefore - tailFrom);
    if (matched <= this.showUpTo) {
      out += key.slice(this.shown, matched);
      this.shown = matched;
    }
    return out;
  }

  /**
   * Ends the stream and starts afresh. Returns the held tail (it never completed the key),
   * or the marker in its place when the start of the key the stream ends with is at least
   * `shortestHiddenKeyStart` long: the stream stopped mid-key, and what came so far is a
   * piece of the secret (its first characters may be on screen already).
   */
  flush(): string {
    const { held, matched } = this;
    this.matched = 0;
    this.shown = 0;
    return matched >= this.hideFrom ? KEY_HIDDEN : held;
  }

  /** `(key[0..heldBefore) + text).slice(from, to)`, without building the whole buffer. */
  private slice(text: string, heldBefore: number, from: number, to: number): string {
    if (to <= from) return '';
    const fromHeld = from < heldBefore ? this.key!.slice(from, Math.min(to, heldBefore)) : '';
    const fromText = to > heldBefore ? text.slice(Math.max(from, heldBefore) - heldBefore, to - heldBefore) : '';
    return fromHeld + fromText;
  }
}

/**
 * Hides the key in a whole string (messages, log lines, event types): every occurrence,
 * and a piece of it that ends the string (as at a stream's end), so that a string a
 * server cut short mid-key shows no more of it than a stream that stopped mid-key.
 */
export function redactKey(text: string, apiKey: string | null): string {
  if (apiKey === null || apiKey.length < MIN_HIDDEN_KEY_LENGTH) return text;
  const redactor = new KeyRedactor(apiKey);
  return redactor.push(text) + redactor.flush();
}

/**
 * `text` with the key hidden, then shortened to `max` characters: the one way to quote
 * what a server sent. When the cut ends in a piece of the key, the marker replaces that
 * piece, which can make the result a few characters longer than `max`.
 *
 * Hidden before cut: a cut through a whole key would leave a piece no matcher finds.
 * Hidden again after: the cut can still end in a start of the key (the text went on
 * with something else, which the reader no longer sees), hidden by the rule of a stream's end.
 */
export function redactAndCut(text: string, apiKey: string | null, max: number): string {
  const redacted = redactKey(text, apiKey);
  return redacted.length <= max ? redacted : redactKey(redacted.slice(0, max), apiKey);
}

/** The KMP failure function of `pattern`. */
function borders(pattern: string): Int32Array {
  const result = new Int32Array(pattern.length);
  let length = 0;
  for (let index = 1; index < pattern.length; index += 1) {
    const code = pattern.charCodeAt(index);
    while (length > 0 && pattern.charCodeAt(length) !== code) length = result[length - 1]!;
    if (pattern.charCodeAt(length) === code) length += 1;
    result[index] = length;
  }
  return result;
}
