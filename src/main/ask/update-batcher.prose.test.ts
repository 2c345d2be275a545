/**
 * The prose tail in batches (see src/shared/edits/prose-tail.ts): one entry per turn and
 * batch, whatever the deltas were.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerUpdate } from '../../shared/ask-types';
import { UpdateBatcher } from './update-batcher';

const batchers: UpdateBatcher[] = [];
afterEach(() => {
  for (const batcher of batchers.splice(0)) batcher.dispose();
});

function createBatcher(): { batcher: UpdateBatcher; sent: AnswerUpdate[] } {
  const sent: AnswerUpdate[] = [];
  const batcher = new UpdateBatcher('session-1', (update) => sent.push(update), 60 * 60 * 1000);
  batchers.push(batcher);
  return { batcher, sent };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('UpdateBatcher: the prose tail', () => {
  it('carries one tail per turn: appends join, a replacement resets it, and a turn’s prose line takes what its tail had', async () => {
    const { batcher, sent } = createBatcher();
    batcher.proseTail(1, 'Hel', false);
    batcher.proseTail(1, 'lo', false);
    batcher.proseTail(2, 'src/a.ts\n', true);
    batcher.prose(1, 'Hello\n');
    batcher.proseTail(1, 'Wor', false);
    batcher.proseTail(2, 'x', false);
    await turn();
    expect(sent).toEqual([
      {
        sessionId: 'session-1',
        hunks: [],
        prose: [{ turn: 1, text: 'Hello\n' }],
        proseTail: [
          { turn: 2, text: 'src/a.ts\nx', replace: true },
          { turn: 1, text: 'Wor', replace: false },
        ],
      },
    ]);
  });
});
