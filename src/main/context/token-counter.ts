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
 */
export class LineTokenCache {
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly counter: TokenCounter,
    private readonly capacity = 200_000,
  ) {}

  get method(): string {
    return this.counter.method;
  }

  /** Tokens of `line` plus its newline (an upper bound: merges across lines only lower it). */
  line(line: string): number {
    let count = this.counts.get(line);
    if (count === undefined) {
      count = this.counter.count(line) + 1;
      if (this.counts.size >= this.capacity) this.counts.clear();
      this.counts.set(line, count);
    }
    return count;
  }

  text(text: string): number {
    return this.counter.count(text);
  }
}
