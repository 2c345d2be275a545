/**
 * The Responses WebSocket wire format, typed by the openai SDK's own declarations.
 *
 * Type-only imports: the SDK is never loaded at run time for this (the socket is Flint's,
 * see responses-socket.ts). What Flint sends is the SDK's client event exactly. What the
 * server sends is the SDK's server event with nothing checked below its `type`
 * (`Unchecked`, see server-json.ts).
 */
import type { EasyInputMessage, ResponsesClientEvent, ResponsesServerEvent } from 'openai/resources/responses/responses';
import { failureFromStatus, InferenceFailure, quoteProvider } from '../inference-failure';
import type { StreamRequest } from '../model-stream';
import { stringOr, type UncheckedFields } from '../server-json';

/** The one client event Flint sends: `response.create`. */
export type CreateEvent = ResponsesClientEvent.ResponseCreate;

/** A server event as the socket delivers it: a JSON object whose `type` is a string. */
export type ServerEvent = UncheckedEvent<ResponsesServerEvent>;
/**
 * Keeps each event's `type` literal, so a switch on it narrows to that event's fields. At
 * run time `type` may be any string (a newer or hostile server): a switch's default sees those.
 */
type UncheckedEvent<E> = E extends { type: string } ? UncheckedFields<E> & { readonly type: E['type'] } : never;

/** What the socket checked of a frame before handing it on. */
export function isServerEvent(value: unknown): value is ServerEvent {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The context a socket has pre-loaded, for `previous_response_id`. */
export interface Preload {
  /** Model and instructions, as `preloadKey` spells them. */
  key: string;
  responseId: string;
}

/** What a pre-load is keyed by: the same model and the same instructions. */
export function preloadKey(model: string, instructions: string): string {
  return `${model}\u0000${instructions}`;
}

/** The response.create for an answer: only the question when context is pre-loaded, else everything. */
export function answerEvent(request: StreamRequest, preload: Preload | null): CreateEvent {
  // A follow-up carries the conversation so far as messages (with `store: false` a previous
  // response lives only on the socket that made it, so it cannot be chained by id).
  const input = [...(request.history ?? []).map((earlier) => message(earlier.role, earlier.text)), message('user', request.input)];
  if (preload) return { type: 'response.create', model: request.model, store: false, previous_response_id: preload.responseId, input };
  return { type: 'response.create', model: request.model, store: false, ...(request.instructions !== undefined ? { instructions: request.instructions } : {}), input };
}

/** The response.create that pre-loads `instructions` without generating (`generate: false`). */
export function preloadEvent(model: string, instructions: string): CreateEvent {
  return { type: 'response.create', model, store: false, generate: false, input: [message('developer', instructions)] };
}

function message(role: 'user' | 'developer' | 'assistant', text: string): EasyInputMessage {
  return { type: 'message', role, content: [{ type: 'input_text', text }] };
}

/**
 * The reason of a `response.incomplete`, in words, when the server gave a string one.
 *
 * Anything but a string (a number, an object, null) reads as no reason rather than a
 * throw. The key is hidden and the reason shortened before underscores become spaces: a
 * key with an underscore would no longer match once re-spelled.
 */
export function incompleteReason(event: Extract<ServerEvent, { type: 'response.incomplete' }>, apiKey: string | null): string | undefined {
  const reason = stringOr(event.response?.incomplete_details?.reason);
  const words = reason === undefined ? '' : quoteProvider(reason, apiKey).replaceAll('_', ' ').trim();
  return words || undefined;
}

/** A `response.failed`, as a failure (it carries a code and no status). */
export function failedResponse(event: Extract<ServerEvent, { type: 'response.failed' }>, apiKey: string | null): InferenceFailure {
  const error = event.response?.error;
  return failureFromStatus({ status: undefined, providerMessage: stringOr(error?.message) ?? 'the response failed', code: stringOr(error?.code), apiKey });
}

/** An in-band `error` event, as a failure; `socketBroken` when the server will not take another request on it. */
export function inBandError(event: ErrorServerEvent, apiKey: string | null): { failure: InferenceFailure; socketBroken: boolean } {
  const { code, message, status, retryAfter } = errorDetails(event);
  switch (code) {
    case 'previous_response_not_found':
      return { socketBroken: false, failure: new InferenceFailure('context-expired', 'The pre-loaded context expired.') };
    case 'websocket_connection_limit_reached':
      return { socketBroken: true, failure: new InferenceFailure('connection-lost', 'The connection reached the provider’s 60-minute limit.') };
    default:
      return { socketBroken: false, failure: failureFromStatus({ status, providerMessage: message ?? '', code, retryAfter, apiKey }) };
  }
}

type ErrorServerEvent = Extract<ServerEvent, { type: 'error' }>;

/** Two shapes share the type: the WebSocket error nests its details (and has a status); the streaming error does not. */
function errorDetails(event: ErrorServerEvent): { code?: string; message?: string; status?: number; retryAfter?: string } {
  if ('error' in event && event.error) {
    const { error } = event;
    const status = typeof event.status === 'number' ? event.status : undefined;
    return { code: stringOr(error.code), message: stringOr(error.message), status, retryAfter: stringOr(error.headers?.['retry-after']) };
  }
  if ('code' in event || 'message' in event) return { code: stringOr(event.code), message: stringOr(event.message) };
  return {};
}
