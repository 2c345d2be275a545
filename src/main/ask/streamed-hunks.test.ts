/**
 * A streaming hunk's lines and line in progress reach the renderer through the batcher,
 * built as each batch goes out (see streamed-updates.ts): one update per hunk and batch,
 * whatever the deltas, and the renderer ends with what reporting every change at once gave.
 * Counts, never time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import type { AnswerUpdate } from '../../shared/ask-types';
import { EditStreamParser } from '../../shared/edits/edit-stream-parser';
import { isHunkStreamEvent, type HunkLine } from '../../shared/edits/edit-types';
import type { HunkUpdate } from '../../shared/edits/hunk-types';
import { UpdateBatcher } from './update-batcher';
import { decodeFileText } from '../fs/file-text';
import { createMemoryLogger } from '../logger';
import type { EditApplier } from '../edits/edit-applier';
import { HunkBoard } from '../edits/hunk-board';

const FILE = Array.from({ length: 40 }, (_, index) => `const value${index} = ${index};`);
/** Three hunks of a few lines each, the second at the end of a long line. */
const ANSWER = [
  'Two places.',
  '*** Begin Patch',
  '*** Update File: src/a.ts',
  '@@',
  ' const value1 = 1;',
  '-const value2 = 2;',
  '+const value2 = 20; // a changed line, long enough to arrive in many deltas',
  '+const extra = 2;',
  ' const value3 = 3;',
  '@@',
  ' const value20 = 20;',
  '-const value21 = 21;',
  '+const value21 = 210;',
  ' const value22 = 22;',
  '@@',
  '-const value38 = 38;',
  '+const value38 = 380;',
  '*** End Patch',
  '',
].join('\n');

/** What the renderer keeps of a hunk (see applyLines in the renderer). */
interface Shown {
  lines: HunkLine[];
  preview: HunkLine | null;
  state: string;
}

const boards: Array<{ dispose(): void }> = [];
afterEach(() => {
  for (const board of boards.splice(0)) board.dispose();
});

/**
 * Streams ANSWER in deltas of `deltaSize` through a board (batched when `batched`, else
 * each change reported at once), a batch going out every `perBatch` deltas; returns what
 * the renderer ends with, the batches, and how many hunk updates were built.
 */
async function stream(options: { deltaSize: number; perBatch: number; batched: boolean }) {
  const batches: AnswerUpdate[] = [];
  const batcher = new UpdateBatcher('s', (update) => batches.push(update), 60 * 60 * 1000);
  let built = 0;
  const counted = (update: HunkUpdate): HunkUpdate => ((built += 1), update);
  const board = new HunkBoard({
    applier: {} as EditApplier,
    readText: async () => null,
    logger: createMemoryLogger(),
    report: (update, urgent) => batcher.hunk(counted(update), urgent),
    ...(options.batched ? { streaming: (id: string, build: () => HunkUpdate | null, urgent: boolean) => batcher.streaming(id, () => { const update = build(); return update && counted(update); }, urgent) } : {}),
  });
  boards.push(board, batcher);
  board.noteShown(new Map([['src/a.ts', decodeFileText(new TextEncoder().encode(`${FILE.join('\n')}\n`), 'src/a.ts')]]));
  const toBoard = board.beginTurn(1);
  const parser = new EditStreamParser((event) => isHunkStreamEvent(event) && toBoard(event));
  let deltas = 0;
  for (let offset = 0; offset < ANSWER.length; offset += options.deltaSize) {
    parser.push(ANSWER.slice(offset, offset + options.deltaSize));
    if ((deltas += 1) % options.perBatch === 0) batcher.flush();
  }
  parser.finish(false);
  await new Promise((resolve) => setImmediate(resolve));
  batcher.flush();
  return { shown: shownBy(batches), batches, built, deltas };
}

function shownBy(batches: readonly AnswerUpdate[]): Map<string, Shown> {
  const shown = new Map<string, Shown>();
  for (const batch of batches) {
    for (const hunk of batch.hunks) {
      const known = shown.get(hunk.id) ?? { lines: [], preview: null, state: hunk.state };
      known.lines.push(...hunk.appendLines);
      known.preview = hunk.state === 'streaming' ? (hunk.partialLine ?? null) : null;
      known.state = hunk.state;
      shown.set(hunk.id, known);
    }
  }
  return shown;
}

