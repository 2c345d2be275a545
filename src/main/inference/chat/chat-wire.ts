/**
 * The chat completions stream as Flint reads it: one chunk at a time, its shape checked.
 *
 * The SDK parses each SSE event and hands it on typed as a `ChatCompletionChunk`, but it
 * checks nothing below that: a chunk is whatever JSON the server sent (`Unchecked`, see
 * server-json.ts). Type-only import: this file loads nothing of the SDK.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { tokenCountOr, type Unchecked } from '../server-json';

/** What one chunk says. */
export interface ChunkReading {
  /** Prose to show; empty for none. */
  text: string;
  /** Why the answer ended, when this chunk says it did (`stop`, `length`, …). */
  finish: string | undefined;
  /** The provider's count of output tokens, when this chunk carries one. */
  outputTokens: number | undefined;
  /** The model the chunk says answered, when it names one. */
  model?: string;
}

/** A chunk whose shape Flint cannot read; `problem` says what, in a few words, for the log. */
export interface ChunkShapeError {
  problem: string;
}

/**
 * Reads one chunk, or says what is wrong with its shape.
 *
 * A field Flint reads that is missing or null is absent: a usage-only chunk has no choice,
 * and some servers leave `choices` out of it. One that is there with the wrong type is a
 * shape error: prose that is not a string cannot be shown, and skipping it would show a
 * different answer than the server gave. The token count only feeds a figure: one that
 * is not a count is ignored.
 */
export function readChunk(chunk: Unchecked<ChatCompletionChunk>): ChunkReading | ChunkShapeError {
  if (!isObject(chunk)) return { problem: 'a chunk that is not a JSON object' };
  const outputTokens = tokenCountOr(chunk.usage?.completion_tokens);
  const model = typeof chunk.model === 'string' ? { model: chunk.model } : {};
  const { choices } = chunk;
  if (choices === undefined || choices === null) return { text: '', finish: undefined, outputTokens, ...model };
  if (!isList(choices)) return { problem: '"choices" that is not a list' };
  // Flint asks for one choice (no `n`): any other is ignored. The SDK has already spread
  // each choice into an object (normalizeChatCompletionChunk), whatever the server sent.
  const { delta, finish_reason: finish } = choices[0] ?? {};
  if (delta !== undefined && delta !== null && !isObject(delta)) return { problem: 'a delta that is not a JSON object' };
  const content = delta?.content;
  if (content !== undefined && content !== null && typeof content !== 'string') return { problem: `content that is not text (${describe(content)})` };
  if (finish !== undefined && finish !== null && typeof finish !== 'string') return { problem: `a finish reason that is not text (${describe(finish)})` };
  return { text: content ?? '', finish: finish ?? undefined, outputTokens, ...model };
}

/** Array.isArray, keeping the element type (Array.isArray narrows a readonly list to any[]). */
function isList<T>(value: T): value is Extract<T, readonly unknown[]> {
  return Array.isArray(value);
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON type of a value, for the log (never the value: it may be anything the server sent). */
function describe(value: unknown): string {
  return Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
