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
    focus: z.enum(['recent-change', 'selection', 'whole-file']),
    /** With focus `selection`: the lines selected (retries and follow-ups keep the focus on them). */
    selection: z.object({ path: z.string(), startLine: z.number().int().min(1), endLine: z.number().int().min(1) }).strict().optional(),
    paths: z.array(z.string()),
    turns: z.array(TurnSchema).min(1),
    problems: z.array(z.string()),
    board: BoardSnapshotSchema,
    /** What the user decided that the model has not been told yet (the next turn's note). */
    note: z.array(z.string()).optional(),
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
    const sent = turn.startedAtEpochMs !== undefined;
    if (turn.status === 'streaming' && sent) Object.assign(turn, { status: 'stopped', message: 'Flint closed while this answer streamed.' });
    if (turn.status === 'queued' || (turn.status === 'streaming' && !sent)) {
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

/** Earlier turns a follow-up carries, how much of each message, and of them all (the files come first in the window). */
const HISTORY_TURNS = 8;
const HISTORY_MESSAGE = 4_000;
const HISTORY_TOTAL = 24_000;

const ENDINGS: Partial<Record<TurnView['status'], string>> = {
  redirected: '\n(This answer was interrupted by the next message.)',
  stopped: '\n(The user stopped this answer here.)',
  failed: '\n(This answer was cut short by an error.)',
};

/**
 * The earlier turns as messages for a follow-up: the user's words and the model's prose,
 * each cut, the oldest dropped past a total. Not its edits: the files in the new turn are
 * what is on disk now, and the note says what became of each hunk. A turn that never
 * went out, or failed and was retried (the retry says the same), is left out.
 */
export function historyMessages(turns: readonly TurnView[]): ConversationMessage[] {
  const cut = (text: string): string => (text.length > HISTORY_MESSAGE ? `${text.slice(0, HISTORY_MESSAGE)}…` : text);
  const sent = turns.filter((turn) => turn.startedAtEpochMs !== undefined && !(turn.status === 'failed' && turn.followedBy !== undefined));
  const pairs = sent.slice(-HISTORY_TURNS).map((turn): [ConversationMessage, ConversationMessage] => [
    // As it went out: with the note on the user's decisions (a redirect's model must know them too).
    { role: 'user', text: cut(turn.note ? questionWithNote(turn.text, [turn.note]) : turn.text) },
    { role: 'assistant', text: `${cut(turn.prose).trim() || '(edits only)'}${ENDINGS[turn.status] ?? ''}` },
  ]);
  let total = pairs.reduce((sum, [user, answer]) => sum + user.text.length + answer.text.length, 0);
  while (total > HISTORY_TOTAL && pairs.length > 1) {
    const [user, answer] = pairs.shift()!;
    total -= user.text.length + answer.text.length;
  }
  return pairs.flat();
}

/** The user's words, after what they decided since the model's last answer. */
export function questionWithNote(text: string, note: readonly string[]): string {
  if (note.length === 0) return text;
  return [`Since your last answer (the files below are as they are now): ${note.join('; ')}.`, `Do not propose a rejected hunk again.`, '', text].join('\n');
}