describe('HunkBoard: streaming hunks, batched', () => {
  it('builds one update per hunk and batch however small the deltas: a preview per delta is never built', async () => {
    const batched = await stream({ deltaSize: 4, perBatch: 16, batched: true });
    const eager = await stream({ deltaSize: 4, perBatch: 16, batched: false });
    const hunkUpdates = batched.batches.reduce((total, batch) => total + batch.hunks.length, 0);
    // Each hunk once per batch at most, plus its opening and settling; the eager board built one per delta and line.
    expect(batched.built).toBeLessThanOrEqual(hunkUpdates + 3 * 2);
    expect(hunkUpdates).toBeLessThanOrEqual(batched.batches.length * 3);
    expect(eager.built).toBeGreaterThan(batched.deltas / 2);
    expect(batched.built * 4).toBeLessThan(eager.built);
  });

  it('ends where reporting every change at once ends: each hunk’s lines once, in order, its state, no preview left', async () => {
    const eager = await stream({ deltaSize: 1, perBatch: 1, batched: false });
    expect([...eager.shown.values()].map((hunk) => hunk.state)).toEqual(['pending', 'pending', 'pending']);
    const first = baseSeed(7);
    for (let seed = first; seed < first + trialCount(20, 500); seed += 1) {
      const random = seededRandom(seed);
      const options = { deltaSize: 1 + Math.floor(random() * 24), perBatch: 1 + Math.floor(random() * 8), batched: true };
      const batched = await stream(options);
      expect(batched.shown, `seed ${seed}: ${JSON.stringify(options)}`).toEqual(eager.shown);
    }
  });

  it('sends the line in progress as it is when the batch goes out, and never a preview of a line already whole', async () => {
    const { batches } = await stream({ deltaSize: 4, perBatch: 3, batched: true });
    const lines = new Map<string, string[]>();
    for (const batch of batches) {
      for (const hunk of batch.hunks) {
        const known = [...(lines.get(hunk.id) ?? []), ...hunk.appendLines.map((line) => line.text)];
        lines.set(hunk.id, known);
        if (hunk.partialLine === undefined) continue;
        // The preview is the start of the hunk's next line (of the answer), never one it already has.
        const next = ANSWER.split('\n').find((line) => line.slice(1).startsWith(hunk.partialLine!.text) && !known.includes(line.slice(1)));
        expect(next, JSON.stringify(hunk.partialLine)).toBeDefined();
      }
    }
  });

  it('sends a hunk’s first preview and first line at once (urgent), the rest with the batches', async () => {
    const batches: AnswerUpdate[] = [];
    const batcher = new UpdateBatcher('s', (update) => batches.push(update), 60 * 60 * 1000);
    const board = new HunkBoard({ applier: {} as EditApplier, readText: async () => null, logger: createMemoryLogger(), report: (update, urgent) => batcher.hunk(update, urgent), streaming: (id, build, urgent) => batcher.streaming(id, build, urgent) });
    boards.push(board, batcher);
    const toBoard = board.beginTurn(1);
    const parser = new EditStreamParser((event) => isHunkStreamEvent(event) && toBoard(event));
    parser.push('*** Begin Patch\n*** Update File: src/a.ts\n@@\n-const va');
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches.at(-1)?.hunks.at(-1)?.partialLine).toEqual({ kind: 'remove', text: 'const va' });
    parser.push('lue2 = 2;\n+const');
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches.at(-1)?.hunks.at(-1)?.appendLines).toEqual([{ kind: 'remove', text: 'const value2 = 2;' }]);
    const sent = batches.length;
    parser.push(' value2 = 20;\n');
    await new Promise((resolve) => setImmediate(resolve));
    // The renderer has not acknowledged: the second line waits for it.
    expect(batches).toHaveLength(sent);
    batcher.acknowledge();
    expect(batches.at(-1)?.hunks.at(-1)?.appendLines).toEqual([{ kind: 'add', text: 'const value2 = 20;' }]);
  });
});
