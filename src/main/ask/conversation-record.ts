/**
 * A conversation as it is kept between runs (conversation-store.ts writes the list), read
 * back field by field: the file is Flint's own, but it may be damaged, cut short, or
 * written by another version. Also what a follow-up tells the model of the turns before.
 */
import { z } from 'zod';
import type { TurnView } from '../../shared/ask-types';
import { isUndecided } from '../../shared/edits/hunk-state';
import { BoardSnapshotSchema } from '../edits/board-snapshot';
import type { ConversationMessage } from '../inference/model-stream';

const TurnSchema = z
  .object({
    index: z.number().int().positive(),
    kind: z.enum(['question', 'follow-up', 'redirect', 'queued', 'retry']),
    text: z.string(),
    depth: z.enum(['fast', 'deep']),
    model: z.string(),
    status: z.enum(['streaming', 'complete', 'stopped', 'failed', 'queued', 'redirected']),
    message: z.string().optional(),
    prose: z.string(),
    askedAtEpochMs: z.number(),
    startedAtEpochMs: z.number().optional(),
    endedAtEpochMs: z.number().optional(),
    note: z.string().optional(),
    followedBy: z.number().int().positive().optional(),
    failure: z
      .object({ code: z.string(), retryAtEpochMs: z.number().optional(), canRetryDeep: z.boolean(), needsSettings: z.boolean() })
      .strict()
      .optional(),
  })
  .strict();

const RecordSchema = z
  .object({
    id: z.string().min(1).max(100),
    createdAtEpochMs: z.number(),
    updatedAtEpochMs: z.number(),
    focus: z.enum(['recent-change', 'whole-file']),
    paths: z.array(z.string()),
    turns: z.array(TurnSchema).min(1),
    problems: z.array(z.string()),
    board: BoardSnapshotSchema,
  })
  .strict()
  .refine((record) => record.turns.every((turn, position) => turn.index === position + 1), 'turns out of order');

export type ConversationRecord = z.infer<typeof RecordSchema>;

/** A kept conversation, or null when it is not one (the store drops it and says how many). */
export function parseConversationRecord(value: unknown): ConversationRecord | null {
  const parsed = RecordSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Has hunks nobody has decided on: kept longest when the history must shrink. */
export function hasUndecidedWork(record: ConversationRecord): boolean {
  return record.board.hunks.some((hunk) => isUndecided(hunk.state) || hunk.state === 'streaming');
}

/** How much of a turn's prose a slimmed record keeps. */
const SLIM_PROSE = 2_000;

/** A smaller form for a history over its size: prose and notes cut (the hunks, the user's decisions, stay whole). */
export function slimRecord(record: ConversationRecord): ConversationRecord {
  const cut = (text: string): string => (text.length > SLIM_PROSE ? `${text.slice(0, SLIM_PROSE)}…` : text);
  return { ...record, turns: record.turns.map((turn) => ({ ...turn, prose: cut(turn.prose) })), problems: record.problems.slice(0, 10) };
}

/** Turns read back after Flint closed: none streams or waits any more, and nothing retries by itself. */
export function restoredTurns(turns: readonly TurnView[]): TurnView[] {
  return turns.map((saved) => {
    const turn: TurnView = { ...saved, ...(saved.failure ? { failure: { ...saved.failure } } : {}) };
    if (turn.failure) delete turn.failure.retryAtEpochMs;
    if (turn.status === 'streaming') Object.assign(turn, { status: 'stopped', message: 'Flint closed while this answer streamed.' });
    if (turn.status === 'queued') {
      Object.assign(turn, { status: 'failed', message: 'Not sent: Flint closed before the answer it waited for ended.' });
      turn.failure = { code: 'not-sent', canRetryDeep: false, needsSettings: false };
    }
    return turn;
  });
}

/** The history list's name for a conversation: its first question, on one line. */
export function conversationTitle(turns: readonly Pick<TurnView, 'text'>[]): string {
  const first = (turns[0]?.text ?? '').replace(/\s+/g, ' ').trim();
  return first.length > 80 ? `${first.slice(0, 79)}…` : first || 'Conversation';
}

/** Earlier turns a follow-up carries, and how much of each answer. */
const HISTORY_TURNS = 8;
const HISTORY_PROSE = 4_000;

/**
 * The earlier turns as messages for a follow-up: the user's words and the model's prose.
 * Not its edits: the files in the new turn are what is on disk now, and the note says
 * what became of each hunk.
 */
export function historyMessages(turns: readonly TurnView[]): ConversationMessage[] {
  const messages: ConversationMessage[] = [];
  for (const turn of turns.filter((earlier) => earlier.startedAtEpochMs !== undefined).slice(-HISTORY_TURNS)) {
    messages.push({ role: 'user', text: turn.text });
    const prose = turn.prose.length > HISTORY_PROSE ? `${turn.prose.slice(0, HISTORY_PROSE)}…` : turn.prose;
    const ending = turn.status === 'complete' ? '' : `\n(This answer was ${turn.status === 'redirected' ? 'interrupted by the next message' : turn.status}.)`;
    messages.push({ role: 'assistant', text: `${prose.trim() || '(edits only)'}${ending}` });
  }
  return messages;
}
