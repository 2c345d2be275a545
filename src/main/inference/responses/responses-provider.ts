/**
 * OpenAI Responses over WebSocket (OpenAI, xAI, Azure): warm sockets, pre-loaded
 * context, one response per socket, cancel by closing. The stream's lifecycle (retry,
 * stall, cancel, endings) is runModelStream's: this file opens one exchange at a time.
 */
import type { ConnectionState } from '../../../shared/inference-types';
import type { Event } from '../../lifecycle';
import type { Logger } from '../../logger';
import { checkKeyIsSendable, connectionDropped, InferenceFailure, type InferenceFailureCode } from '../inference-failure';
import { redactAndCut, redactKey } from '../key-redactor';
import type { InferenceProvider, ModelStream, StreamRequest, StreamSink } from '../model-stream';
import { redactingLogger } from '../redacting-logger';
import { ATTEMPT_STOPPED, runModelStream, type AttemptContext, type AttemptResult, type RunModelStreamOptions } from '../run-model-stream';
import { stringOr, tokenCountOr } from '../server-json';
import { ConnectionPool, type ConnectionPoolOptions } from './connection-pool';
import { ResponsesSocket } from './responses-socket';
import { answerEvent, failedResponse, inBandError, incompleteReason, preloadEvent, preloadKey, type CreateEvent, type Preload, type ServerEvent } from './responses-wire';
import { trimEndCharacter } from '../../../shared/trim-character';

export interface ResponsesProviderOptions {
  /** http(s)://host/v1 or ws(s)://host/v1 */
  baseUrl: string;
  apiKey: string | null;
  /** The model context is pre-loaded for. */
  model: string;
  logger: Logger;
  handshakeTimeoutMs?: number;
  /** No event for this long mid-answer means the stream stalled. */
  idleTimeoutMs?: number;
  maxFrameBytes?: number;
  pool?: Partial<Omit<ConnectionPoolOptions, 'connect'>>;
}

/** The WebSocket URL of the responses endpoint for a base URL. */
export function responsesUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new InferenceFailure('bad-configuration', `The base URL ${JSON.stringify(baseUrl)} is not a URL.`);
  }
  const schemes: Record<string, string> = { 'http:': 'ws:', 'https:': 'wss:', 'ws:': 'ws:', 'wss:': 'wss:' };
  const scheme = schemes[url.protocol];
  if (!scheme) {
    throw new InferenceFailure('bad-configuration', `The base URL must start with https:// (or http://, ws://, wss://), not ${url.protocol}//.`);
  }
  url.protocol = scheme;
  url.pathname = `${trimEndCharacter(url.pathname, '/')}/responses`;
  return url.toString();
}

/** Server events Flint reads or knowingly skips; anything else is logged once. */
const KNOWN_PREFIXES = ['response.'];

/**
 * How many distinct unknown event types a provider logs. A hostile or broken server can
 * send endless new ones: the set that remembers them, and the log, must stay bounded.
 */
export const MAX_LOGGED_UNKNOWN_TYPES = 100;

/** The longest an unknown event type gets in the log. */
const EVENT_TYPE_MAX = 80;

/**
 * The failures a second attempt may cure, before anything was shown:
 * - `connection-lost`: the socket dropped, reached its 60-minute limit, or went silent
 *   before the answer began. A warm socket can go stale unseen; the pool has a fresh one.
 * - `context-expired`: the server forgot the pre-loaded context; the retry sends it in full.
 * Not `unreachable`: taking a socket already made one immediate reconnect when none was
 * open (ConnectionPool.acquire), so another attempt would only knock on the same door.
 */
const RETRY_ON: readonly InferenceFailureCode[] = ['connection-lost', 'context-expired'];

/** How one exchange on one socket ended, and whether the socket can take another. */
interface Exchange {
  result: AttemptResult;
  socketBroken: boolean;
  /** The id of the response, from `response.created` (what a pre-load is remembered by). */
  responseId: string | null;
}

export class ResponsesProvider implements InferenceProvider {
  private readonly pool: ConnectionPool;
  private readonly url: string;
  /** What each socket has pre-loaded (set once its pre-load completed; the socket is reserved until then). */
  private readonly preloads = new WeakMap<ResponsesSocket, Preload>();
  private preloadText: string | null = null;
  /** Unknown event types already logged (at most `MAX_LOGGED_UNKNOWN_TYPES`). */
  private readonly loggedUnknown = new Set<string>();
  /** The cap was reached and said so: no more unknown types are logged or remembered. */
  private unknownLogFull = false;
  /** Aborted on dispose: every stream and pre-load under way ends ("settings changed"). */
  private readonly lifetime = new AbortController();
  private readonly redact = (text: string): string => redactKey(text, this.options.apiKey);
  /** Every line this provider logs can carry what the server sent: the key is hidden in all of them. */
  private readonly logger: Logger;

