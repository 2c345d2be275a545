/**
 * Builds `window.flint` from the contract over any transport.
 *
 * The Electron preload and the serve shell's browser bridge both call this; they
 * differ only in how bytes move.
 */
import {
  requests,
  type EventChannel,
  type EventEnvelope,
  type EventPayloads,
  type FlintApi,
  type RequestName,
} from './contract';
import { ok, type Result } from './result';

/** How a shell moves requests (answered or one way) and events. */
export interface FlintTransport {
  invoke(channel: string, input: unknown): Promise<Result<unknown>>;
  /** Sends a one-way request (contract.ts): nothing comes back; dropped if it cannot go now. */
  sendOneWay(channel: string, input: unknown): void;
  /** Delivers every event; returns the unsubscribe function. */
  subscribe(listener: (envelope: EventEnvelope) => void): () => void;
}

export function createFlintApi(transport: FlintTransport): FlintApi {
  const api: Record<string, unknown> = {};
  for (const name of Object.keys(requests) as RequestName[]) {
    const definition: { channel: string; oneWay?: true } = requests[name];
    const { channel } = definition;
    api[name] = definition.oneWay
      ? (input: unknown) => {
          transport.sendOneWay(channel, input);
          return Promise.resolve(ok(null));
        }
      : (input: unknown) => transport.invoke(channel, input);
  }
  api.on = <C extends EventChannel>(channel: C, listener: (payload: EventPayloads[C]) => void) =>
    transport.subscribe((envelope) => {
      if (envelope.channel === channel) listener(envelope.payload as EventPayloads[C]);
    });
  return api as FlintApi;
}
