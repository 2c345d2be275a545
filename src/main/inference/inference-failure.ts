/**
 * Inference errors in plain words, whatever protocol or library produced them.
 */
import { redactAndCut } from './key-redactor';

/** Why a request (or a connection) failed. */
export type InferenceFailureCode =
  /** The provider rejected the key (401/403). */
  | 'unauthorized'
  /**
   * The model is not served to this key: `model_not_found`, a 404/403/400 whose words are
   * about the model ("does not exist", "not supported", "no access"). The UI offers the
   * models the provider lists instead.
   */
  | 'model-unavailable'
  /** Too many requests (429); `retryAfterSeconds` when the provider said. */
  | 'rate-limited'
  /** Could not reach the provider (refused, DNS, TLS, handshake timeout). */
  | 'unreachable'
  /** The provider failed (5xx). */
  | 'server-error'
  /** The connection dropped or stalled mid-answer. */
  | 'connection-lost'
  /** The provider sent something Flint cannot read. */
  | 'protocol-error'
  /** The pre-loaded context is gone (Responses `previous_response_not_found`): the full request will do. */
  | 'context-expired'
  /** No key is configured. */
  | 'no-key'
  /** The provider settings are wrong (e.g. a base URL with the wrong scheme). */
  | 'bad-configuration';

/** An inference error whose message is fit to show the user (plain words, key hidden by the provider). */
export class InferenceFailure extends Error {
  constructor(
    readonly code: InferenceFailureCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'InferenceFailure';
  }
}

/** A provider's refusal, as its protocol reported it. */
export interface ProviderRefusal {
  /** HTTP status (upgrade, SSE response, or in-band error); none on `response.failed`. */
  status: number | undefined;
  /** The provider's own words; may echo the key (it is hidden before they are shortened). */
  providerMessage: string;
  code?: string | null;
  retryAfter?: string | null;
  /** The key to hide; required so that no caller can forget it. */
  apiKey: string | null;
}

/** Maps an HTTP-style status (from an upgrade, an SSE response, or an in-band error) to a failure. */
export function failureFromStatus(refusal: ProviderRefusal): InferenceFailure {
  const { providerMessage, code, retryAfter } = refusal;
  const detail = providerMessage ? ` (${quoteProvider(providerMessage, refusal.apiKey)})` : '';
  // Terminal `response.failed` events carry a code and no status.
  // Own keys only: a code such as "constructor" must not find Object's.
  const status = refusal.status === undefined && typeof code === 'string' && Object.hasOwn(STATUS_BY_CODE, code) ? STATUS_BY_CODE[code] : refusal.status;
  if (isModelRefusal(status, code, providerMessage)) {
    // Worded here without the model's name; the inference service, which knows it, rewords it.
    return new InferenceFailure('model-unavailable', `The model is not available with this key${detail}.`);
  }
  if (status === 404) {
    return new InferenceFailure('bad-configuration', `Nothing answers at this address (404${detail}): check the base URL and the protocol in Settings.`);
  }
  if (status === 401 || status === 403 || code === 'invalid_api_key') {
    return new InferenceFailure('unauthorized', `The provider rejected the API key${detail}. Check or replace the key in Settings.`);
  }
  if (status === 429) {
    const seconds = retryAfter ? Number(retryAfter) : undefined;
    const wait = seconds !== undefined && Number.isFinite(seconds) ? ` Try again in ${seconds} s.` : ' Try again shortly.';
    return new InferenceFailure('rate-limited', `Rate-limited by the provider.${wait}`, Number.isFinite(seconds) ? seconds : undefined);
  }
  if (status !== undefined && status >= 500) {
    return new InferenceFailure('server-error', `The provider had an error (${status})${detail}.`);
  }
  return new InferenceFailure('protocol-error', `The provider refused the request${status ? ` (${status})` : ''}${detail}.`);
}

/** Codes providers use for a model the key cannot use. */
const MODEL_CODES = new Set(['model_not_found', 'model_not_supported', 'unsupported_model', 'model_not_available']);
/** Words that, next to "model", mean "not for you" (OpenAI, Groq, Cerebras, Ollama, vLLM, OpenRouter wordings). */
const UNAVAILABLE_WORDS = /does not exist|not supported|unsupported|not found|no access|not available|do(?:es)? not have access|no endpoints found|is not a valid model|invalid model|try pulling it/i;

/**
 * Whether a refusal is about the model rather than the key or the request: a model code, or
 * a 400/403/404 (or an in-band error) whose words name the model and say it cannot be used.
 * A 403 that does not mention a model stays a key problem.
 */
function isModelRefusal(status: number | undefined, code: string | null | undefined, message: string): boolean {
  if (typeof code === 'string' && MODEL_CODES.has(code)) return true;
  if (status !== undefined && status !== 400 && status !== 403 && status !== 404) return false;
  return /\bmodel\b/i.test(message) && UNAVAILABLE_WORDS.test(message);
}

/** The longest a provider's own words get in a message (an error page can be kilobytes). */
export const PROVIDER_WORDS_MAX = 300;

/**
 * A provider's words, fit for a message: the key hidden, then shortened (`redactAndCut`:
 * a cut never leaves a piece of the key at the end).
 */
export function quoteProvider(text: string, apiKey: string | null): string {
  return redactAndCut(text, apiKey, PROVIDER_WORDS_MAX);
}

/** When, in an exchange, a connection broke. */
export type DropMoment =
  /** No request was being answered on it (a warm socket). */
  | 'idle'
  /** A request was sent; nothing of the answer had arrived. */
  | 'before-answer'
  /** Part of the answer had arrived (and was shown). */
  | 'mid-answer';

/**
 * A connection that broke after it was up, in words (not "terminated", not a close code).
 *
 * `providerReason` is the provider's close reason (WebSocket), when it gave one.
 */
export function connectionDropped(where: string, moment: DropMoment, apiKey: string | null, providerReason = ''): InferenceFailure {
  const when = moment === 'mid-answer' ? ' in the middle of the answer' : moment === 'before-answer' ? ' before the answer began' : '';
  const said = providerReason ? ` (the provider said: ${quoteProvider(providerReason, apiKey)})` : '';
  return new InferenceFailure('connection-lost', `The connection to ${where} dropped${when}${said}.`);
}

const STATUS_BY_CODE: Record<string, number> = {
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  server_error: 500,
  invalid_api_key: 401,
  model_not_found: 404,
};

/** Maps a network-level error (ECONNREFUSED, ENOTFOUND, timeouts) to a failure. */
export function failureFromNetwork(error: unknown, where: string): InferenceFailure {
  if (error instanceof InferenceFailure) return error;
  const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  const message = error instanceof Error ? error.message : String(error);
  if (/timed out|timeout/i.test(message) || code === 'ETIMEDOUT') {
    return new InferenceFailure('unreachable', `${where} did not answer in time.`);
  }
  const reason = code === 'ECONNREFUSED' ? 'connection refused' : code === 'ENOTFOUND' ? 'host not found' : message;
  return new InferenceFailure('unreachable', `Could not reach ${where}: ${reason}.`);
}

/**
 * Keys travel in an HTTP header, which holds visible ASCII only. A key with other
 * characters can be stored (the keychain takes anything) but never sent.
 */
export function checkKeyIsSendable(apiKey: string | null): void {
  if (apiKey !== null && !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new InferenceFailure(
      'bad-configuration',
      'The API key contains characters that cannot be sent (spaces, accents or other non-ASCII); check the key you pasted.',
    );
  }
}
