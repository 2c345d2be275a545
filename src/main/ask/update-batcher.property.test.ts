import { describe, expect, it } from 'vitest';
import type { AnswerUpdate } from '../../shared/ask-types';
import type { HunkState, HunkUpdate } from '../../shared/edits/hunk-types';
import { added, hunkUpdate } from '../../../test/helpers/hunk-updates';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { UpdateBatcher } from './update-batcher';

/** Only acknowledgements, flushes and turns release batches here. */
const NEVER_MS = 60 * 60 * 1000;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const textsOf = (update: HunkUpdate | undefined): string[] => (update?.appendLines ?? []).map((line) => line.text);

function createBatcher(): { batcher: UpdateBatcher; sent: AnswerUpdate[] } {
  const sent: AnswerUpdate[] = [];
  return { batcher: new UpdateBatcher('session-1', (update) => sent.push(update), NEVER_MS), sent };
}

describe('UpdateBatcher: no line lost or repeated', () => {
  it('delivers every hunk line exactly once, in order, with each hunk\'s last state, under any interleaving', async () => {
    const first = baseSeed(1);
    for (let seed = first; seed < first + trialCount(40, 2_000); seed += 1) {
      const random = seededRandom(seed);
      const { batcher, sent } = createBatcher();
      const expectedLines = new Map<string, string[]>();
      const expectedState = new Map<string, HunkState>();
      const ids = ['0.0', '0.1', '1.0', '2.0'];
      const states: HunkState[] = ['streaming', 'pending', 'conflict', 'partial'];
      let prose = '';
      let counter = 0;

      for (let step = 0; step < 200; step += 1) {
        const roll = random();
        if (roll < 0.55) {
          const id = ids[Math.floor(random() * ids.length)]!;
          const count = Math.floor(random() * 3);
          const texts = Array.from({ length: count }, () => `${id}:${(counter += 1)}`);
          const state = states[Math.floor(random() * states.length)]!;
          const isFirstLine = count > 0 && !expectedLines.has(id);
          if (count > 0) expectedLines.set(id, [...(expectedLines.get(id) ?? []), ...texts]);
          expectedState.set(id, state);
          batcher.hunk(hunkUpdate(id, added(...texts), state), isFirstLine);
        } else if (roll < 0.65) {
          const text = `p${(counter += 1)} `;
          prose += text;
          batcher.prose(1, text);
        } else if (roll < 0.8) {
          batcher.acknowledge();
        } else if (roll < 0.85) {
          batcher.flush();
        } else {
          await turn();
        }
      }
      batcher.flush();
      batcher.dispose();

      const deliveredLines = new Map<string, string[]>();
      const deliveredState = new Map<string, HunkState>();
      for (const update of sent) {
        expect(update.sessionId).toBe('session-1');
        expect(update.hunks.length + (update.prose ? 1 : 0), `seed ${seed}: an empty batch went out`).toBeGreaterThan(0);
        expect(new Set(update.hunks.map((hunk) => hunk.id)).size, `seed ${seed}: a hunk twice in one batch`).toBe(update.hunks.length);
        for (const hunk of update.hunks) {
          deliveredLines.set(hunk.id, [...(deliveredLines.get(hunk.id) ?? []), ...textsOf(hunk)]);
          deliveredState.set(hunk.id, hunk.state);
        }
      }
      for (const [id, lines] of expectedLines) expect(deliveredLines.get(id), `seed ${seed}, hunk ${id}`).toEqual(lines);
      expect(deliveredState, `seed ${seed}`).toEqual(expectedState);
      expect(sent.map((update) => update.prose?.map((piece) => piece.text).join('') ?? '').join(''), `seed ${seed}`).toBe(prose);
    }
  });
});
