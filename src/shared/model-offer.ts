/**
 * Which of a provider's models to offer when one was refused: chat models that write
 * code, the likeliest first. A catalog lists embeddings, speech and image models too,
 * alphabetically; the first few of that are rarely what anyone wants.
 */

/** Not chat models: never offered in place of one. */
const NOT_CHAT = /embed|whisper|tts|dall-e|gpt-image|moderation|transcribe|realtime|audio|search|davinci|babbage|rerank|guard|vision-only|sora/i;

/** The likelier picks first: coding models, then the fast open-weight ones, then general chat. */
const PREFERRED = [/codex/i, /gpt-oss-120b/i, /coder/i, /gpt-oss/i, /^gpt-5/i, /qwen/i, /llama-?4/i, /llama/i, /grok/i, /glm/i, /kimi/i];

/** Up to `limit` models from `listed` to offer instead of `refused`, likeliest first. */
export function modelsToOffer(listed: readonly string[], refused: string, limit = 6): string[] {
  const candidates = listed.filter((name) => name !== refused && !NOT_CHAT.test(name));
  const rank = (name: string) => {
    const index = PREFERRED.findIndex((pattern) => pattern.test(name));
    return index === -1 ? PREFERRED.length : index;
  };
  return candidates
    .map((name, order) => ({ name, order, rank: rank(name) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, limit)
    .map((entry) => entry.name);
}
