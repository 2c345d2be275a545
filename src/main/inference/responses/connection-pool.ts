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
  /** In use by one request, or reserved for a pre-load; either way not handed out. */
  busy: boolean;
  /** Busy with a pre-load: still counts as spare capacity, so pre-loads never grow the pool. */
  preloading: boolean;
  retiring: boolean;
  /** Whether it ever opened: a failed open is handled by its `opened` rejection alone. */
  opened: boolean;
}

export class ConnectionPool implements Disposable {
  private readonly pooled: PooledSocket[] = [];
  private failures = 0;
  private lastFailure: InferenceFailure | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private ageTimer: NodeJS.Timeout | null = null;
  private disposed = false;
  private warmed = false;
  /** Woken whenever a socket opens, fails, is released or leaves the pool. */
  private waiters = new Set<() => void>();
  /** Requests inside `acquire`: while any waits, no pre-load may take an idle socket. */
  private acquiring = 0;
  private readonly _onDidChangeState = new Emitter<{ state: ConnectionState; message?: string }>();
  private readonly _onDidOpenSocket = new Emitter<ResponsesSocket>();
  private readonly options: Required<ConnectionPoolOptions>;

  /** The pool's health, for the status bar. */
  readonly onDidChangeState: Event<{ state: ConnectionState; message?: string }> = this._onDidChangeState.event;
  /** A socket opened (the provider pre-loads context on it, after `reserve`). */
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

  /** Sockets open and idle now (to pre-load context on). */
  idleSockets(): ResponsesSocket[] {
    return this.pooled.filter((entry) => this.isIdle(entry)).map((entry) => entry.socket);
  }

  /** Sockets open and idle now. */
  get idleCount(): number {
    return this.pooled.filter((entry) => this.isIdle(entry)).length;
  }

  /**
   * Takes an open, idle socket for one response. Waits (bounded) for one that is
   * opening or finishing a pre-load. A user waiting skips the reconnect backoff: one
   * immediate attempt, so a dead server fails fast and a recovered one answers at once.
   *
   * `signal` aborts the wait (the request was cancelled): it rejects at once, so a dead
   * request neither holds pre-loads off nor takes the next free socket from a live one.
   */
  async acquire(signal?: AbortSignal): Promise<ResponsesSocket> {
    if (this.disposed) throw new InferenceFailure('connection-lost', 'Flint is shutting down.');
    this.acquiring += 1;
    try {
      return await this.waitForIdle(signal);
    } finally {
      this.acquiring -= 1;
    }
  }

  private async waitForIdle(signal: AbortSignal | undefined): Promise<ResponsesSocket> {
    this.warm();
    const deadline = performance.now() + this.options.acquireTimeoutMs;
    let skippedBackoff = false;
    for (;;) {
      if (this.disposed) throw new InferenceFailure('connection-lost', 'The provider settings changed; ask again.');
      if (signal?.aborted) throw new InferenceFailure('connection-lost', 'The request was stopped while it waited for a connection.');
      const idle = this.pooled.find((entry) => this.isIdle(entry));
      if (idle) {
        idle.busy = true;
        this.fill();
        return idle.socket;
      }
      const pending = this.pooled.some((entry) => entry.socket.state === 'connecting' || (entry.busy && entry.socket.state === 'open'));
      if (!pending) {
        if (this.retryTimer && !skippedBackoff) {
          skippedBackoff = true;
          clearTimeout(this.retryTimer);
          this.retryTimer = null;
          this.fill();
          continue;
        }
        throw this.lastFailure ?? new InferenceFailure('unreachable', 'No connection to the provider is open.');
      }
      const remaining = deadline - performance.now();
      if (remaining <= 0) throw new InferenceFailure('unreachable', 'The provider did not accept a connection in time.');
      await this.changed(remaining, signal);
    }
  }

