import { describe, expect, it, vi } from 'vitest';
import { LineTokenCache, estimateCounter, loadO200kCounter, tokenizerFamily, utf8Length, type TokenCounter } from './token-counter';

describe('estimateCounter', () => {
  it('counts one token per three bytes, rounding up', () => {
    expect(estimateCounter.count('')).toBe(0);
    expect(estimateCounter.count('a')).toBe(1);
    expect(estimateCounter.count('abc')).toBe(1);
    expect(estimateCounter.count('abcd')).toBe(2);
    expect(estimateCounter.count('x'.repeat(300))).toBe(100);
  });

  it('counts bytes of UTF-8, not UTF-16 code units, for non-ASCII text', () => {
    // é is 2 bytes, 日 3, and the emoji 4 bytes in two UTF-16 code units.
    expect(estimateCounter.count('é')).toBe(1);
    expect(estimateCounter.count('éé')).toBe(2);
    expect(estimateCounter.count('日本語')).toBe(3);
    expect(estimateCounter.count('😀😀😀')).toBe(4);
  });

  it('says how it counts', () => {
    expect(estimateCounter.method).toMatch(/estimate/);
  });
});

describe('loadO200kCounter', () => {
  it('counts with the real o200k_base tokenizer', async () => {
    const counter = await loadO200kCounter();
    expect(counter.count('hello world')).toBe(2);
    expect(counter.count('')).toBe(0);
    expect(counter.method).toBe('o200k_base tokenizer');
  });

  it('loads the tokenizer once and hands out the same counter', async () => {
    expect(await loadO200kCounter()).toBe(await loadO200kCounter());
  });

  it('never counts more tokens than UTF-8 bytes, which the assembler relies on to skip counting', async () => {
    const counter = await loadO200kCounter();
    for (const text of ['const x = 1;', '    return a + b;\n', '日本語のテキスト', '😀 emoji', '\t\t}\n']) {
      expect(counter.count(text), text).toBeLessThanOrEqual(utf8Length(text));
    }
  });
});

describe('tokenizerFamily', () => {
  it('goes by the model, not the protocol: Grok behind the Responses API is estimated', () => {
    expect(tokenizerFamily('grok-code-fast-1')).toBe('estimate');
    expect(tokenizerFamily('gpt-5.3-codex-spark')).toBe('o200k');
    expect(tokenizerFamily('gpt-oss-120b')).toBe('o200k');
  });

  it('uses o200k for OpenAI model names on other providers', () => {
    for (const model of ['gpt-5', 'gpt-5-mini', 'gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'o3', 'o4-mini', 'o1', 'codex-mini-latest', 'openai/gpt-5', 'GPT-5']) {
      expect(tokenizerFamily(model), model).toBe('o200k');
    }
  });

  it('estimates for other families, including older OpenAI models on a different encoding', () => {
    for (const model of ['qwen3-coder', 'llama-3.1-70b', 'mistral-large', 'deepseek-coder-v2', 'gpt-4', 'gpt-3.5-turbo', 'olmo-2']) {
      expect(tokenizerFamily(model), model).toBe('estimate');
    }
  });
});

describe('utf8Length', () => {
  it('matches Buffer.byteLength for ASCII, multi-byte and astral text', () => {
    for (const text of ['', 'plain ascii', 'é', 'naïve café', '日本語', '😀', 'a😀b日c', '\u0000\u007f\u0080', '\ud800 lone surrogate']) {
      expect(utf8Length(text), JSON.stringify(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
  });
});

describe('LineTokenCache', () => {
  function spyCounter(): TokenCounter & { count: ReturnType<typeof vi.fn> } {
    return { method: 'spy', count: vi.fn((text: string) => text.length) };
  }

  it('adds one token for the line’s newline', () => {
    const cache = new LineTokenCache(spyCounter());
    expect(cache.line('abcd')).toBe(5);
    expect(cache.line('')).toBe(1);
  });

  it('counts each distinct line once', () => {
    const counter = spyCounter();
    const cache = new LineTokenCache(counter);
    expect(cache.line('same')).toBe(5);
    expect(cache.line('same')).toBe(5);
    expect(cache.line('other')).toBe(6);
    expect(cache.line('same')).toBe(5);
    expect(counter.count).toHaveBeenCalledTimes(2);
  });

  it('forgets everything when full and counts again', () => {
    const counter = spyCounter();
    const cache = new LineTokenCache(counter, 2);
    cache.line('a');
    cache.line('b');
    cache.line('c');
    expect(counter.count).toHaveBeenCalledTimes(3);
    cache.line('c');
    expect(counter.count).toHaveBeenCalledTimes(3);
    cache.line('a');
    expect(counter.count).toHaveBeenCalledTimes(4);
  });

  it('counts whole texts without caching or a newline', () => {
    const counter = spyCounter();
    const cache = new LineTokenCache(counter);
    expect(cache.text('abc')).toBe(3);
    expect(cache.text('abc')).toBe(3);
    expect(counter.count).toHaveBeenCalledTimes(2);
  });

  it('reports its counter’s method', () => {
    expect(new LineTokenCache(estimateCounter).method).toBe(estimateCounter.method);
  });
});
