/**
 * `window.flint` for the serve shell: the contract over the page's own WebSocket.
 *
 * The token arrives in the URL fragment (`#token=…`), which the browser never sends to
 * any server. The bridge removes it from the address bar, keeps it in memory and in
 * sessionStorage (per tab, per origin including the port, so a reload works and no other
 * local server's page can read it) and offers it to the server only as a WebSocket
 * subprotocol. No cookie: cookies ignore ports, so every local server would get it.
 * Requests made while disconnected wait for the reconnect (one-way ones are dropped); a
 * request cut off by a lost connection fails and is never sent again.
 *
 * The connection's state (serve-connection.ts) goes to the serve connection store, for
 * the status bar and the one notice about it: never a notice per retry.
 */
import type { EventEnvelope, FlintApi } from '../../../shared/contract';
import { createFlintApi } from '../../../shared/flint-api';
import type { Result } from '../../../shared/result';
import {
  SERVE_INSTANCE_PATH,
  SERVE_SOCKET_PATH,
  SERVE_TOKEN_PARAMETER,
  SOCKET_PROTOCOL,
  TOKEN_PROTOCOL_PREFIX,
  type ServeServerMessage,
} from '../../../shared/serve-protocol';
import { initialServeLink, nextServeLink, shouldRetry, type ServeLink, type ServeLinkEvent } from './serve-connection';
import { serveConnectionStore, type ServeConnectionStore } from './serve-connection-store';

/** Fired on `window` after a lost connection comes back, so views can resync. */
export const RECONNECTED_EVENT = 'flint:reconnected';

const TOKEN_STORAGE_KEY = 'flint.serve-token';
/** The instance the stored token was admitted by, so a reload can still tell a restart. */
const INSTANCE_STORAGE_KEY = 'flint.serve-instance';
/** base64url, as the server makes it; anything else would make `new WebSocket` throw. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,256}$/;

const FIRST_RETRY_DELAY_MS = 250;
const MAX_RETRY_DELAY_MS = 5000;
/** A probe of a live server on loopback answers at once; a stopped (not dead) one never does. */
const PROBE_TIMEOUT_MS = 3000;

/**
 * The token for this page: from the URL fragment (then wiped from the address bar and
 * history entry) or, after a reload, from sessionStorage. Null if there is none.
 */
export function takeServeToken(): string | null {
  const fromFragment = new URLSearchParams(location.hash.slice(1)).get(SERVE_TOKEN_PARAMETER);
  if (fromFragment !== null) {
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    if (!TOKEN_SHAPE.test(fromFragment)) return null;
    try {
      // A new URL may be a new Flint: which instance it is will be learned on connecting.
      if (sessionStorage.getItem(TOKEN_STORAGE_KEY) !== fromFragment) sessionStorage.removeItem(INSTANCE_STORAGE_KEY);
      sessionStorage.setItem(TOKEN_STORAGE_KEY, fromFragment);
    } catch {
      // Storage disabled: the token lives in memory only, and a reload needs the URL again.
    }
    return fromFragment;
  }
  try {
    const stored = sessionStorage.getItem(TOKEN_STORAGE_KEY);
    return stored !== null && TOKEN_SHAPE.test(stored) ? stored : null;
  } catch {
    return null;
  }
}

/** The instance that admitted this tab's token before a reload, or null. */
function rememberedInstance(): string | null {
  try {
    return sessionStorage.getItem(INSTANCE_STORAGE_KEY);
  } catch {
    return null;
  }
}

function rememberInstance(instance: string): void {
  try {
    sessionStorage.setItem(INSTANCE_STORAGE_KEY, instance);
  } catch {
    // Storage disabled: after a reload, a restart reads as a refused token (the advice is the same).
  }
}

/** Builds the serve shell's `FlintApi` over one self-reconnecting WebSocket. */
export function connectServeBridge(): FlintApi {
  const bridge = new ServeBridge(serveConnectionStore, Date.now, takeServeToken());
  // A new URL pasted into this tab only changes the fragment: no reload, so take it here.
  window.addEventListener('hashchange', () => {
    const fresh = takeServeToken();
    if (fresh !== null) bridge.useToken(fresh);
  });
  return createFlintApi({
    invoke: (channel, input) => bridge.invoke(channel, input),
    sendOneWay: (channel, input) => bridge.sendOneWay(channel, input),
    subscribe: (listener) => bridge.subscribe(listener),
  });
}

/**
 * The socket, its retries and its state: what `connectServeBridge` wires to the page.
 *
 * A request sent over a socket that then closes fails (Flint may or may not have done
 * it; it is never sent again). A request made while no socket is admitted waits in the
 * outbox for the next one, and fails only if the link ends.
 */
