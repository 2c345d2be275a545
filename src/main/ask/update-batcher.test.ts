import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AnswerUpdate } from '../../shared/ask-types';
import type { HunkUpdate } from '../../shared/edits/hunk-types';
import { added, hunkUpdate } from '../../../test/helpers/hunk-updates';
import { UpdateBatcher } from './update-batcher';

/** Far beyond any test: with it, only an acknowledgement (or flush) releases a held batch. */
const NEVER_MS = 60 * 60 * 1000;

const disposables: UpdateBatcher[] = [];

afterEach(() => {
  for (const batcher of disposables.splice(0)) batcher.dispose();
  vi.useRealTimers();
});

/** A batcher whose batches land in `sent`. */
function createBatcher(ackTimeoutMs = NEVER_MS): { batcher: UpdateBatcher; sent: AnswerUpdate[] } {
  const sent: AnswerUpdate[] = [];
  const batcher = new UpdateBatcher('session-1', (update) => sent.push(update), ackTimeoutMs);
  disposables.push(batcher);
  return { batcher, sent };
}

/** Lets the event loop run the batcher's pending setImmediate (it was queued first). */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));


const textsOf = (update: HunkUpdate | undefined): string[] => (update?.appendLines ?? []).map((line) => line.text);

describe('UpdateBatcher: batching', () => {
  it('sends nothing synchronously: the changes of one tick go out together on the next turn', async () => {
    const { batcher, sent } = createBatcher();
    batcher.status('streaming');
    batcher.prose(1, 'Here is the fix.\n');
    batcher.hunk(hunkUpdate('0.0', added('a')), false);
    expect(sent).toEqual([]);
    await turn();
    expect(sent).toEqual([
      { sessionId: 'session-1', status: 'streaming', prose: [{ turn: 1, text: 'Here is the fix.\n' }], hunks: [hunkUpdate('0.0', added('a'))] },
    ]);
  });

  it('sends the streaming turn’s latest output rate with the batch, and a batch with only a rate too', async () => {
    const { batcher, sent } = createBatcher(0);
    batcher.prose(2, 'Done');
    batcher.rate({ turn: 2, tokensPerSecond: 30, measured: false });
    batcher.rate({ turn: 2, tokensPerSecond: 26, measured: false });
    await turn();
    expect(sent).toEqual([{ sessionId: 'session-1', prose: [{ turn: 2, text: 'Done' }], hunks: [], rate: { turn: 2, tokensPerSecond: 26, measured: false } }]);
    batcher.acknowledge();
    batcher.rate({ turn: 2, tokensPerSecond: 25, measured: true });
    await turn();
    expect(sent.at(-1)).toEqual({ sessionId: 'session-1', hunks: [], rate: { turn: 2, tokensPerSecond: 25, measured: true } });
  });

  it('merges updates of one hunk into one entry: lines appended in order, the latest state and fields', async () => {
    const { batcher, sent } = createBatcher();
    batcher.hunk(hunkUpdate('0.0', added('one')), false);
    batcher.hunk(hunkUpdate('0.0', added('two', 'three')), false);
    batcher.hunk(hunkUpdate('0.0', [], 'pending', { anchorLine: 12, message: 'Anchored with whitespace tolerance.' }), false);
    await turn();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.hunks).toEqual([
      hunkUpdate('0.0', added('one', 'two', 'three'), 'pending', { anchorLine: 12, message: 'Anchored with whitespace tolerance.' }),
    ]);
  });

  it('keeps a hunk’s revised lines in the batch through later updates, in place of the lines sent before them', async () => {
    const { batcher, sent } = createBatcher();
    batcher.hunk(hunkUpdate('0.0', added('one', 'two'), 'pending'), false);
    batcher.hunk(hunkUpdate('0.0', [], 'pending', { replaceLines: added('one'), revised: '1 of 2 changed lines' }), false);
    batcher.hunk(hunkUpdate('0.0', [], 'accepted', { revised: '1 of 2 changed lines' }), false);
    await turn();
    expect(sent[0]!.hunks).toEqual([hunkUpdate('0.0', [], 'accepted', { replaceLines: added('one'), revised: '1 of 2 changed lines' })]);
  });

  it('drops a field the latest update no longer carries: a new state brings its own message or none', async () => {
    const { batcher, sent } = createBatcher();
    batcher.hunk(hunkUpdate('0.0', added('x'), 'unmatched', { message: 'Not in the file.' }), false);
    batcher.hunk(hunkUpdate('0.0', [], 'rejected'), false);
    await turn();
    expect(sent[0]!.hunks).toEqual([hunkUpdate('0.0', added('x'), 'rejected')]);
    expect(sent[0]!.hunks[0]).not.toHaveProperty('message');
  });

  it('keeps hunks in the order they first changed, whatever order later changes come in', async () => {
    const { batcher, sent } = createBatcher();
    batcher.hunk(hunkUpdate('0.0', added('a1')), false);
    batcher.hunk(hunkUpdate('0.1', added('b1')), false);
    batcher.hunk(hunkUpdate('1.0', added('c1')), false);
    batcher.hunk(hunkUpdate('0.0', added('a2')), false);
    batcher.hunk(hunkUpdate('0.1', added('b2')), false);
    await turn();
    expect(sent[0]!.hunks.map((hunk) => [hunk.id, textsOf(hunk)])).toEqual([
      ['0.0', ['a1', 'a2']],
      ['0.1', ['b1', 'b2']],
      ['1.0', ['c1']],
    ]);
  });

  it('appends prose and collects problems in order; the latest status wins', async () => {
    const { batcher, sent } = createBatcher();
    batcher.prose(1, 'First ');
    batcher.problem('Unknown marker on line 3.');
    batcher.prose(1, 'second.\n');
    batcher.status('streaming');
    batcher.problem('Hunk without a file on line 9.');
    batcher.status('failed', 'The connection dropped.');
    await turn();
    expect(sent).toEqual([
      {
        sessionId: 'session-1',
        hunks: [],
        prose: [{ turn: 1, text: 'First second.\n' }],
        problems: ['Unknown marker on line 3.', 'Hunk without a file on line 9.'],
        status: 'failed',
        message: 'The connection dropped.',
      },
    ]);
  });

  it('never pairs a status with an earlier status’s message from the same batch', async () => {
    const { batcher, sent } = createBatcher();
    batcher.status('failed', 'The connection dropped.');
    batcher.status('complete');
    await turn();
    expect(sent).toEqual([{ sessionId: 'session-1', hunks: [], status: 'complete' }]);
  });

  it('leaves out of a batch what did not change in it', async () => {
    const { batcher, sent } = createBatcher();
    batcher.prose(1, 'only prose');
    await turn();
    expect(sent[0]).toEqual({ sessionId: 'session-1', hunks: [], prose: [{ turn: 1, text: 'only prose' }] });
  });

  it('never changes the caller\'s lines, nor a batch it already sent', async () => {
    const { batcher, sent } = createBatcher();
    const callerLines = added('a');
    batcher.hunk(hunkUpdate('0.0', callerLines), false);
    batcher.hunk(hunkUpdate('0.0', added('b')), false);
    expect(callerLines).toEqual(added('a'));
    await turn();
    const first = structuredClone(sent[0]);
    batcher.acknowledge();
    batcher.hunk(hunkUpdate('0.0', added('c')), false);
    await turn();
    expect(sent[0]).toEqual(first);
    expect(textsOf(sent[1]!.hunks[0])).toEqual(['c']);
  });
});

