/**
 * The serve shell's wire format: the contract carried over one WebSocket.
 *
 * The browser sends requests with an id; the server answers with the same id and
 * pushes events as they happen. Authentication happens at the HTTP upgrade (token).
 */
import type { EventEnvelope } from './contract';
import type { Result } from './result';

/** Where the socket lives, on the same origin as the page. */
export const SERVE_SOCKET_PATH = '/flint-socket';

/** The query parameter that carries the per-run token. */
export const SERVE_TOKEN_PARAMETER = 'token';

/** Browser → server. */
export interface ServeRequestMessage {
  id: number;
  channel: string;
  input: unknown;
}

/** Server → browser. */
export type ServeServerMessage =
  /** The answer to request `id`. */
  | { type: 'response'; id: number; result: Result<unknown> }
  /** An event pushed by main. */
  | { type: 'event'; envelope: EventEnvelope };
