/**
 * Keeps Responses sockets warm: one to use and a hot spare.
 *
 * Responses WebSocket has no cancel event, so a cancelled answer costs its socket;
 * the spare takes over at once (no new handshake on the next request) and a new
 * spare opens in the background. Failed opens retry with jittered exponential
 * backoff. Sockets are retired before the server's 60-minute connection limit.
 */
import { performance } from 'node:perf_hooks';
import type { ConnectionState } from '../../../shared/inference-types';
import { Emitter, type Disposable, type Event } from '../../lifecycle';
import { InferenceFailure } from '../inference-failure';
import type { ResponsesSocket } from './responses-socket';

export interface ConnectionPoolOptions {
  connect: () => ResponsesSocket;
  /** Sockets kept open: 2 = one in use plus a hot spare. */
  size?: number;
  /** Retire sockets this old (the server's limit is 60 minutes). */
  maxAgeMs?: number;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  /** How long `acquire` waits for a socket that is still opening. */
  acquireTimeoutMs?: number;
  random?: () => number;
}

interface PooledSocket {
  socket: ResponsesSocket;
  busy: boolean;
  retiring: boolean;
}

export class ConnectionPool implements Disposable {
  private readonly pooled: PooledSocket[] = [];
  private failures = 0;
  private lastFailure: InferenceFailure | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private ageTimer: NodeJS.Timeout | null = null;
  private disposed = false;
  private warmed = false;
  private readonly _onDidChangeState = new Emitter<{ state: ConnectionState; message?: string }>();
  private readonly _onDidOpenSocket = new Emitter<ResponsesSocket>();
  private readonly options: Required<ConnectionPoolOptions>;

  /** The pool's health, for the status bar. */
  readonly onDidChangeState: Event<{ state: ConnectionState; message?: string }> = this._onDidChangeState.event;
  /** A socket opened (the provider pre-loads context on it). */
  readonly onDidOpenSocket: Event<ResponsesSocket> = this._onDidOpenSocket.event;

  constructor(options: ConnectionPoolOptions) {
    this.options = {
      size: 2,
      maxAgeMs: 55 * 60_000,
      backoffInitialMs: 250,
      backoffMaxMs: 15_000,
      acquireTimeoutMs: 10_000,
      random: Math.random,
      ...options,
    };
  }

  /** Opens sockets up to the pool size (idempotent). Called at app start and project open. */
  warm(): void {
    if (this.disposed) return;
    this.warmed = true;
    this.fill();
    if (!this.ageTimer) {
      this.ageTimer = setInterval(() => this.retireOld(), Math.min(60_000, this.options.maxAgeMs / 4));
      this.ageTimer.unref();
    }
  }

  /** Sockets open and idle now. */
  get idleCount(): number {
    return this.pooled.filter((entry) => !entry.busy && !entry.retiring && entry.socket.state === 'open').length;
  }