describe('UpdateBatcher: pacing by acknowledgements', () => {
  it('holds changes while the renderer has not shown the last batch, and sends them all at its acknowledgement', async () => {
    const { batcher, sent } = createBatcher();
    batcher.hunk(hunkUpdate('0.0', added('1')), false);
    await turn();
    expect(sent).toHaveLength(1);

    batcher.hunk(hunkUpdate('0.0', added('2')), false);
    batcher.prose(1, 'more');
    batcher.hunk(hunkUpdate('0.0', added('3')), false);
    await turn();
    await turn();
    expect(sent).toHaveLength(1);

    batcher.acknowledge();
    // The acknowledgement sends at once: the renderer is ready for the next frame now.
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({ sessionId: 'session-1', prose: [{ turn: 1, text: 'more' }], hunks: [hunkUpdate('0.0', added('2', '3'))] });
  });

  it('sends the next change on the next turn once the renderer has acknowledged with nothing waiting', async () => {
    const { batcher, sent } = createBatcher();
    batcher.status('streaming');
    await turn();
    batcher.acknowledge();
    expect(sent).toHaveLength(1);
    batcher.prose(1, 'after the ack');
    expect(sent).toHaveLength(1);
    await turn();
    expect(sent.map((update) => update.prose?.map((piece) => piece.text).join(''))).toEqual([undefined, 'after the ack']);
  });

  it('sends nothing on an acknowledgement when nothing changed', async () => {
    const { batcher, sent } = createBatcher();
    batcher.status('streaming');
    await turn();
    batcher.acknowledge();
    batcher.acknowledge();
    await turn();
    expect(sent).toHaveLength(1);
  });

  it('sends a hunk\'s first line at once even while waiting for the renderer, with everything else that is pending', async () => {
    const { batcher, sent } = createBatcher();
    batcher.status('streaming');
    await turn();
    batcher.prose(1, 'Now the second file.\n');
    batcher.hunk(hunkUpdate('1.0', added('first line')), true);
    await turn();
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({ sessionId: 'session-1', prose: [{ turn: 1, text: 'Now the second file.\n' }], hunks: [hunkUpdate('1.0', added('first line'))] });
  });

  it('lets lines that arrive in the same tick as an urgent first line join its batch', async () => {
    const { batcher, sent } = createBatcher();
    batcher.hunk(hunkUpdate('0.0', added('first')), true);
    batcher.hunk(hunkUpdate('0.0', added('second')), false);
    batcher.hunk(hunkUpdate('0.1', added('other first')), true);
    expect(sent).toEqual([]);
    await turn();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.hunks.map((hunk) => [hunk.id, textsOf(hunk)])).toEqual([
      ['0.0', ['first', 'second']],
      ['0.1', ['other first']],
    ]);
  });

  it('does not send an urgent batch twice when the acknowledgement arrives before it goes out', async () => {
    const { batcher, sent } = createBatcher();
    batcher.status('streaming');
    await turn();
    batcher.hunk(hunkUpdate('0.0', added('first')), true);
    batcher.acknowledge();
    await turn();
    await turn();
    expect(sent).toHaveLength(2);
    expect(textsOf(sent[1]!.hunks[0])).toEqual(['first']);
  });

  it('waits for the renderer again after an urgent batch', async () => {
    const { batcher, sent } = createBatcher();
    batcher.hunk(hunkUpdate('0.0', added('first')), true);
    await turn();
    batcher.hunk(hunkUpdate('0.0', added('second')), false);
    await turn();
    expect(sent).toHaveLength(1);
    batcher.acknowledge();
    expect(textsOf(sent[1]!.hunks[0])).toEqual(['second']);
  });
});

