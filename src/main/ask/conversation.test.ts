import { describe, expect, it } from 'vitest';
import type { HunkState } from '../../shared/edits/hunk-types';
import type { AnswerUpdate } from '../../shared/ask-types';
import type { StreamSink } from '../inference/model-stream';
import { createMemoryLogger } from '../logger';
import type { EditApplier } from '../edits/edit-applier';
import { HunkBoard } from '../edits/hunk-board';
import { decodeFileText, type FileText } from '../fs/file-text';
import { conversationFor, startTurn } from '../../../test/helpers/conversations';

const text = (content: string): FileText => decodeFileText(new TextEncoder().encode(content), 'test');
const COMPLETED = { outcome: 'completed', latency: { keypressToWriteMs: 0, requestToFirstDeltaMs: 0, tokensPerSecond: 0, totalMs: 0, outputTokens: 0, model: 'test' } } as const;
const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * An answer whose streams open when the test says: each turn's sink and a cancel count,
 * and every update the UI would receive.
 */
function turns(files: Record<string, string> = { 'src/a.ts': 'one\ntwo\n' }) {
  const opened: Array<{ sink: StreamSink; cancelled: number; open: () => void }> = [];
  const updates: AnswerUpdate[] = [];
  const session = conversationFor({
    id: 'turns',
    openBoard: (report) => new HunkBoard({ applier: {} as EditApplier, readText: async (path) => (path in files ? text(files[path]!) : null), report, logger: createMemoryLogger() }),
    openStream: (_prompt, sink) =>
      new Promise((resolve) => {
        const entry = { sink, cancelled: 0, open: () => resolve({ cancel: () => (entry.cancelled += 1), done: new Promise(() => undefined) }) };
        opened.push(entry);
      }),
    emit: (update) => updates.push(update),
  });
  const shown = new Map(Object.entries(files).map(([path, content]) => [path, text(content)]));
  const start = (kind: 'question' | 'redirect' = 'question') => startTurn(session, { instructions: '', input: 'turn' }, shown, { kind });
  const statuses = () => updates.flatMap((update) => (update.status ? [update.status] : []));
  const prose = () => updates.flatMap((update) => update.prose ?? []).map((piece) => piece.text).join('');
  const hunkStates = () => {
    const states = new Map<string, HunkState>();
    for (const update of updates) for (const hunk of update.hunks) states.set(hunk.id, hunk.state);
    return states;
  };
  return { session, opened, start, statuses, prose, hunkStates, flush: () => session.flush() };
}

describe('Conversation turns', () => {
  it('streams prose and ends complete', async () => {
    const answer = turns();
    const started = answer.start();
    answer.opened[0]!.open();
    await started;
    answer.opened[0]!.sink.onDelta('It returns one.\nThat is all.\n');
    answer.opened[0]!.sink.onEnd(COMPLETED);
    answer.flush();
    expect(answer.prose()).toBe('It returns one.\nThat is all.\n');
    expect(answer.statuses().at(-1)).toBe('complete');
    expect(answer.session.isStreaming).toBe(false);
  });

  it('shows a line before it ends, gives a reloading renderer the tail too, and keeps a stopped line’s shown words', async () => {
    const answer = turns();
    const started = answer.start();
    answer.opened[0]!.open();
    await started;
    answer.opened[0]!.sink.onDelta('It returns one.\nThe second');
    answer.flush();
    const tails = answer.session.fullUpdate().proseTail;
    expect(answer.session.fullUpdate().prose).toEqual([{ turn: 1, text: 'It returns one.\n' }]);
    expect(tails).toEqual([{ turn: 1, text: 'The second', replace: true }]);
    answer.opened[0]!.sink.onEnd({ ...COMPLETED, outcome: 'cancelled' });
    answer.flush();
    expect(answer.prose()).toBe('It returns one.\nThe second\n');
    expect(answer.session.turn(1).prose).toBe('It returns one.\nThe second\n');
    expect(answer.session.fullUpdate().proseTail).toEqual([]);
  });

  it('cancels a stream the user stopped before it had opened, as soon as it opens', async () => {
    const answer = turns();
    const started = answer.start();
    answer.session.stop();
    answer.opened[0]!.open();
    await started;
    expect(answer.opened[0]!.cancelled).toBe(1);
  });

  it('keeps a superseded turn’s late lines and ending out of the new turn', async () => {
    const answer = turns();
    const first = answer.start();
    answer.opened[0]!.open();
    await first;
    const old = answer.opened[0]!.sink;
    old.onDelta('*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n');
    // A redirect: the old stream is stopped and a second turn starts.
    const second = answer.start('redirect');
    answer.opened[1]!.open();
    await second;
    old.onDelta('+uno\n');
    old.onEnd({ ...COMPLETED, outcome: 'cancelled' });
    answer.opened[1]!.sink.onDelta('*** Begin Patch\n*** Update File: src/a.ts\n@@\n-two\n+dos\n*** End Patch\n');
    await settled();
    answer.flush();
    // The old turn's hunk was cut off when its stream ended; the new turn's is its own and still streaming.
    expect(answer.hunkStates()).toEqual(new Map([['1.0', 'partial'], ['2.0', 'pending']]));
    expect(answer.statuses()).not.toContain('stopped');
    expect(answer.statuses().at(-1)).toBe('streaming');
    expect(answer.session.isStreaming).toBe(true);
  });

  it('fails the turn when the stream cannot open, keeping its words and saying why', async () => {
    const failing = conversationFor({
      id: 'failing',
      openBoard: (report) => new HunkBoard({ applier: {} as EditApplier, readText: async () => null, report, logger: createMemoryLogger() }),
      openStream: async () => {
        throw new Error('No API key for Test.');
      },
    });
    const turn = await startTurn(failing, { instructions: '', input: 'x' }, new Map(), { text: 'explain this' });
    expect(turn).toMatchObject({ status: 'failed', text: 'explain this', message: 'No API key for Test.' });
    expect(failing.isStreaming).toBe(false);
  });

  it('cancels a stream that finishes opening after the answer was let go, and starts no turn after it', async () => {
    const answer = turns();
    const started = answer.start();
    answer.session.dispose();
    answer.opened[0]!.open();
    await started;
    expect(answer.opened[0]!.cancelled).toBe(1);
    await expect(answer.start()).rejects.toMatchObject({ code: 'not-found' });
    expect(answer.opened).toHaveLength(1);
  });

  it('cancels the open stream when disposed', async () => {
    const answer = turns();
    const started = answer.start();
    answer.opened[0]!.open();
    await started;
    answer.session.dispose();
    expect(answer.opened[0]!.cancelled).toBe(1);
  });
});
