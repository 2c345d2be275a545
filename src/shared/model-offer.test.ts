import { describe, expect, it } from 'vitest';
import { modelsToOffer } from './model-offer';

describe('modelsToOffer', () => {
  it('offers coding and fast chat models first, never the refused one or non-chat models', () => {
    const openai = ['babbage-002', 'dall-e-3', 'gpt-4.1', 'gpt-5.3-codex', 'gpt-5.3-codex-spark', 'gpt-5.2', 'text-embedding-3-large', 'tts-1', 'whisper-1'];
    expect(modelsToOffer(openai, 'gpt-5.3-codex-spark')).toEqual(['gpt-5.3-codex', 'gpt-5.2', 'gpt-4.1']);
  });

  it('keeps the provider’s order within a rank and stops at the limit', () => {
    const groq = ['llama-3.1-8b-instant', 'meta-llama/llama-4-scout-17b-16e-instruct', 'openai/gpt-oss-120b', 'openai/gpt-oss-20b', 'qwen/qwen3-32b', 'whisper-large-v3'];
    expect(modelsToOffer(groq, 'x', 3)).toEqual(['openai/gpt-oss-120b', 'openai/gpt-oss-20b', 'qwen/qwen3-32b']);
  });

  it('offers nothing when the provider lists only the refused model', () => {
    expect(modelsToOffer(['only-model'], 'only-model')).toEqual([]);
  });
});
