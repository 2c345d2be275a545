/**
 * A bench-side client of the serve shell: stands in for the UI, over the same socket.
 */
import WebSocket from 'ws';
import type { EventChannel, EventPayloads } from '../../src/shared/contract';
import type { Result } from '../../src/shared/result';
import { SERVE_SOCKET_PATH, SERVE_TOKEN_PARAMETER, SOCKET_PROTOCOL, TOKEN_PROTOCOL_PREFIX, type ServeServerMessage } from '../../src/shared/serve-protocol';

export class ServeClient {
  private nextId = 1;
  private readonly pending = new Map<number, (result: Result<unknown>) => void>();
  private readonly listeners = new Set<(channel: EventChannel, payload: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString()) as ServeServerMessage;
      if (message.type === 'response') {
        this.pending.get(message.id)?.(message.result);
        this.pending.delete(message.id);
      } else {
        for (const listener of this.listeners) listener(message.envelope.channel, message.envelope.payload);
      }
    });
  }

  /** Connects like the page does: the token from the printed URL's fragment, offered as a subprotocol. */
  static connect(pageUrl: string): Promise<ServeClient> {
    const url = new URL(pageUrl);
    const token = new URLSearchParams(url.hash.slice(1)).get(SERVE_TOKEN_PARAMETER) ?? '';
    const socket = new WebSocket(`ws://${url.host}${SERVE_SOCKET_PATH}`, [SOCKET_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`], {
      headers: { Origin: url.origin },
    });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new ServeClient(socket)));
      socket.once('error', reject);
    });
  }

  request(channel: string, input: unknown): Promise<Result<unknown>> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.send(JSON.stringify({ id, channel, input }));
    });
  }

  /** Resolves with the first event on `channel` that `match` accepts. */
  waitFor<C extends EventChannel>(channel: C, match: (payload: EventPayloads[C]) => boolean = () => true, timeoutMs = 30_000): Promise<EventPayloads[C]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`no ${channel} event within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (eventChannel: EventChannel, payload: unknown): void => {
        if (eventChannel !== channel || !match(payload as EventPayloads[C])) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(payload as EventPayloads[C]);
      };
      this.listeners.add(listener);
    });
  }

  close(): void {
    this.socket.close();
  }
}
