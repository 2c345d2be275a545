import { describe, expect, it } from 'vitest';
import type { TurnView } from '../../shared/ask-types';
import { conversationTitle, historyMessages, parseConversationRecord, restoredTurns, slimRecord, type ConversationRecord } from './conversation-record';

const turn = (index: number, extra: Partial<TurnView> = {}): TurnView => ({
  index,
  kind: index === 1 ? 'question' : 'follow-up',
  text: `words ${index}`,
  depth: 'fast',
  model: 'spark',
  status: 'complete',
  prose: `Answer ${index}.`,
  askedAtEpochMs: index,
  startedAtEpochMs: index,
  ...extra,
});
const record = (turns: TurnView[]): ConversationRecord => ({ id: 'c1', createdAtEpochMs: 1, updatedAtEpochMs: 2, focus: 'whole-file', paths: ['src/a.ts'], turns, problems: [], board: { files: [], hunks: [] } });

describe('a conversation kept between runs', () => {
  it('is read back field by field: turns out of order, or from a newer shape, are refused', () => {
    expect(parseConversationRecord(record([turn(1), turn(2)]))).not.toBeNull();
    expect(parseConversationRecord(record([turn(2), turn(1)]))).toBeNull();
    expect(parseConversationRecord({ ...record([turn(1)]), somethingNew: true })).toBeNull();
    expect(parseConversationRecord('not a record')).toBeNull();
  });

  it('comes back with nothing streaming, queued or counting down', () => {
    const turns = restoredTurns([
      turn(1, { status: 'failed', failure: { code: 'rate-limited', retryAtEpochMs: 5, canRetryDeep: false, needsSettings: false } }),
      turn(2, { status: 'streaming' }),
      turn(3, { status: 'queued', kind: 'queued', startedAtEpochMs: undefined }),
    ]);
    expect(turns.map((entry) => entry.status)).toEqual(['failed', 'stopped', 'failed']);
    expect(turns[0]!.failure?.retryAtEpochMs).toBeUndefined();
    expect(turns[1]!.message).toBe('Flint closed while this answer streamed.');
    expect(turns[2]!.failure?.code).toBe('not-sent');
  });

  it('slims prose, never the user’s words', () => {
    const long = 'x'.repeat(5_000);
    const slim = slimRecord(record([turn(1, { prose: long, text: long })]));
    expect(slim.turns[0]!.prose.length).toBeLessThan(2_100);
    expect(slim.turns[0]!.text).toBe(long);
  });

  it('is named by its first question on one line', () => {
    expect(conversationTitle([{ text: '  skip\n cancelled   invoices ' }])).toBe('skip cancelled invoices');
    expect(conversationTitle([])).toBe('Conversation');
  });

  it('tells a follow-up the earlier turns that were sent, and how an interrupted one ended', () => {
    const messages = historyMessages([turn(1), turn(2, { status: 'redirected', prose: '' }), turn(3, { status: 'failed', startedAtEpochMs: undefined }), turn(4, { status: 'failed', followedBy: 5 })]);
    expect(messages).toEqual([
      { role: 'user', text: 'words 1' },
      { role: 'assistant', text: 'Answer 1.' },
      { role: 'user', text: 'words 2' },
      { role: 'assistant', text: '(edits only)\n(This answer was interrupted by the next message.)' },
    ]);
  });

  it('bounds what a follow-up resends: each message cut, the oldest turns dropped past the total', () => {
    const paste = 'p'.repeat(300_000);
    const messages = historyMessages(Array.from({ length: 8 }, (_, index) => turn(index + 1, { text: paste, prose: paste })));
    expect(messages.every((message) => message.text.length <= 4_001)).toBe(true);
    expect(messages.reduce((sum, message) => sum + message.text.length, 0)).toBeLessThanOrEqual(24_006);
    expect(messages.length).toBeGreaterThan(0);
  });
});
