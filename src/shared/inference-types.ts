/**
 * What the renderer may know about inference: providers, statuses, text, figures.
 * Never a key, never a socket.
 */

/** The two wire protocols Flint speaks. */
export type ProviderKind =
  /** OpenAI Responses API over a persistent WebSocket (OpenAI, xAI, Azure). */
  | 'openai-responses'
  /** OpenAI-compatible chat completions over SSE (Cerebras, Ollama, vLLM, Groq…). */
  | 'openai-chat';

export interface ProviderConfig {
  /** Stable id; also the keychain account name. */
  id: string;
  kind: ProviderKind;
  label: string;
  /** e.g. https://api.openai.com/v1 (the WebSocket URL is derived from it). */
  baseUrl: string;
  /** The fast model, used by default. */
  model: string;
  /** The deeper model, one keystroke away. */
  deepModel?: string;
  /** The environment variable that may hold this provider's key. */
  keyVariable?: string;
  /** Local servers (Ollama, llama.cpp) need no key. */
  keyOptional?: boolean;
  /** The model's context window in tokens (default 128,000, Spark's). */
  contextWindow?: number;
}

/** Context window assumed when a provider does not say (GPT-5.3-Codex-Spark's). */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** Where the key for a provider comes from right now. */
export type KeySource =
  /** Stored in the OS keychain. */
  | 'keychain'
  /** From an environment variable (named in `keyVariable`). */
  | 'environment'
  /** Not needed (a local server). */
  | 'not-needed'
  /** Missing. */
  | 'none';

/** Where a provider's settings come from, which decides what Settings may do with it. */
export type ProviderOrigin =
  /** A preset Flint ships, as shipped: editable (the edit overrides it), not removable. */
  | 'built-in'
  /** A preset the user edited in settings.json: "Reset" goes back to the preset. */
  | 'edited-built-in'
  /** Added by the user: editable and removable. */
  | 'custom'
  /** Built from FLINT_* variables for this run: read-only (models may be switched for the run). */
  | 'environment';

/**
 * Why a key Flint has is not sent to a provider's address until the user says so:
 * - `other-origin`: an environment variable's key, and the address is not one its preset names
 *   (OPENAI_API_KEY belongs to https://api.openai.com, not to a proxy or another provider);
 * - `cleartext`: the address is plain http and not this machine, so the key would travel unencrypted.
 */
export type KeyWithheldReason = 'other-origin' | 'cleartext';

export interface KeyWithheld {
  reason: KeyWithheldReason;
  /** In words, naming the key's source and the address (never the key). */
  message: string;
}

export interface ProviderView extends ProviderConfig {
  keySource: KeySource;
  /** The variable the key came from, when `keySource` is 'environment'. */
  keyFromVariable?: string;
  /** The origin (scheme, host, port) that receives this provider's key: the only one it is sent to. */
  keyOrigin: string;
  /** A key is there but not sent to `keyOrigin` until the user confirms, and why. */
  keyWithheld?: KeyWithheld;
  origin: ProviderOrigin;
}

/**
 * A provider as the user adds or edits it in Settings (main validates and reports in words;
 * the id is main's). An empty deep model or key variable means none.
 */
export type ProviderDraft = Omit<ProviderConfig, 'id'>;

/** The models a provider serves to this key, for the fast and deep pickers. */
export interface ModelListView {
  providerId: string;
  /** Sorted, deduplicated, filtered; at most 500 (main filters the rest: ask with `filter`). */
  models: string[];
  /** How many the provider listed in all. */
  total: number;
  /** How many match the filter (`total` without one). */
  matching: number;
  /** `provider`: its `GET /models`. `configured`: the list could not be had; the configured names stand in. */
  source: 'provider' | 'configured';
  /** When the list shown was fetched (epoch ms); null for the configured names. */
  fetchedAtEpochMs: number | null;
  /** Configured names the provider does not list (likely to be refused). */
  unlisted: string[];
  /** Why the list is the configured names or an earlier one, in words. */
  reason?: string;
}

export interface ProvidersState {
  providers: ProviderView[];
  activeProviderId: string;
  /** Whether keys can be stored; if not, why (and env vars are the way). */
  keychain: { available: boolean; message?: string };
  /** Provider settings that were ignored (bad settings.json entries, bad FLINT_PROVIDER). */
  problems: string[];
  /** The provider chosen in Settings (it is the active one unless FLINT_* variables override it). */
  chosenProviderId: string;
  /** The FLINT_* variables that define the provider in use for this run; empty when none do. */
  environmentVariables: string[];
}

/** The connection to the active provider, as the status bar shows it. */
export type ConnectionState =
  /** No key (and one is needed): nothing to connect with. */
  | 'no-key'
  /** Opening the socket. */
  | 'connecting'
  /** Warm: a request would go out at once. */
  | 'ready'
  /** Lost; retrying with backoff. */
  | 'reconnecting'
  /** Cannot connect; the message says why. */
  | 'offline';

/** The last request's timings, for the latency HUD. */
export interface LatencyFigures {
  /** Keypress → request bytes written to the socket: Flint's own overhead. */
  keypressToWriteMs: number;
  /** Request written → first delta: network + model. */
  requestToFirstDeltaMs: number | null;
  /** Output tokens per second, first delta → end. */
  tokensPerSecond: number | null;
  /** Keypress → end. */
  totalMs: number;
  outputTokens: number;
  model: string;
}

/** How a streamed answer ended. */
export type StreamOutcome =
  /** The provider finished. */
  | 'completed'
  /** The user stopped it. */
  | 'cancelled'
  /** The provider stopped early (length limit, content filter). */
  | 'incomplete'
  /** An error; `message` says what, in plain words. */
  | 'failed';

export type AnswerDepth = 'fast' | 'deep';

/** A provider's two model settings: the fast model (Enter) and the deep one (Alt+Enter). */
export type ModelSlot = AnswerDepth;

export interface ConnectionTestResult {
  ok: boolean;
  /** "Connected to gpt-5.3-codex-spark", or the provider's error in plain words. */
  message: string;
  latency?: LatencyFigures;
}