  /**
   * Marks an idle socket busy for a pre-load; false if it is not idle, or if a request is
   * waiting: a socket released (or opened) while one waits is the request's, not a pre-load's.
   */
  reserve(socket: ResponsesSocket): boolean {
    const entry = this.pooled.find((candidate) => candidate.socket === socket);
    if (!entry || !this.isIdle(entry) || this.acquiring > 0) return false;
    entry.busy = true;
    entry.preloading = true;
    return true;
  }

  /** Returns a socket after a response completed (or a pre-load settled); it stays warm. */
  release(socket: ResponsesSocket): void {
    const entry = this.pooled.find((candidate) => candidate.socket === socket);
    if (!entry) return;
    entry.busy = false;
    entry.preloading = false;
    if (entry.retiring) this.discard(socket);
    this.notify();
  }

  /**
   * Drops a socket (cancelled, broken, too old); a replacement opens. A no-op for a socket
   * no longer in the pool: it was discarded already, closed by itself, or the pool was
   * disposed. A second dispose would cut the first one's closing handshake short.
   */
  discard(socket: ResponsesSocket): void {
    const index = this.pooled.findIndex((candidate) => candidate.socket === socket);
    if (index === -1) return;
    this.pooled.splice(index, 1);
    socket.dispose();
    this.fill();
    this.notify();
  }

  dispose(): void {
    this.disposed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.ageTimer) clearInterval(this.ageTimer);
    for (const entry of this.pooled.splice(0)) entry.socket.dispose();
    this.notify();
    this._onDidChangeState.dispose();
    this._onDidOpenSocket.dispose();
  }

  private isIdle(entry: PooledSocket): boolean {
    return !entry.busy && !entry.retiring && entry.socket.state === 'open';
  }

  /** Resolves when the pool changes, `timeoutMs` passes, or `signal` aborts, whichever is first. */
  private changed(timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.waiters.delete(wake);
        signal?.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, timeoutMs);
      timer.unref();
      this.waiters.add(wake);
      signal?.addEventListener('abort', wake, { once: true });
    });
  }

  private notify(): void {
    for (const wake of [...this.waiters]) wake();
  }

  private fill(): void {
    if (this.disposed || !this.warmed || this.retryTimer) return;
    while (this.pooled.filter((entry) => (!entry.busy || entry.preloading) && !entry.retiring).length < this.options.size - this.busyCount()) {
      this.open();
    }
    this.publishState();
  }

  private busyCount(): number {
    return Math.min(1, this.pooled.filter((entry) => entry.busy && !entry.preloading).length);
  }

  private open(): void {
    const socket = this.options.connect();
    const entry: PooledSocket = { socket, busy: false, preloading: false, retiring: false, opened: false };
    this.pooled.push(entry);
    socket.opened.then(
      () => {
        entry.opened = true;
        this.failures = 0;
        this.lastFailure = null;
        this.publishState();
        this.notify();
        this._onDidOpenSocket.fire(socket);
      },
      (failure: InferenceFailure) => {
        this.remove(entry);
        this.lastFailure = failure;
        this.failures += 1;
        // A wrong key or URL will not fix itself: no timer; the next request tries once more.
        if (isPermanent(failure)) {
          if (this.retryTimer) clearTimeout(this.retryTimer);
          this.retryTimer = null;
          this.publishState();
        } else {
          this.scheduleRetry();
        }
        this.notify();
      },
    );
    socket.onClose((failure) => {
      // A socket that never opened is the `opened` rejection's to handle (ws closes it first).
      if (!entry.opened || !this.pooled.includes(entry)) return;
      this.remove(entry);
      if (failure && failure.code === 'connection-lost' && !entry.busy) {
        // An idle socket dropped (network change, server restart): reopen with backoff.
        this.lastFailure = failure;
        this.failures += 1;
        this.scheduleRetry();
      } else {
        this.fill();
      }
      this.notify();
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
  return failure.code === 'unauthorized' || failure.code === 'bad-configuration' || failure.code === 'model-unavailable';
}
