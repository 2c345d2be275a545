/**
 * The one interface every provider implements: stream an answer, cancel it, warm up.
 */
import type { ConnectionState, LatencyFigures, StreamOutcome } from '../../shared/inference-types';
import type { Disposable, Event } from '../lifecycle';
import type { InferenceFailureCode } from './inference-failure';

export interface StreamRequest {
  model: string;
  /** Stable instructions (sent first, so provider prompt caches hit). */
  instructions?: string;
  /** The user's turn. */
  input: string;
  /** The conversation's earlier turns, oldest first (a follow-up's context), before `input`. */
  history?: readonly ConversationMessage[];
  /** performance.now() when the user pressed the key; defaults to the call. */
  keypressAt?: number;
}

/** One earlier message of a conversation. */
export interface ConversationMessage {
  role: 'user' | 'assistant';
  text: string;
}

/** What a stream tells its consumer, in order: deltas, then exactly one end. */
export interface StreamSink {
  /**
   * The answer's text, in pieces. The API key is already hidden (StreamEnding), even when
   * a provider split it across deltas. Text only: Flint declares no tools, so no provider
   * is asked for tool-call input.
   */
  onDelta(text: string): void;
  onEnd(end: StreamEnd): void;
}

export interface StreamEnd {
  outcome: StreamOutcome;
  /** Plain words for the user when not completed. */
  message?: string;
  /** Why it failed, for what the UI offers (Retry, Settings, a countdown after a 429). */
  failure?: StreamFailure;
  latency: LatencyFigures;
}

/** A failed stream's cause, as the inference failure named it. */
export interface StreamFailure {
  code: InferenceFailureCode | 'internal';
  /** A 429's `retry-after`, when the provider said. */
  retryAfterSeconds?: number;
}

export interface ModelStream {
  /** Stops delivery at once and tells the provider as its protocol allows. */
  cancel(): void;
  /** Resolves with the end (also delivered to the sink). */
  readonly done: Promise<StreamEnd>;
}

export interface InferenceProvider extends Disposable {
  /** Opens connections ahead of the first request. */
  warm(): void;
  /** Pre-loads stable context so the next turn only sends the question (where supported). */
  preload(instructions: string): void;
  stream(request: StreamRequest, sink: StreamSink): ModelStream;
  readonly onDidChangeState: Event<{ state: ConnectionState; message?: string }>;
}
