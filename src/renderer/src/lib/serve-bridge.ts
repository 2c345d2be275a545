/**
 * `window.flint` for the serve shell: the contract over the page's own WebSocket.
 *
 * The token arrives in the URL fragment (`#token=…`), which the browser never sends to
 * any server. The bridge removes it from the address bar, keeps it in memory and in
 * sessionStorage (per tab, per origin including the port, so a reload works and no other
 * local server's page can read it) and offers it to the server only as a WebSocket
 * subprotocol. No cookie: cookies ignore ports, so every local server would get it.
 * Requests made while disconnected wait for the reconnect.
 */
import type { EventEnvelope, FlintApi } from '../../../shared/contract';
import { createFlintApi } from '../../../shared/flint-api';
import type { Result } from '../../../shared/result';
import { SERVE_SOCKET_PATH, SERVE_TOKEN_PARAMETER, SOCKET_PROTOCOL, TOKEN_PROTOCOL_PREFIX, type ServeServerMessage } from '../../../shared/serve-protocol';

/** Fired on `window` after a lost connection comes back, so views can resync. */
export const RECONNECTED_EVENT = 'flint:reconnected';

const TOKEN_STORAGE_KEY = 'flint.serve-token';
/** base64url, as the server makes it; anything else would make `new WebSocket` throw. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,256}$/;

const NO_TOKEN_MESSAGE = 'This page has no Flint token: open the exact URL Flint printed (it ends in #token=…).';

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

/** Builds the serve shell's `FlintApi` over one self-reconnecting WebSocket. */
export function connectServeBridge(): FlintApi {
  let token = takeServeToken();
  const socketUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${SERVE_SOCKET_PATH}`;

  const listeners = new Set<(envelope: EventEnvelope) => void>();
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const outbox: string[] = [];
  let socket: WebSocket | null = null;
  let nextId = 1;
  let retryDelay = 250;
  let hasConnected = false;

  const notify = (envelope: EventEnvelope): void => {
    for (const listener of [...listeners]) listener(envelope);
  };

  const connect = (): void => {
    if (token === null) return;
    const current = new WebSocket(socketUrl, [SOCKET_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`]);
    socket = current;
    current.onopen = () => {
      retryDelay = 250;
      for (const frame of outbox.splice(0)) current.send(frame);
      if (hasConnected) window.dispatchEvent(new Event(RECONNECTED_EVENT));
      hasConnected = true;
    };
    current.onmessage = (message: MessageEvent<string>) => {
      const data = JSON.parse(message.data) as ServeServerMessage;
      if (data.type === 'response') {
        pending.get(data.id)?.(data.result);
        pending.delete(data.id);
      } else {
        notify(data.envelope);
      }
    };
    current.onclose = (event: CloseEvent) => {
      // Requests not yet sent are failed below too; never replay them later.
      outbox.length = 0;
      for (const [id, resolve] of pending) {
        resolve({ ok: false, error: { code: 'io-error', message: 'The connection to Flint was lost; try again.' } });
        pending.delete(id);
      }
      const why = event.reason ? `Flint closed the connection: ${event.reason}` : 'Lost the connection to the Flint server';
      notify({ channel: 'app:notice', payload: { level: 'error', message: `${why}; reconnecting…` } });
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 5000);
    };
  };

  // A new URL pasted into this tab only changes the fragment: no reload, so take it here.
  window.addEventListener('hashchange', () => {
    const fresh = takeServeToken();
    if (fresh === null || fresh === token) return;
    token = fresh;
    if (socket === null) connect();
    else socket.close();
  });
  connect();

  return createFlintApi({
    invoke: (channel, input) =>
      new Promise((resolve) => {
        if (token === null) {
          resolve({ ok: false, error: { code: 'io-error', message: NO_TOKEN_MESSAGE } });
          return;
        }
        const id = nextId++;
        pending.set(id, resolve);
        const frame = JSON.stringify({ id, channel, input });
        if (socket?.readyState === WebSocket.OPEN) socket.send(frame);
        else outbox.push(frame);
      }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
}
