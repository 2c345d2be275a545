/**
 * Inference errors in plain words, whatever protocol or library produced them.
 */

/** Why a request (or a connection) failed. */
export type InferenceFailureCode =
  /** The provider rejected the key (401/403). */
  | 'unauthorized'
  /** No such model (404 / model_not_found). */
  | 'model-not-found'
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
  /** No key is configured. */
  | 'no-key'
  /** The provider settings are wrong (e.g. a base URL with the wrong scheme). */
  | 'bad-configuration';

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

/** Maps an HTTP-style status (from an upgrade, an SSE response, or an in-band error) to a failure. */
export function failureFromStatus(status: number | undefined, providerMessage: string, code?: string | null, retryAfter?: string | null): InferenceFailure {
  const detail = providerMessage ? ` (${providerMessage.slice(0, 300)})` : '';
  // Terminal `response.failed` events carry a code and no status.
  if (status === undefined && code) status = STATUS_BY_CODE[code];
  if (code === 'model_not_found' || status === 404) {
    return new InferenceFailure('model-not-found', `No such model, or no access to it${detail}.`);
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

const STATUS_BY_CODE: Record<string, number> = {
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  server_error: 500,
  invalid_api_key: 401,
  model_not_found: 404,
};

/**
 * Removes the key from text that came from a provider or a library (an echoing proxy
 * would otherwise put it on screen).
 */
export function redactKey(text: string, apiKey: string | null): string {
  return apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[key hidden]') : text;
}

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