class ServeBridge {
  private link: ServeLink;
  private readonly socketUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${SERVE_SOCKET_PATH}`;
  private readonly listeners = new Set<(envelope: EventEnvelope) => void>();
  /** Every request not yet answered, sent or not. */
  private readonly pending = new Map<number, (result: Result<unknown>) => void>();
  /** The requests sent over the current socket and not yet answered. */
  private readonly inFlight = new Set<number>();
  /** Requests waiting for an admitted socket, oldest first. */
  private readonly outbox: Array<{ id: number; frame: string }> = [];
  private socket: WebSocket | null = null;
  /** Counts attempts, so the answer of a probe made for an older one is dropped. */
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryDelay = FIRST_RETRY_DELAY_MS;
  private nextId = 1;
  /** Whether events were missed or requests failed since the last admitted socket: the views must reload. */
  private needsResync = false;

  constructor(
    private readonly store: ServeConnectionStore,
    private readonly now: () => number,
    private token: string | null,
  ) {
    this.link = initialServeLink(token !== null, token === null ? null : rememberedInstance());
    store.set(this.link.connection);
    this.connect();
  }

  invoke(channel: string, input: unknown): Promise<Result<unknown>> {
    return new Promise((resolve) => {
      if (this.link.connection.state === 'ended') {
        resolve({ ok: false, error: { code: 'io-error', message: this.link.connection.message } });
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, resolve);
      const frame = JSON.stringify({ id, channel, input });
      if (this.socket?.readyState === WebSocket.OPEN && this.link.connection.state === 'connected') this.send(this.socket, id, frame);
      else this.outbox.push({ id, frame });
    });
  }

  /**
   * Sends a one-way request over the admitted socket, without an id: nothing comes back.
   * Without one it is dropped, not queued: it speaks of now (an answer batch shown), and what
   * follows a reconnect (the views' resync) replaces it.
   */
  sendOneWay(channel: string, input: unknown): void {
    if (this.socket?.readyState === WebSocket.OPEN && this.link.connection.state === 'connected') this.socket.send(JSON.stringify({ channel, input }));
  }

  subscribe(listener: (envelope: EventEnvelope) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts over with a token from a new URL: drops the socket and any retry without a word. */
  useToken(fresh: string): void {
    if (fresh === this.token) return;
    this.token = fresh;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const old = this.socket;
    this.socket = null;
    old?.close();
    this.failInFlight();
    this.advance({ type: 'token' });
    this.retryDelay = FIRST_RETRY_DELAY_MS;
    this.connect();
  }

  private connect(): void {
    this.retryTimer = null;
    if (this.token === null || !shouldRetry(this.link)) return;
    const current = new WebSocket(this.socketUrl, [SOCKET_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${this.token}`]);
    const attempt = ++this.attempt;
    this.socket = current;
    let opened = false;
    current.onopen = () => {
      opened = true;
      // Only once the instance is known does the link count as up: a socket over the cap opens and closes at once.
      void probeInstance().then((instance) => {
        if (this.socket === current && current.readyState === WebSocket.OPEN) this.admitted(current, instance);
      });
    };
    current.onmessage = (message: MessageEvent<string>) => this.receive(JSON.parse(message.data) as ServeServerMessage);
    current.onclose = (event: CloseEvent) => {
      if (this.socket !== current) return;
      this.socket = null;
      this.failInFlight();
      if (opened) {
        // The server closed an open socket: events may have been missed. Retry at once, no probe needed yet.
        this.needsResync = true;
        this.advance({ type: 'lost', at: this.now(), reason: event.reason });
        return this.scheduleRetry();
      }
      this.advance({ type: 'failed', at: this.now() });
      // The browser cannot say why the upgrade failed: ask the server who it is.
      void probeInstance().then((instance) => {
        if (this.attempt !== attempt) return;
        this.advance({ type: 'probed', at: this.now(), instance });
        this.scheduleRetry();
      });
    };
  }

  /** Called once the server has let the socket in and said which instance it is. */
  private admitted(current: WebSocket, instance: string | null): void {
    this.retryDelay = FIRST_RETRY_DELAY_MS;
    this.advance({ type: 'connected', instance });
    if (instance !== null) rememberInstance(instance);
    for (const { id, frame } of this.outbox.splice(0)) this.send(current, id, frame);
    if (this.needsResync) window.dispatchEvent(new Event(RECONNECTED_EVENT));
    this.needsResync = false;
  }

  private send(socket: WebSocket, id: number, frame: string): void {
    this.inFlight.add(id);
    socket.send(frame);
  }

  private receive(message: ServeServerMessage): void {
    if (message.type === 'response') {
      this.pending.get(message.id)?.(message.result);
      this.pending.delete(message.id);
      this.inFlight.delete(message.id);
      return;
    }
    for (const listener of [...this.listeners]) listener(message.envelope);
  }

  private advance(event: ServeLinkEvent): void {
    this.link = nextServeLink(this.link, event);
    this.store.set(this.link.connection);
    // Nothing will carry the waiting requests any more; their failure says what the notice says.
    if (this.link.connection.state === 'ended') this.fail([...this.pending.keys()], this.link.connection.message);
  }

  private scheduleRetry(): void {
    if (!shouldRetry(this.link)) return;
    this.retryTimer = setTimeout(() => this.connect(), this.retryDelay);
    this.retryDelay = Math.min(this.retryDelay * 2, MAX_RETRY_DELAY_MS);
  }

  private failInFlight(): void {
    this.fail([...this.inFlight], 'The connection to Flint was lost before it answered; try again.');
  }

  private fail(ids: number[], message: string): void {
    if (ids.length > 0) this.needsResync = true;
    const failed = new Set(ids);
    for (const id of ids) {
      this.pending.get(id)?.({ ok: false, error: { code: 'io-error', message } });
      this.pending.delete(id);
      this.inFlight.delete(id);
    }
    const waiting = this.outbox.filter((entry) => !failed.has(entry.id));
    this.outbox.splice(0, this.outbox.length, ...waiting);
  }
}

/** This origin's Flint instance id, or null when nothing (or something other than Flint) answers. */
async function probeInstance(): Promise<string | null> {
  try {
    const response = await fetch(SERVE_INSTANCE_PATH, { cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null && 'instance' in body && typeof body.instance === 'string' ? body.instance : null;
  } catch {
    return null;
  }
}