describe('UpdateBatcher: the acknowledgement timeout', () => {
  // Fake timers drive the fallback timer only; nothing here measures real time.
  const fakeTimers = (): void => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'] });

  it('sends held changes when no acknowledgement comes within ackTimeoutMs, and keeps doing so', () => {
    fakeTimers();
    const { batcher, sent } = createBatcher(100);
    batcher.status('streaming');
    vi.advanceTimersByTime(0);
    expect(sent).toHaveLength(1);

    batcher.prose(1, 'a');
    vi.advanceTimersByTime(99);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sent.map((update) => update.prose?.map((piece) => piece.text).join(''))).toEqual([undefined, 'a']);

    // Still no renderer: the next batch waits for the timeout again.
    batcher.prose(1, 'b');
    vi.advanceTimersByTime(99);
    expect(sent).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sent.map((update) => update.prose?.map((piece) => piece.text).join(''))).toEqual([undefined, 'a', 'b']);
  });

  it('starts no timer while nothing is pending', () => {
    fakeTimers();
    const { batcher, sent } = createBatcher(100);
    batcher.status('streaming');
    vi.advanceTimersByTime(0);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(1);
  });

  it('sends at the acknowledgement without waiting for the timeout, and clears the timeout', () => {
    fakeTimers();
    const { batcher, sent } = createBatcher(100);
    batcher.status('streaming');
    vi.advanceTimersByTime(0);
    batcher.prose(1, 'held');
    expect(vi.getTimerCount()).toBe(1);
    batcher.acknowledge();
    expect(sent.map((update) => update.prose?.map((piece) => piece.text).join(''))).toEqual([undefined, 'held']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('replaces the timeout with an immediate send for an urgent first line', async () => {
    fakeTimers();
    const { batcher, sent } = createBatcher(100);
    batcher.status('streaming');
    vi.advanceTimersByTime(0);
    batcher.prose(1, 'held');
    batcher.hunk(hunkUpdate('0.0', added('first')), true);
    // No timer: it goes once this tick's work is done.
    expect(vi.getTimerCount()).toBe(0);
    await new Promise((resolve) => process.nextTick(resolve));
    expect(sent).toHaveLength(2);
    expect(sent[1]).toEqual({ sessionId: 'session-1', prose: [{ turn: 1, text: 'held' }], hunks: [hunkUpdate('0.0', added('first'))] });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('leaves no timer behind when disposed while a batch is held', () => {
    fakeTimers();
    const { batcher, sent } = createBatcher(100);
    batcher.status('streaming');
    vi.advanceTimersByTime(0);
    batcher.prose(1, 'held');
    batcher.dispose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(1);
  });
});

describe('UpdateBatcher: flush and dispose', () => {
  it('flush sends what is pending at once and cancels the scheduled send', async () => {
    const { batcher, sent } = createBatcher();
    batcher.hunk(hunkUpdate('0.0', added('a')), false);
    batcher.flush();
    expect(sent).toHaveLength(1);
    await turn();
    expect(sent).toHaveLength(1);
  });

  it('flush sends even while waiting for the renderer', async () => {
    const { batcher, sent } = createBatcher();
    batcher.status('streaming');
    await turn();
    batcher.status('complete');
    batcher.flush();
    expect(sent.map((update) => update.status)).toEqual(['streaming', 'complete']);
  });

  it('flush with nothing pending sends nothing and does not make the next change wait for an acknowledgement', async () => {
    const { batcher, sent } = createBatcher();
    batcher.flush();
    expect(sent).toEqual([]);
    batcher.prose(1, 'x');
    await turn();
    expect(sent).toHaveLength(1);
  });

  it('sends nothing more on its own once disposed, held or newly changed', async () => {
    const { batcher, sent } = createBatcher();
    batcher.status('streaming');
    await turn();
    batcher.prose(1, 'held');
    batcher.dispose();
    batcher.acknowledge();
    batcher.hunk(hunkUpdate('0.0', added('late')), true);
    batcher.prose(1, 'late');
    await turn();
    await turn();
    expect(sent).toHaveLength(1);
  });

  it('cancels a send scheduled for the next turn when disposed', async () => {
    const { batcher, sent } = createBatcher();
    batcher.hunk(hunkUpdate('0.0', added('a')), true);
    batcher.dispose();
    await turn();
    expect(sent).toEqual([]);
  });
});

describe('UpdateBatcher turns', () => {
  it('keeps each turn’s prose apart and carries the latest fields of each changed turn', () => {
    const sent: AnswerUpdate[] = [];
    const batcher = new UpdateBatcher('session-1', (update) => sent.push(update));
    batcher.prose(1, 'Skipping ');
    batcher.prose(1, 'cancelled.\n');
    const turn = { index: 2, kind: 'redirect', text: 'No, use reduce', depth: 'fast', model: 'm', status: 'streaming', askedAtEpochMs: 1 } as const;
    batcher.turn(turn);
    batcher.turn({ ...turn, startedAtEpochMs: 2 });
    batcher.prose(2, 'Using reduce.\n');
    batcher.flush();
    expect(sent).toEqual([
      {
        sessionId: 'session-1',
        hunks: [],
        prose: [
          { turn: 1, text: 'Skipping cancelled.\n' },
          { turn: 2, text: 'Using reduce.\n' },
        ],
        turns: [{ ...turn, startedAtEpochMs: 2 }],
      },
    ]);
  });
});
