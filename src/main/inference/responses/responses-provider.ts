/**
 * OpenAI Responses over WebSocket (OpenAI, xAI, Azure): warm sockets, pre-loaded
 * context, one response per socket, cancel by closing, one clean retry.
 */
import { performance } from 'node:perf_hooks';
import type { ConnectionState } from '../../../shared/inference-types';
import type { Event } from '../../lifecycle';
import type { Logger } from '../../logger';
import { checkKeyIsSendable, failureFromStatus, InferenceFailure, redactKey } from '../inference-failure';
import { LatencyRecorder } from '../latency-recorder';
import type { InferenceProvider, ModelStream, StreamEnd, StreamRequest, StreamSink } from '../model-stream';
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
  private readonly loggedUnknown = new Set<string>();
  private disposed = false;
  private readonly redact = (text: string): string => redactKey(text, this.options.apiKey);

  readonly onDidChangeState: Event<{ state: ConnectionState; message?: string }>;

  constructor(private readonly options: ResponsesProviderOptions) {
    checkKeyIsSendable(options.apiKey);
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
    const ending = new StreamEnding(sink, latency, this.redact);
    const end = (outcome: StreamEnd['outcome'], message?: string): void => ending.end(outcome, message);
    const guardedSink: StreamSink = {
      onDelta: (kind, text) => {
        if (!cancelled) sink.onDelta(kind, text);
      },
      onEnd: () => undefined,
    };

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
            guardedSink.onDelta(kind, text);
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
        this.options.logger.info(`responses: retrying after ${result.failure.code}`);
      }
    };
    run().catch((error: unknown) => {
      this.options.logger.error('responses stream failed', error);
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
      const events = socket.onEvent((event) => {
        armStallTimer();
        this.handleEvent(event, latency, sink, finish);
      });
      const closes = socket.onClose((failure) => {
        finish({ kind: 'failed', socketBroken: true, failure: failure ?? new InferenceFailure('connection-lost', 'The connection closed before the answer completed.') });
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
      case 'response.incomplete': {
        const reason = (event.response as { incomplete_details?: { reason?: string } } | undefined)?.incomplete_details?.reason;
        return finish({ kind: 'incomplete', message: `The answer stopped early${reason ? ` (${reason.replaceAll('_', ' ')})` : ''}.` });
      }
      case 'response.failed': {
        const error = (event.response as { error?: { code?: string; message?: string } } | undefined)?.error;
        return finish({ kind: 'failed', socketBroken: false, failure: failureFromStatus(undefined, error?.message ?? 'the response failed', error?.code) });
      }
      case 'error':
        return finish(inBandError(event));
      default:
        if (!KNOWN_PREFIXES.some((prefix) => event.type.startsWith(prefix)) && !this.loggedUnknown.has(event.type)) {
          this.loggedUnknown.add(event.type);
          this.options.logger.warn(`responses: ignored unknown event type ${JSON.stringify(event.type.slice(0, 80))}`);
        }
        return;
    }
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

function inBandError(event: ResponsesServerEvent): ExchangeResult {
  const error = (event.error ?? event) as { code?: string | null; message?: string; headers?: Record<string, string> };
  const status = typeof event.status === 'number' ? event.status : undefined;
  switch (error.code) {
    case 'previous_response_not_found':
      return { kind: 'failed', socketBroken: false, retryWithoutPreload: true, failure: new InferenceFailure('protocol-error', 'The pre-loaded context expired.') };
    case 'websocket_connection_limit_reached':
      return { kind: 'failed', socketBroken: true, failure: new InferenceFailure('connection-lost', 'The connection reached the provider’s 60-minute limit.') };
    default:
      return { kind: 'failed', socketBroken: false, failure: failureFromStatus(status, error.message ?? '', error.code, error.headers?.['retry-after']) };
  }
}
