/**
 * One WebSocket to a Responses endpoint (`wss://…/v1/responses`), on `ws` directly.
 *
 * Not the SDK's ResponsesWS: Flint needs the moment bytes hit the socket (its latency
 * figure), an explicit "open" to keep a warm spare, bounded handshakes and frame
 * sizes, and no hidden queueing or reconnects. The simulator test proves the SDK and
 * this socket read the same protocol.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { Emitter, type Disposable, type Event } from '../../lifecycle';
import type { Logger } from '../../logger';
import { connectionDropped, failureFromNetwork, failureFromStatus, InferenceFailure, quoteProvider } from '../inference-failure';
import { redactingLogger } from '../redacting-logger';
import { isServerEvent, type CreateEvent, type ServerEvent } from './responses-wire';

export interface ResponsesSocketOptions {
  /** ws:// or wss:// URL of the responses endpoint. */
  url: string;
  apiKey: string | null;
  handshakeTimeoutMs: number;
  /** Frames above this close the connection (1009): no real event is near it. */
  maxFrameBytes: number;
  logger: Logger;
}

/** Where a socket is in its life. */
export type SocketState =
  /** Handshake in progress. */
  | 'connecting'
  /** Open and usable. */
  | 'open'
  /** Closed (by either side) or failed to open. */
  | 'closed';

let nextSocketId = 1;

export class ResponsesSocket implements Disposable {
  readonly id = nextSocketId++;
  /** host:port of the endpoint, for messages. */
  readonly host: string;
  private _closeReason = '';
  private readonly logger: Logger;
  private readonly socket: WebSocket;
  private _state: SocketState = 'connecting';
  private _openedAt = 0;
  private readonly _onEvent = new Emitter<ServerEvent>();
  private readonly _onClose = new Emitter<InferenceFailure | null>();

  /** Every parsed server event. Malformed frames and unknown types are logged, not raised. */
  readonly onEvent: Event<ServerEvent> = this._onEvent.event;
  /** The socket closed: null when Flint closed it, else why. */
  readonly onClose: Event<InferenceFailure | null> = this._onClose.event;
  /** Resolves when open; rejects with an InferenceFailure if it never opens. */
  readonly opened: Promise<void>;
  private closedByUs = false;
  private readonly apiKey: string | null;

  constructor(options: ResponsesSocketOptions) {
    this.apiKey = options.apiKey;
    // Everything this socket logs can come from the server (errors, close reasons).
    this.logger = redactingLogger(options.logger, options.apiKey);
    const headers: Record<string, string> = {};
    if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
    this.socket = new WebSocket(options.url, {
      headers,
      handshakeTimeout: options.handshakeTimeoutMs,
      maxPayload: options.maxFrameBytes,
      perMessageDeflate: false,
    });
    const host = (this.host = new URL(options.url).host);
    this.opened = new Promise<void>((resolve, reject) => {
      this.socket.once('open', () => {
        this._state = 'open';
        this._openedAt = performance.now();
        resolve();
      });
      this.socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body = (body + chunk.toString()).slice(0, 4096)));
        response.on('end', () => {
          const parsed = parseErrorBody(body);
          reject(
            failureFromStatus({ status: response.statusCode, providerMessage: parsed.message, code: parsed.code, retryAfter: header(response.headers['retry-after']), apiKey: options.apiKey }),
          );
          this.socket.terminate();
        });
      });
      this.socket.once('error', (error) => reject(failureFromNetwork(error, host)));
      this.socket.once('close', () => reject(new InferenceFailure('unreachable', `${host} closed the connection while opening it.`)));
    });
    this.opened.catch(() => undefined);

    this.socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    let errorCode: string | undefined;
    this.socket.on('error', (error: Error & { code?: string }) => {
      errorCode = error.code;
      this.logger.warn(`responses socket ${this.id} error: ${error.message}`);
    });
    this.socket.once('close', (code, reason) => {
      const wasOpen = this._state === 'open';
      this._state = 'closed';
      this._closeReason = reason.toString();
      // The close code is for the log: "1006" means nothing to the user.
      if (!this.closedByUs) this.logger.info(`responses socket ${this.id} closed (code ${code}${this._closeReason ? `: ${this._closeReason}` : ''})`);
      const said = this._closeReason ? ` (the provider said: ${quoteProvider(this._closeReason, options.apiKey)})` : '';
      const failure = this.closedByUs
        ? null
        : code === 1009 || errorCode === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH'
          ? new InferenceFailure('protocol-error', 'The provider sent a message larger than Flint accepts; the connection was closed.')
          : wasOpen
            ? connectionDropped(host, 'idle', options.apiKey, this._closeReason)
            : new InferenceFailure('connection-lost', `${host} closed the connection while opening it${said}.`);
      this._onClose.fire(failure);
      this._onEvent.dispose();
      this._onClose.dispose();
    });
  }

  get state(): SocketState {
    return this._state;
  }

  /** The reason the other side gave when it closed the socket (WebSocket close frame; often empty). */
  get closeReason(): string {
    return this._closeReason;
  }

  /** performance.now() when the socket opened (0 before). */
  get openedAt(): number {
    return this._openedAt;
  }

  /**
   * Sends one client event; resolves with performance.now() once ws has handed the
   * bytes to the OS (its write callback).
   *
   * A write that fails is a connection that died unseen (a warm socket gone stale, or one
   * the server is closing): `connection-lost`, which a retry on a fresh socket may cure.
   * The socket was open, so this is not "could not reach"; no answer can have begun.
   */
  send(event: CreateEvent): Promise<number> {
    if (this._state !== 'open') return Promise.reject(new InferenceFailure('connection-lost', 'The connection is not open.'));
    const payload = JSON.stringify(event);
    return new Promise((resolve, reject) => {
      this.socket.send(payload, (error) => {
        if (!error) return resolve(performance.now());
        this.logger.warn(`responses socket ${this.id}: the request could not be written: ${error.message}`);
        reject(connectionDropped(this.host, 'before-answer', this.apiKey));
      });
    });
  }

  /** Closes at once (cancel, rollover). Responses WebSocket has no cancel event: closing is how. */
  dispose(): void {
    if (this._state === 'closed' && this.closedByUs) return;
    this.closedByUs = true;
    if (this.socket.readyState === WebSocket.OPEN) {
      this.socket.close(1000, 'closed by Flint');
      // Don't wait out ws's 30-second closing handshake if the server never answers.
      setTimeout(() => this.socket.terminate(), 1000).unref();
    } else {
      this.socket.terminate();
    }
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    if (this.closedByUs) return;
    let event: unknown;
    try {
      event = isBinary ? undefined : JSON.parse(data.toString());
    } catch {
      event = undefined;
    }
    if (!isServerEvent(event)) {
      this.logger.warn(`responses socket ${this.id}: ignored a frame that is not a JSON event`);
      return;
    }
    this._onEvent.fire(event);
  }
}

function parseErrorBody(body: string): { message: string; code: string | null } {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown; code?: unknown } } | null;
    // Server JSON: a message or code that is not a string (a number, an object) is none.
    const { message, code } = parsed?.error ?? {};
    return { message: typeof message === 'string' ? message : '', code: typeof code === 'string' ? code : null };
  } catch {
    // Not JSON: the body itself (at most 4 KiB); failureFromStatus hides the key, then shortens it.
    return { message: body, code: null };
  }
}

function header(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}
