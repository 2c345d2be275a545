/**
 * Which providers exist: built-in presets, the user's settings.json, and for one run
 * the environment (FLINT_PROVIDER, FLINT_BASE_URL, FLINT_MODEL, FLINT_DEEP_MODEL, FLINT_API_KEY).
 */
import { z } from 'zod';
import type { ProviderConfig, ProviderKind } from '../../shared/inference-types';

export const BUILT_IN_PROVIDERS: readonly ProviderConfig[] = [
  // Names as of late 2026; see README "Providers" for where they come from. Settings lists what the key can really use.
  { id: 'openai', kind: 'openai-responses', label: 'OpenAI', baseUrl: 'https://api.openai.com/v1', model: 'gpt-5.3-codex-spark', deepModel: 'gpt-5.3-codex', keyVariable: 'OPENAI_API_KEY' },
  { id: 'xai', kind: 'openai-responses', label: 'xAI', baseUrl: 'https://api.x.ai/v1', model: 'grok-code-fast-1', keyVariable: 'XAI_API_KEY' },
  { id: 'cerebras', kind: 'openai-chat', label: 'Cerebras', baseUrl: 'https://api.cerebras.ai/v1', model: 'gpt-oss-120b', keyVariable: 'CEREBRAS_API_KEY' },
  { id: 'groq', kind: 'openai-chat', label: 'Groq', baseUrl: 'https://api.groq.com/openai/v1', model: 'openai/gpt-oss-120b', keyVariable: 'GROQ_API_KEY' },
  { id: 'openrouter', kind: 'openai-chat', label: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', model: 'openai/gpt-oss-120b', keyVariable: 'OPENROUTER_API_KEY' },
  { id: 'ollama', kind: 'openai-chat', label: 'Ollama (local)', baseUrl: 'http://localhost:11434/v1', model: 'qwen3-coder', keyOptional: true },
  { id: 'lm-studio', kind: 'openai-chat', label: 'LM Studio (local)', baseUrl: 'http://localhost:1234/v1', model: 'local-model', keyOptional: true },
  { id: 'llama-cpp', kind: 'openai-chat', label: 'llama.cpp server (local)', baseUrl: 'http://localhost:8080/v1', model: 'default', keyOptional: true },
];

/** The id of the provider built from environment variables for one run. */
export const ENVIRONMENT_PROVIDER_ID = 'environment';

/** The variables that build the environment provider (and then override the provider chosen in Settings). */
export const ENVIRONMENT_VARIABLES = ['FLINT_PROVIDER', 'FLINT_BASE_URL', 'FLINT_MODEL', 'FLINT_DEEP_MODEL'] as const;

/** A provider entry in settings.json; unknown ids add providers, known ids override presets. */
export const ProviderConfigSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'The id may hold lowercase letters, digits, . _ - (up to 64).'),
    kind: z.enum(['openai-responses', 'openai-chat'], 'The protocol must be openai-responses or openai-chat.'),
    label: z.string().trim().min(1, 'Give the provider a name.').max(80, 'The name is longer than 80 characters.'),
    baseUrl: z
      .string()
      .trim()
      .refine(isHttpUrl, 'The base URL must be an http:// or https:// address, like https://api.example.com/v1.'),
    model: z.string().trim().min(1, 'Name the fast model.').max(200, 'The fast model’s name is longer than 200 characters.'),
    deepModel: z.string().trim().min(1, 'Name the deep model, or leave it out.').max(200, 'The deep model’s name is longer than 200 characters.').optional(),
    // Only *_API_KEY names: a provider can never be pointed at another secret of the
    // environment (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY) and send it to its address.
    keyVariable: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{0,119}_API_KEY$/, 'The key variable must be a name in capitals ending in _API_KEY, like MY_PROVIDER_API_KEY (so no other secret of your environment can be sent to a provider).')
      .optional(),
    keyOptional: z.boolean().optional(),
    contextWindow: z
      .number('The context window must be a number of tokens.')
      .int('The context window must be a whole number of tokens.')
      .min(2048, 'The context window must be at least 2,048 tokens.')
      .max(10_000_000, 'The context window must be at most 10,000,000 tokens.')
      .optional(),
  })
  .strict();

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export interface Catalog {
  providers: ProviderConfig[];
  /** The provider in use unless the user picks another. */
  defaultProviderId: string;
  /** Problems with the environment or settings, for a notice. */
  problems: string[];
}

export function buildCatalog(fromSettings: readonly unknown[], env: NodeJS.ProcessEnv): Catalog {
  const problems: string[] = [];
  const providers = new Map(BUILT_IN_PROVIDERS.map((provider) => [provider.id, { ...provider }]));
  for (const raw of fromSettings) {
    const parsed = ProviderConfigSchema.safeParse(raw);
    if (parsed.success && parsed.data.id === ENVIRONMENT_PROVIDER_ID) problems.push('A provider in settings.json was ignored: the id "environment" is Flint’s own.');
    else if (parsed.success) providers.set(parsed.data.id, parsed.data);
    else problems.push(`A provider in settings.json was ignored: ${parsed.error.issues[0]?.message ?? 'invalid'}.`);
  }
  let defaultProviderId = 'openai';
  const kind = env.FLINT_PROVIDER;
  if (ENVIRONMENT_VARIABLES.some((name) => env[name] !== undefined)) {
    const resolvedKind: ProviderKind | null = kind === undefined ? 'openai-responses' : kind === 'openai-responses' || kind === 'openai-chat' ? kind : null;
    if (resolvedKind === null) {
      problems.push(`FLINT_PROVIDER must be openai-responses or openai-chat, not ${JSON.stringify(kind)}.`);
    } else {
      const base = resolvedKind === 'openai-responses' ? providers.get('openai')! : providers.get('cerebras')!;
      providers.set(ENVIRONMENT_PROVIDER_ID, {
        id: ENVIRONMENT_PROVIDER_ID,
        kind: resolvedKind,
        label: 'From environment (FLINT_*)',
        baseUrl: env.FLINT_BASE_URL ?? base.baseUrl,
        model: env.FLINT_MODEL ?? base.model,
        deepModel: env.FLINT_DEEP_MODEL ?? (env.FLINT_MODEL === undefined ? base.deepModel : undefined),
        keyVariable: 'FLINT_API_KEY',
        keyOptional: undefined,
        ...(contextWindowFromEnv(env, problems) ?? {}),
      });
      defaultProviderId = ENVIRONMENT_PROVIDER_ID;
    }
  }
  return { providers: [...providers.values()], defaultProviderId, problems };
}

/** FLINT_CONTEXT_WINDOW: the environment provider's context window in tokens. */
function contextWindowFromEnv(env: NodeJS.ProcessEnv, problems: string[]): { contextWindow: number } | null {
  const raw = env.FLINT_CONTEXT_WINDOW;
  if (raw === undefined) return null;
  const value = Number(raw);
  if (Number.isInteger(value) && value >= 2048) return { contextWindow: value };
  problems.push(`FLINT_CONTEXT_WINDOW must be a whole number of tokens (2048 or more), not ${JSON.stringify(raw)}.`);
  return null;
}
