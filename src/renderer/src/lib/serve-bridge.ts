/**
 * `window.flint` for the serve shell: the contract over the page's own WebSocket.
 *
 * The token arrives in the page URL once; the server also sets it as an HttpOnly
 * cookie, so the bridge strips it from the address bar and reconnects with the
 * cookie after a reload. Requests made while disconnected wait for the reconnect.
 */
import type { EventEnvelope, FlintApi } from '../../../shared/contract';
import { createFlintApi } from '../../../shared/flint-api';
import type { Result } from '../../../shared/result';
import { SERVE_SOCKET_PATH, SERVE_TOKEN_PARAMETER, type ServeServerMessage } from '../../../shared/serve-protocol';

/** Fired on `window` after a lost connection comes back, so views can resync. */
export const RECONNECTED_EVENT = 'flint:reconnected';

export function connectServeBridge(): FlintApi {
  const token = new URLSearchParams(location.search).get(SERVE_TOKEN_PARAMETER);
  if (token !== null) {
    const url = new URL(location.href);
    url.searchParams.delete(SERVE_TOKEN_PARAMETER);
    history.replaceState(null, '', url);
  }
  const socketUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${SERVE_SOCKET_PATH}` +
    (token === null ? '' : `?${SERVE_TOKEN_PARAMETER}=${encodeURIComponent(token)}`);

  const listeners = new Set<(envelope: EventEnvelope) => void>();
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const outbox: string[] = [];
  let socket: WebSocket;
  let nextId = 1;
  let retryDelay = 250;
  let hasConnected = false;

  const notify = (envelope: EventEnvelope): void => {
    for (const listener of [...listeners]) listener(envelope);
  };

  const connect = (): void => {
    socket = new WebSocket(socketUrl);
    socket.onopen = () => {
      retryDelay = 250;
      for (const frame of outbox.splice(0)) socket.send(frame);
      if (hasConnected) window.dispatchEvent(new Event(RECONNECTED_EVENT));
      hasConnected = true;
    };
    socket.onmessage = (message: MessageEvent<string>) => {
      const data = JSON.parse(message.data) as ServeServerMessage;
      if (data.type === 'response') {
        pending.get(data.id)?.(data.result);
        pending.delete(data.id);
      } else {
        notify(data.envelope);
      }
    };
    socket.onclose = () => {
      // Requests not yet sent are failed below too; never replay them later.
      outbox.length = 0;
      for (const [id, resolve] of pending) {
        resolve({ ok: false, error: { code: 'io-error', message: 'The connection to Flint was lost; try again.' } });
        pending.delete(id);
      }
      notify({
        channel: 'app:notice',
        payload: { level: 'error', message: 'Lost the connection to the Flint server; reconnecting…' },
      });
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, 5000);
    };
  };
  connect();

  return createFlintApi({
    invoke: (channel, input) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        const frame = JSON.stringify({ id, channel, input });
        if (socket.readyState === WebSocket.OPEN) socket.send(frame);
        else outbox.push(frame);
      }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
}