  readonly onDidChangeState: Event<{ state: ConnectionState; message?: string }>;

  constructor(private readonly options: ResponsesProviderOptions) {
    checkKeyIsSendable(options.apiKey);
    this.logger = redactingLogger(options.logger, options.apiKey);
    this.url = responsesUrl(options.baseUrl);
    this.pool = new ConnectionPool({
      ...options.pool,
      connect: () =>
        new ResponsesSocket({
          url: this.url,
          apiKey: options.apiKey,
          handshakeTimeoutMs: options.handshakeTimeoutMs ?? 10_000,
          maxFrameBytes: options.maxFrameBytes ?? 16 * 1024 * 1024,
          logger: options.logger,
        }),
    });
    this.onDidChangeState = (listener) =>
      this.pool.onDidChangeState((state) => listener(state.message === undefined ? state : { ...state, message: this.redact(state.message) }));
    this.pool.onDidOpenSocket((socket) => this.preloadOn(socket));
  }

  warm(): void {
    this.pool.warm();
  }

  preload(instructions: string): void {
    this.preloadText = instructions;
    this.pool.warm();
    for (const socket of this.pool.idleSockets()) this.preloadOn(socket);
  }

  stream(request: StreamRequest, sink: StreamSink): ModelStream {
    let usePreload = true;
    return runModelStream({
      ...this.lifecycle('responses'),
      request,
      sink,
      retryOn: RETRY_ON,
      attempt: async (context) => {
        const result = await this.answer(request, context, usePreload);
        // The server forgot the pre-loaded context: the retry sends it in full.
        if (result.kind === 'failed' && result.failure.code === 'context-expired') usePreload = false;
        return result;
      },
    });
  }

  dispose(): void {
    // The pool first: a stream stopped by the abort then closes its socket without opening a replacement.
    this.pool.dispose();
    this.lifetime.abort();
  }

  /** What every stream of this provider shares with runModelStream. */
  private lifecycle(name: string): Pick<RunModelStreamOptions, 'name' | 'apiKey' | 'logger' | 'idleTimeoutMs' | 'disposal'> {
    return { name, apiKey: this.options.apiKey, logger: this.logger, idleTimeoutMs: this.options.idleTimeoutMs ?? 30_000, disposal: this.lifetime.signal };
  }

  /** One answer: a socket from the pool, then one exchange on it. */
  private async answer(request: StreamRequest, context: AttemptContext, usePreload: boolean): Promise<AttemptResult> {
    let socket: ResponsesSocket;
    try {
      // The signal: a stopped attempt stops waiting at once, and leaves the next free socket to the live request.
      socket = await this.pool.acquire(context.signal);
    } catch (error) {
      if (context.signal.aborted) return ATTEMPT_STOPPED;
      if (error instanceof InferenceFailure) return { kind: 'failed', failure: error };
      throw error;
    }
    if (context.signal.aborted) {
      this.pool.release(socket);
      return ATTEMPT_STOPPED;
    }
    const preload = usePreload ? this.preloadFor(socket, request) : null;
    return this.exchangeOn(socket, answerEvent(request, preload), context);
  }

  /**
   * One exchange on a socket taken from the pool; the socket goes back (or, broken, is
   * dropped) before this returns. `remember` records a completed response's id first, so a
   * request waiting for the socket finds what it pre-loaded.
   */
  private async exchangeOn(socket: ResponsesSocket, body: CreateEvent, context: AttemptContext, remember?: (responseId: string) => void): Promise<AttemptResult> {
    const { result, socketBroken, responseId } = await this.exchange(socket, body, context);
    if (result.kind === 'completed' && responseId !== null) remember?.(responseId);
    if (result.kind === 'failed' && result.failure.code === 'context-expired') this.preloads.delete(socket);
    if (socketBroken) this.pool.discard(socket);
    else this.pool.release(socket);
    return result;
  }

  /** Sends one response.create and follows its events to the end. */
  private exchange(socket: ResponsesSocket, body: CreateEvent, context: AttemptContext): Promise<Exchange> {
    return new Promise<Exchange>((resolve) => {
      const progress = { answered: false, responseId: null as string | null };
      let finished = false;
      const finish = (result: AttemptResult, socketBroken: boolean): void => {
        if (finished) return;
        finished = true;
        events.dispose();
        closes.dispose();
        context.signal.removeEventListener('abort', stop);
        resolve({ result, socketBroken, responseId: progress.responseId });
      };
      // No cancel event exists in this protocol: closing the socket is how the server learns
      // (exchangeOn discards a broken socket, at once after this).
      const stop = (): void => finish(ATTEMPT_STOPPED, true);
      const events = socket.onEvent((event) => {
        context.alive();
        this.handleEvent(event, context, progress, finish);
      });
      const closes = socket.onClose((failure) => {
        // The socket knows it dropped; only the exchange knows how far the answer had got.
        const dropped = failure?.code === 'connection-lost' ? connectionDropped(socket.host, progress.answered ? 'mid-answer' : 'before-answer', this.options.apiKey, socket.closeReason) : failure;
        finish({ kind: 'failed', failure: dropped ?? new InferenceFailure('connection-lost', 'The connection closed before the answer completed.') }, true);
      });
      context.signal.addEventListener('abort', stop, { once: true });
      socket.send(body).then(
        (writtenAt) => context.latency.written(writtenAt),
        (failure: InferenceFailure) => finish({ kind: 'failed', failure }, true),
      );
      context.alive();
    });
  }