  /**
   * Takes an open, idle socket for one response. Waits (bounded) for one that is
   * opening; fails fast with the last error when none can be had.
   */
  async acquire(): Promise<ResponsesSocket> {
    if (this.disposed) throw new InferenceFailure('connection-lost', 'Flint is shutting down.');
    this.warm();
    const deadline = performance.now() + this.options.acquireTimeoutMs;
    for (;;) {
      const idle = this.pooled.find((entry) => !entry.busy && !entry.retiring && entry.socket.state === 'open');
      if (idle) {
        idle.busy = true;
        this.fill();
        return idle.socket;
      }
      const opening = this.pooled.filter((entry) => !entry.busy && entry.socket.state === 'connecting');
      if (opening.length === 0) {
        throw this.lastFailure ?? new InferenceFailure('unreachable', 'No connection to the provider is open; retrying.');
      }
      const remaining = deadline - performance.now();
      if (remaining <= 0) throw new InferenceFailure('unreachable', 'The provider did not accept a connection in time.');
      await Promise.race([
        Promise.any(opening.map((entry) => entry.socket.opened)).catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, remaining)),
      ]);
    }
  }

  /** Returns a socket after a response completed; it stays warm for the next. */
  release(socket: ResponsesSocket): void {
    const entry = this.pooled.find((candidate) => candidate.socket === socket);
    if (!entry) return;
    entry.busy = false;
    if (entry.retiring) this.discard(socket);
  }

  /** Drops a socket (cancelled, broken, too old); a replacement opens. */
  discard(socket: ResponsesSocket): void {
    const index = this.pooled.findIndex((candidate) => candidate.socket === socket);
    if (index !== -1) this.pooled.splice(index, 1);
    socket.dispose();
    this.fill();
  }

  dispose(): void {
    this.disposed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.ageTimer) clearInterval(this.ageTimer);
    for (const entry of this.pooled.splice(0)) entry.socket.dispose();
    this._onDidChangeState.dispose();
    this._onDidOpenSocket.dispose();
  }

  private fill(): void {
    if (this.disposed || !this.warmed || this.retryTimer) return;
    while (this.pooled.filter((entry) => !entry.busy && !entry.retiring).length < this.options.size - this.busyCount()) {
      this.open();
    }
    this.publishState();
  }

  private busyCount(): number {
    return Math.min(1, this.pooled.filter((entry) => entry.busy).length);
  }

  private open(): void {
    const socket = this.options.connect();
    const entry: PooledSocket = { socket, busy: false, retiring: false };
    this.pooled.push(entry);
    socket.opened.then(
      () => {
        this.failures = 0;
        this.lastFailure = null;
        this.publishState();
        this._onDidOpenSocket.fire(socket);
      },
      (failure: InferenceFailure) => {
        this.remove(entry);
        this.lastFailure = failure;
        this.failures += 1;
        // A wrong key or URL will not fix itself: wait for the next request (or new settings).
        if (isPermanent(failure)) this.publishState();
        else this.scheduleRetry();
      },
    );
    socket.onClose((failure) => {
      if (!this.pooled.includes(entry)) return;
      this.remove(entry);
      if (failure && failure.code === 'connection-lost' && !entry.busy) {
        // An idle socket dropped (network change, server restart): reopen with backoff.
        this.lastFailure = failure;
        this.failures += 1;
        this.scheduleRetry();
      } else {
        this.fill();
      }
    });
  }

  private remove(entry: PooledSocket): void {
    const index = this.pooled.indexOf(entry);
    if (index !== -1) this.pooled.splice(index, 1);
  }

  /** Exponential backoff with jitter (half to full delay), so many clients do not retry in step. */
  private scheduleRetry(): void {
    if (this.disposed || this.retryTimer) return;
    const ceiling = Math.min(this.options.backoffMaxMs, this.options.backoffInitialMs * 2 ** Math.max(0, this.failures - 1));
    const delay = ceiling * (0.5 + this.options.random() / 2);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.fill();
    }, delay);
    this.retryTimer.unref();
    this.publishState();
  }

  private retireOld(): void {
    const now = performance.now();
    for (const entry of [...this.pooled]) {
      if (entry.socket.state !== 'open' || now - entry.socket.openedAt < this.options.maxAgeMs) continue;
      entry.retiring = true;
      if (!entry.busy) this.discard(entry.socket);
    }
    this.fill();
  }

  private publishState(): void {
    if (this.disposed) return;
    if (this.idleCount > 0 || this.pooled.some((entry) => entry.busy)) {
      this._onDidChangeState.fire({ state: 'ready' });
    } else if (this.lastFailure && (this.retryTimer || isPermanent(this.lastFailure))) {
      this._onDidChangeState.fire({ state: isPermanent(this.lastFailure) ? 'offline' : 'reconnecting', message: this.lastFailure.message });
    } else {
      this._onDidChangeState.fire({ state: 'connecting' });
    }
  }
}

function isPermanent(failure: InferenceFailure): boolean {
  return failure.code === 'unauthorized' || failure.code === 'bad-configuration' || failure.code === 'model-not-found';
}
