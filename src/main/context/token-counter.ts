/**
 * Counting tokens for the context budget.
 *
 * OpenAI models (GPT-4o onwards, the Codex family) use the o200k_base encoding, and
 * gpt-tokenizer has it. It costs about 80 MB and 140 ms to load, so it is loaded only
 * when a count must be exact: a text is never more tokens than UTF-8 bytes (every
 * token is at least one byte), so anything whose bytes fit the budget fits without
 * counting. Other families get a documented estimate: one token per 3 bytes of UTF-8,
 * which over-counts code for Llama, Qwen and Mistral tokenizers (about 3.5–4 bytes per
 * token) and so keeps requests inside their windows.
 */

export interface TokenCounter {
  /** How counts are made, for the UI ("o200k_base tokenizer", "estimate: 3 bytes per token"). */
  readonly method: string;
  count(text: string): number;
}

const ESTIMATE_BYTES_PER_TOKEN = 3;
const encoder = new TextEncoder();

export const estimateCounter: TokenCounter = {
  method: `estimate: ${ESTIMATE_BYTES_PER_TOKEN} bytes per token`,
  count: (text) => Math.ceil(utf8Length(text) / ESTIMATE_BYTES_PER_TOKEN),
};

/** One token per byte: never fewer than the real count, for texts that fit without counting. */
export const byteCounter: TokenCounter = {
  method: 'bytes (an upper bound; everything fit without counting tokens)',
  count: (text) => utf8Length(text),
};

let o200k: Promise<TokenCounter> | null = null;

/** The o200k_base tokenizer, loaded on first use. */
export function loadO200kCounter(): Promise<TokenCounter> {
  o200k ??= import('gpt-tokenizer/encoding/o200k_base').then(({ countTokens }) => ({
    method: 'o200k_base tokenizer',
    count: (text: string) => countTokens(text),
  }));
  return o200k;
}

/**
 * Which tokenizer a model uses, by its name: o200k_base for OpenAI's (gpt-oss uses
 * o200k_harmony, the same vocabulary plus special tokens), an estimate for everyone
 * else's, whatever protocol serves them (xAI speaks the Responses API with its own tokenizer).
 */
export function tokenizerFamily(model: string): 'o200k' | 'estimate' {
  return /^(gpt-(4o|4\.1|5|oss)|o[134]|codex|chatgpt)/i.test(model.replace(/^openai\//i, '')) ? 'o200k' : 'estimate';
}

export function utf8Length(text: string): number {
  // Cheap when all ASCII; exact otherwise.
  for (let index = 0; index < text.length; index += 1) {
    if (text.charCodeAt(index) > 0x7f) return encoder.encode(text).length;
  }
  return text.length;
}

/**
 * Per-line counts, remembered by line text: between two saves almost every line is
 * the same, so a rebuild counts only what changed.
 *
 * Keyed by a 53-bit hash, not the line: a line cut from a file's text keeps that whole
 * text alive in V8, and a cache of lines would pin every version ever counted.
 */
export class LineTokenCache {
  private readonly counts = new Map<number, number>();

  constructor(
    private readonly counter: TokenCounter,
    private readonly capacity = 200_000,
  ) {}

  get method(): string {
    return this.counter.method;
  }

  /** Tokens of `line` plus its newline (an upper bound: merges across lines only lower it). */
  line(line: string): number {
    const key = hash53(line);
    let count = this.counts.get(key);
    if (count === undefined) {
      count = this.counter.count(line) + 1;
      if (this.counts.size >= this.capacity) this.counts.clear();
      this.counts.set(key, count);
    }
    return count;
  }

  text(text: string): number {
    return this.counter.count(text);
  }
}

/** cyrb53, a fast 53-bit string hash. A full cache risks a collision about once in a million; one would misjudge one line by a few tokens, which the answer's reserve absorbs. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
