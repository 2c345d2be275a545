/**
 * The serve shell's wire format: the contract carried over one WebSocket.
 *
 * The browser sends requests with an id; the server answers with the same id and
 * pushes events as they happen; a one-way request goes without an id, and gets no answer.
 * Authentication happens at the HTTP upgrade: the page offers the per-run token as a
 * WebSocket subprotocol, which no other local origin ever receives (unlike a cookie, which
 * every port on 127.0.0.1 would get).
 */
import type { EventEnvelope } from './contract';
import type { Result } from './result';

/** Where the socket lives, on the same origin as the page. */
export const SERVE_SOCKET_PATH = '/flint-socket';

/**
 * Answers `GET` with `ServeInstance`, no token needed: lets a page that lost its socket
 * tell "Flint is down" (no answer) from "Flint was restarted" (another instance) from
 * "this Flint refuses my token" (the same instance).
 */
export const SERVE_INSTANCE_PATH = '/flint-instance';

/** The body of `SERVE_INSTANCE_PATH`: a random id per server run, which opens nothing. */
export interface ServeInstance {
  instance: string;
}

/** The key of the printed URL's fragment (`#token=…`) that carries the per-run token: never sent in a request. */
export const SERVE_TOKEN_PARAMETER = 'token';

/** The subprotocol the page asks for and the server echoes: a fixed name, never the token. */
export const SOCKET_PROTOCOL = 'flint';

/** The page also offers `flint.token.<token>`; the server checks it and never echoes it. */
export const TOKEN_PROTOCOL_PREFIX = 'flint.token.';

/**
 * Browser → server: a request, answered with its `id`, or (no `id`) a one-way request,
 * never answered. A one-way channel (contract.ts) takes only the second, any other channel
 * only the first.
 */
export interface ServeRequestMessage {
  id?: number;
  channel: string;
  input: unknown;
}

/** Server → browser. */
export type ServeServerMessage =
  /** The answer to request `id`. */
  | { type: 'response'; id: number; result: Result<unknown> }
  /** An event pushed by main. */
  | { type: 'event'; envelope: EventEnvelope };
