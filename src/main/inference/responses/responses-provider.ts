/**
 * OpenAI Responses over WebSocket (OpenAI, xAI, Azure): warm sockets, pre-loaded
 * context, one response per socket, cancel by closing, one clean retry.
 */
import { performance } from 'node:perf_hooks';
import type { ConnectionState } from '../../../shared/inference-types';
import type { Event } from '../../lifecycle';
import type { Logger } from '../../logger';
import { checkKeyIsSendable, connectionDropped, failureFromStatus, InferenceFailure, quoteProvider } from '../inference-failure';
import { redactAndCut, redactKey } from '../key-redactor';
import { LatencyRecorder } from '../latency-recorder';
import type { InferenceProvider, ModelStream, StreamEnd, StreamRequest, StreamSink } from '../model-stream';
import { redactingLogger } from '../redacting-logger';
import { StreamEnding } from '../stream-ending';
import { ConnectionPool, type ConnectionPoolOptions } from './connection-pool';
import { ResponsesSocket, type ResponsesServerEvent } from './responses-socket';

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
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/responses`;
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

interface Preload {
  key: string;
  responseId: string;
}

/** How one exchange on one socket ended. */
type ExchangeResult =
  | { kind: 'completed' }
  | { kind: 'incomplete'; message: string }
  | { kind: 'failed'; failure: InferenceFailure; socketBroken: boolean; retryWithoutPreload?: boolean };

export class ResponsesProvider implements InferenceProvider {
  private readonly pool: ConnectionPool;
  private readonly url: string;
  /** What each socket has pre-loaded (set once its pre-load settled; the socket is reserved until then). */
  private readonly preloads = new WeakMap<ResponsesSocket, Preload>();
  private preloadText: string | null = null;
  /** Unknown event types already logged (at most `MAX_LOGGED_UNKNOWN_TYPES`). */
  private readonly loggedUnknown = new Set<string>();
  /** The cap was reached and said so: no more unknown types are logged or remembered. */
  private unknownLogFull = false;
  private disposed = false;
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
    const latency = new LatencyRecorder(request.model, request.keypressAt ?? performance.now());
    let cancelled = false;
    let active: ResponsesSocket | null = null;
    // Deltas go out through `ending`: key hidden, and nothing after the end (or a cancel).
    const ending = new StreamEnding(sink, latency, this.options.apiKey);
    const end = (outcome: StreamEnd['outcome'], message?: string): void => ending.end(outcome, message);

    const run = async (): Promise<void> => {
      let usePreload = true;
      for (let attempt = 0; attempt < 2; attempt += 1) {
        let socket: ResponsesSocket;
        try {
          socket = await this.pool.acquire();
        } catch (error) {
          return end('failed', error instanceof Error ? error.message : String(error));
        }
        if (cancelled) return this.pool.release(socket);
        active = socket;
        const preload = usePreload ? this.preloadFor(socket, request) : null;
        let delivered = false;
        const result = await this.exchange(socket, createBody(request, preload), latency, {
          onDelta: (kind, text) => {
            delivered = true;
            ending.deliver(kind, text);
          },
          onEnd: () => undefined,
        });
        active = null;
        if (cancelled) return;
        if (this.disposed) return end('failed', 'Stopped: the provider settings changed. Ask again.');
        if (result.kind === 'completed' || result.kind === 'incomplete') {
          this.pool.release(socket);
          return result.kind === 'completed' ? end('completed') : end('incomplete', result.message);
        }
        if (result.socketBroken) this.pool.discard(socket);
        else this.pool.release(socket);
        if (result.retryWithoutPreload) {
          this.preloads.delete(socket);
          usePreload = false;
        }
        // Retry once, and only at a clean boundary: nothing shown yet, so nothing is replayed.
        const retryable = !delivered && (result.retryWithoutPreload || result.failure.code === 'connection-lost');
        if (!retryable || attempt === 1) return end('failed', result.failure.message);
        latency.resetDeltas();
        this.logger.info(`responses: retrying after ${result.failure.code}`);
      }
    };
    run().catch((error: unknown) => {
      this.logger.error('responses stream failed', error);
      end('failed', 'Flint hit an internal error; the details are in its log.');
    });

    return {
      cancel: () => {
        if (ending.isEnded) return;
        cancelled = true;
        // No cancel event exists in this protocol: closing the socket is how the server learns.
        if (active) this.pool.discard(active);
        end('cancelled');
      },
      done: ending.done,
    };
  }

  dispose(): void {
    this.disposed = true;
    this.pool.dispose();
  }

  /** Sends one response.create and follows its events to the end. */
  private exchange(
    socket: ResponsesSocket,
    body: Record<string, unknown>,
    latency: LatencyRecorder,
    sink: StreamSink,
  ): Promise<ExchangeResult> {
    return new Promise<ExchangeResult>((resolve) => {
      let stallTimer: NodeJS.Timeout | null = null;
      let answered = false;
      const idleTimeoutMs = this.options.idleTimeoutMs ?? 30_000;
      const finish = (result: ExchangeResult): void => {
        if (stallTimer) clearTimeout(stallTimer);
        events.dispose();
        closes.dispose();
        resolve(result);
      };
      const armStallTimer = (): void => {
        if (stallTimer) clearTimeout(stallTimer);
        stallTimer = setTimeout(() => {
          finish({ kind: 'failed', socketBroken: true, failure: new InferenceFailure('connection-lost', `The provider stopped sending (nothing for ${Math.round(idleTimeoutMs / 1000)} s).`) });
        }, idleTimeoutMs);
      };
      const answerSink: StreamSink = {
        onDelta: (kind, text) => {
          answered = true;
          sink.onDelta(kind, text);
        },
        onEnd: () => undefined,
      };
      const events = socket.onEvent((event) => {
        armStallTimer();
        this.handleEvent(event, latency, answerSink, finish);
      });
      const closes = socket.onClose((failure) => {
        // The socket knows it dropped; only the exchange knows how far the answer had got.
        const dropped = failure?.code === 'connection-lost' ? connectionDropped(socket.host, answered ? 'mid-answer' : 'before-answer', this.options.apiKey, socket.closeReason) : failure;
        finish({ kind: 'failed', socketBroken: true, failure: dropped ?? new InferenceFailure('connection-lost', 'The connection closed before the answer completed.') });
      });
      // Cancellation closes the socket, which ends the exchange through onClose.
      armStallTimer();
      socket.send(body).then(
        (writtenAt) => latency.written(writtenAt),
        (failure: InferenceFailure) => finish({ kind: 'failed', socketBroken: true, failure }),
      );
    });
  }

  private handleEvent(event: ResponsesServerEvent, latency: LatencyRecorder, sink: StreamSink, finish: (result: ExchangeResult) => void): void {
    switch (event.type) {
      case 'response.output_text.delta':
      case 'response.custom_tool_call_input.delta': {
        if (typeof event.delta !== 'string') return;
        latency.delta();
        sink.onDelta(event.type === 'response.output_text.delta' ? 'text' : 'tool', event.delta);
        return;
      }
      case 'response.completed': {
        const usage = (event.response as { usage?: { output_tokens?: number } } | undefined)?.usage;
        if (typeof usage?.output_tokens === 'number') latency.outputTokens(usage.output_tokens);
        return finish({ kind: 'completed' });
      }
      case 'response.incomplete':
        return finish({ kind: 'incomplete', message: incompleteMessage(event.response, this.options.apiKey) });
      case 'response.failed': {
        const error = (event.response as { error?: { code?: string; message?: string } } | undefined)?.error;
        const failure = failureFromStatus({ status: undefined, providerMessage: typeof error?.message === 'string' ? error.message : 'the response failed', code: error?.code, apiKey: this.options.apiKey });
        return finish({ kind: 'failed', socketBroken: false, failure });
      }
      case 'error':
        return finish(inBandError(event, this.options.apiKey));
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
   * The socket is reserved until the pre-load settles, so no answer ever shares a
   * socket with it (the server would interleave nothing, but our event stream would).
   */
  private preloadOn(socket: ResponsesSocket): void {
    const text = this.preloadText;
    if (text === null || socket.state !== 'open' || !this.pool.reserve(socket)) return;
    const key = `${this.options.model}\u0000${text}`;
    let responseId: string | null = null;
    const capture = socket.onEvent((event) => {
      if (event.type === 'response.created' && responseId === null) {
        responseId = (event.response as { id?: string } | undefined)?.id ?? null;
      }
    });
    this.exchange(
      socket,
      { type: 'response.create', model: this.options.model, store: false, generate: false, input: [message('developer', text)] },
      new LatencyRecorder(this.options.model),
      { onDelta: () => undefined, onEnd: () => undefined },
    ).then((result) => {
      capture.dispose();
      if (result.kind === 'completed' && responseId) this.preloads.set(socket, { key, responseId });
      if (result.kind === 'failed' && result.socketBroken) return this.pool.discard(socket);
      this.pool.release(socket);
      // Newer context arrived while this one loaded (the hotkey after app start): load that
      // too, unless a request is waiting for this very socket.
      if (this.preloadText !== text && result.kind === 'completed' && !this.pool.hasWaiters) this.preloadOn(socket);
    });
  }

  /** The socket's pre-loaded context, if it matches this request. */
  private preloadFor(socket: ResponsesSocket, request: StreamRequest): Preload | null {
    const preload = this.preloads.get(socket);
    if (!preload || request.instructions === undefined) return null;
    return preload.key === `${request.model}\u0000${request.instructions}` ? preload : null;
  }
}

/** The response.create body: only the question when context is pre-loaded, else everything. */
function createBody(request: StreamRequest, preload: Preload | null): Record<string, unknown> {
  if (preload) {
    return { type: 'response.create', model: request.model, store: false, previous_response_id: preload.responseId, input: [message('user', request.input)] };
  }
  return {
    type: 'response.create',
    model: request.model,
    store: false,
    ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
    input: [message('user', request.input)],
  };
}

function message(role: 'user' | 'developer', text: string): Record<string, unknown> {
  return { type: 'message', role, content: [{ type: 'input_text', text }] };
}

/**
 * The words for a `response.incomplete`: its reason, when the server gave a string one.
 *
 * The event is server JSON: a hostile or broken server can put anything there (a number,
 * an object, null), and anything but a string reads as no reason rather than a throw. The
 * key is hidden and the reason shortened before underscores become spaces: a key with an
 * underscore would no longer match once re-spelled.
 */
function incompleteMessage(response: unknown, apiKey: string | null): string {
  const details = typeof response === 'object' && response !== null ? (response as { incomplete_details?: unknown }).incomplete_details : undefined;
  const reason = typeof details === 'object' && details !== null ? (details as { reason?: unknown }).reason : undefined;
  const words = typeof reason === 'string' ? quoteProvider(reason, apiKey).replaceAll('_', ' ').trim() : '';
  return `The answer stopped early${words ? ` (${words})` : ''}.`;
}

function inBandError(event: ResponsesServerEvent, apiKey: string | null): ExchangeResult {
  const error = (event.error ?? event) as { code?: string | null; message?: string; headers?: Record<string, string> };
  const status = typeof event.status === 'number' ? event.status : undefined;
  switch (error.code) {
    case 'previous_response_not_found':
      return { kind: 'failed', socketBroken: false, retryWithoutPreload: true, failure: new InferenceFailure('protocol-error', 'The pre-loaded context expired.') };
    case 'websocket_connection_limit_reached':
      return { kind: 'failed', socketBroken: true, failure: new InferenceFailure('connection-lost', 'The connection reached the provider’s 60-minute limit.') };
    default:
      return {
        kind: 'failed',
        socketBroken: false,
        failure: failureFromStatus({ status, providerMessage: typeof error.message === 'string' ? error.message : '', code: error.code, retryAfter: error.headers?.['retry-after'], apiKey }),
      };
  }
}