  private handleEvent(event: ServerEvent, context: AttemptContext, progress: { answered: boolean; responseId: string | null }, finish: (result: AttemptResult, socketBroken: boolean) => void): void {
    const { apiKey } = this.options;
    switch (event.type) {
      case 'response.created': {
        progress.responseId ??= stringOr(event.response?.id) ?? null;
        // The model that answers, as the provider names it (never a text that holds the key).
        const model = stringOr(event.response?.model);
        if (model !== undefined && redactKey(model, apiKey) === model) context.latency.answeredBy(model);
        return;
      }
      case 'response.output_text.delta': {
        const delta = stringOr(event.delta);
        if (delta === undefined) return;
        progress.answered = true;
        return context.deliver(delta);
      }
      case 'response.completed': {
        const tokens = tokenCountOr(event.response?.usage?.output_tokens);
        if (tokens !== undefined) context.latency.outputTokens(tokens);
        return finish({ kind: 'completed' }, false);
      }
      case 'response.incomplete':
        return finish({ kind: 'incomplete', reason: incompleteReason(event, apiKey) }, false);
      case 'response.failed':
        return finish({ kind: 'failed', failure: failedResponse(event, apiKey) }, false);
      case 'error': {
        const { failure, socketBroken } = inBandError(event, apiKey);
        return finish({ kind: 'failed', failure }, socketBroken);
      }
      // Other response.* events are skipped knowingly; tool-call input among them is never requested (no tool is declared).
      default:
        if (!KNOWN_PREFIXES.some((prefix) => event.type.startsWith(prefix))) this.logUnknown(event.type);
        return;
    }
  }

  /** Logs an unknown event type the first time it comes, for the first `MAX_LOGGED_UNKNOWN_TYPES` types. */
  private logUnknown(type: string): void {
    if (this.loggedUnknown.has(type) || this.unknownLogFull) return;
    if (this.loggedUnknown.size >= MAX_LOGGED_UNKNOWN_TYPES) {
      this.unknownLogFull = true;
      this.loggedUnknown.clear();
      this.logger.warn('responses: further unknown event types are not logged');
      return;
    }
    this.loggedUnknown.add(type);
    this.logger.warn(`responses: ignored unknown event type ${JSON.stringify(redactAndCut(type, this.options.apiKey, EVENT_TYPE_MAX))}`);
  }

  /**
   * Pre-loads the current instructions on an idle socket with `generate: false`.
   *
   * The socket is reserved until the pre-load settles, so no answer ever shares a socket
   * with it (the server would interleave nothing, but our event stream would). A pre-load
   * is a stream with nobody watching: runModelStream bounds its stall and ends it on dispose.
   */
  private preloadOn(socket: ResponsesSocket): void {
    const text = this.preloadText;
    if (text === null || socket.state !== 'open' || !this.pool.reserve(socket)) return;
    const { model } = this.options;
    let attempted = false;
    const loading = runModelStream({
      ...this.lifecycle('responses pre-load'),
      request: { model, input: '' },
      sink: { onDelta: () => undefined, onEnd: () => undefined },
      // A pre-load only saves time later: a failed one is not worth another socket.
      retryOn: [],
      attempt: (context) => {
        attempted = true;
        return this.exchangeOn(socket, preloadEvent(model, text), context, (responseId) => this.preloads.set(socket, { key: preloadKey(model, text), responseId }));
      },
    });
    void loading.done.then((end) => {
      // Ended before its attempt began (the provider was disposed): the reservation was never the attempt's to give back.
      if (!attempted) return this.pool.release(socket);
      // Newer context arrived while this one loaded (the hotkey after app start): load that
      // too, unless a request took the socket first (reserve refuses then).
      if (end.outcome === 'completed' && this.preloadText !== text) this.preloadOn(socket);
    });
  }

  /** The socket's pre-loaded context, if it matches this request. */
  private preloadFor(socket: ResponsesSocket, request: StreamRequest): Preload | null {
    const preload = this.preloads.get(socket);
    if (!preload || request.instructions === undefined) return null;
    return preload.key === preloadKey(request.model, request.instructions) ? preload : null;
  }
}
