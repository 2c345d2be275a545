/**
 * readSettled on real files, with a clock the test drives: a writer's pauses happen
 * exactly while the reader waits, so every case is deterministic.
 */
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { readSettled, type SettleClock } from './read-settled';

/** Virtual time; `onSleep` runs while the reader sleeps (a writer writing its next piece). */
function virtualClock(onSleep: () => Promise<void> = async () => undefined) {
  const state = { time: 0, sleeps: 0 };
  const clock: SettleClock = {
    now: () => state.time,
    sleep: async (ms) => {
      state.time += ms;
      state.sleeps += 1;
      await onSleep();
    },
  };
  return { clock, state };
}

/** A writer that adds one piece of `text` each time it is called, then nothing. */
function pieceWriter(path: string, text: string, pieces: number) {
  const size = Math.ceil(text.length / pieces);
  let written = 0;
  return {
    get done() {
      return written >= text.length;
    },
    next: async () => {
      if (written >= text.length) return;
      await appendFile(path, text.slice(written, written + size));
      written += size;
    },
  };
}

const QUIET = { quietMs: 120, pollMs: 20, timeoutMs: 10_000 };

describe('readSettled', () => {
  let project: TempProject;
  let path: string;
  const read = () => readFile(path, 'utf8');

  beforeEach(async () => {
    project = await createTempProject({ 'big.ts': '' });
    path = project.path('big.ts');
  });

  afterEach(() => project.remove());

  it('waits for a writer that pauses between pieces for longer than a read, and returns only the whole file', async () => {
    const text = 'x'.repeat(400_000);
    const writer = pieceWriter(path, text, 8);
    await writer.next();
    const { clock } = virtualClock(() => writer.next());
    const result = await readSettled(path, read, { ...QUIET, clock });
    expect(writer.done).toBe(true);
    expect(result).toMatchObject({ kind: 'settled', value: text });
  });

  it('waits the whole quiet period after the last change, not less', async () => {
    await writeFile(path, 'done\n');
    const { clock, state } = virtualClock();
    await readSettled(path, read, { ...QUIET, clock });
    expect(state.time).toBeGreaterThanOrEqual(QUIET.quietMs);
  });

  it('reads at once a file the caller already knows to be settled', async () => {
    await writeFile(path, 'settled\n');
    const { clock, state } = virtualClock();
    const result = await readSettled(path, read, { ...QUIET, clock, knownQuietMs: () => Number.POSITIVE_INFINITY });
    expect(result).toMatchObject({ kind: 'settled', value: 'settled\n' });
    expect(state.sleeps).toBe(0);
  });

  it('forgets what the caller knew once the file is seen changing', async () => {
    await writeFile(path, 'first\n');
    let reads = 0;
    // The first read races a write: the file changes under it.
    const racing = async () => {
      reads += 1;
      const text = await read();
      if (reads === 1) await appendFile(path, 'second\n');
      return text;
    };
    const { clock, state } = virtualClock();
    const result = await readSettled(path, racing, { ...QUIET, clock, knownQuietMs: () => Number.POSITIVE_INFINITY });
    expect(result).toMatchObject({ kind: 'settled', value: 'first\nsecond\n' });
    expect(state.time).toBeGreaterThanOrEqual(QUIET.quietMs);
  });

  it('reports a file that never holds still as still being written, and returns nothing of it', async () => {
    const { clock } = virtualClock(() => appendFile(path, 'more\n'));
    const result = await readSettled(path, read, { ...QUIET, timeoutMs: 1_000, clock });
    expect(result).toEqual({ kind: 'still-writing' });
  });

  it('starts the quiet period again after a late wake-up, when a writer in this process could not run', async () => {
    await writeFile(path, 'stalled\n');
    let wakes = 0;
    const state = { time: 0 };
    // The second sleep wakes 500 ms late (a long task, a loaded machine).
    const clock: SettleClock = {
      now: () => state.time,
      sleep: async (ms) => {
        wakes += 1;
        state.time += wakes === 2 ? 500 : ms;
      },
    };
    await readSettled(path, read, { ...QUIET, clock });
    // One poll, the stall, then a full quiet period of polls after it.
    expect(state.time).toBeGreaterThanOrEqual(QUIET.pollMs + 500 + QUIET.quietMs);
  });

  it('answers a missing file as settled with whatever the reader makes of it', async () => {
    const gone = project.path('gone.ts');
    const { clock } = virtualClock();
    const result = await readSettled(gone, async () => null, { ...QUIET, clock });
    expect(result).toEqual({ kind: 'settled', value: null, stamp: null });
  });
});
