/**
 * Pure helpers over a conversation's turns: what a failure offers, the conversation's
 * status as the renderer shows it, and the whole conversation as one update.
 */
import type { AnswerStatus, AnswerUpdate, TurnFailure, TurnView } from '../../shared/ask-types';
import { hunkUpdatesOf, type BoardSnapshot } from '../edits/board-snapshot';
import { conversationTitle } from './conversation-record';

/** Failures only Settings can cure: the key, or the provider's configuration. */
const SETTINGS_CODES = new Set(['unauthorized', 'no-key', 'model-unavailable', 'bad-configuration', 'invalid-provider']);
/** The deep model shares the key and, usually, the quota: not offered for these. */
const NOT_FOR_DEEP = new Set(['unauthorized', 'no-key', 'rate-limited']);

/** What a failed turn offers besides Retry; a 429's `retry-after` becomes the countdown's end. */
export function failureOf(turn: TurnView, code: string, deepModel: string | null, retryAfterSeconds?: number): TurnFailure {
  const failure: TurnFailure = { code, canRetryDeep: turn.depth === 'fast' && deepModel !== null && !NOT_FOR_DEEP.has(code), needsSettings: SETTINGS_CODES.has(code) };
  if (retryAfterSeconds !== undefined) failure.retryAtEpochMs = Date.now() + retryAfterSeconds * 1000;
  return failure;
}

/** The latest turn that went out, or is being sent (a queued one waits behind it). */
export function latestSent(turns: readonly TurnView[]): TurnView | undefined {
  return turns.findLast((turn) => turn.status !== 'queued');
}

/** A turn's status as the conversation's (a redirected turn is followed by the one that streams). */
export function answerStatusOf(turn: TurnView): AnswerStatus {
  if (turn.status === 'queued') return 'streaming';
  if (turn.status === 'redirected') return 'stopped';
  return turn.status;
}

/** Everything of a conversation, as one update, for a renderer that (re)loads it. */
export function fullUpdateOf(sessionId: string, turns: readonly TurnView[], problems: readonly string[], board: BoardSnapshot): AnswerUpdate {
  const latest = latestSent(turns);
  return {
    sessionId,
    full: { title: conversationTitle(turns) },
    ...(latest ? { status: answerStatusOf(latest) } : {}),
    ...(latest?.message !== undefined ? { message: latest.message } : {}),
    turns: turns.map(({ prose: _prose, ...meta }) => ({ ...meta })),
    prose: turns.filter((turn) => turn.prose).map((turn) => ({ turn: turn.index, text: turn.prose })),
    hunks: hunkUpdatesOf(board),
    problems: [...problems],
  };
}
