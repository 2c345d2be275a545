import { describe, expect, it } from 'vitest';
import { growthRatio, LINEAR_GROWTH_BOUND } from '../../../test/fixtures/growth';
import type { HunkState } from '../../shared/edits/hunk-types';
import type { AnswerUpdate } from '../../shared/ask-types';
import type { StreamSink } from '../inference/model-stream';
import { createMemoryLogger } from '../logger';
import type { EditApplier } from '../edits/edit-applier';
import { HunkBoard } from '../edits/hunk-board';
import { decodeFileText, type FileText } from '../fs/file-text';
import { AnswerSession } from './answer-session';

const text = (content: string): FileText => decodeFileText(new TextEncoder().encode(content), 'test');
const COMPLETED = { outcome: 'completed', latency: { keypressToWriteMs: 0, requestToFirstDeltaMs: 0, tokensPerSecond: 0, totalMs: 0, outputTokens: 0, model: 'test' } } as const;
const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * An answer fed by hand: `stream` sends each part in small deltas and lets every
 * hunk settle before the next part. `applier` holds only what a test expects to be called.
 */
function harness(files: Record<string, string>, applier: Partial<EditApplier> = {}) {
  const hunks = new Map<string, { state: HunkState; message?: string }>();
  const paths: string[] = [];
  let sink: StreamSink | null = null;
  const session = new AnswerSession({
    sessionId: 'test',
    openBoard: (report) => new HunkBoard({ applier: applier as EditApplier, readText: async (path) => (path in files ? text(files[path]!) : null), report, logger: createMemoryLogger() }),
    openStream: async (_turn, streamSink) => {
      sink = streamSink;
      return { cancel: () => undefined, done: new Promise(() => undefined) };
    },
    emit: (update: AnswerUpdate) => {
      for (const hunk of update.hunks) {
        hunks.set(hunk.id, { state: hunk.state, ...(hunk.message !== undefined ? { message: hunk.message } : {}) });
        paths.push(hunk.path);
      }
    },
    focus: 'whole-file',
    depth: 'fast',
  });
  return {
    session,
    /** Each hunk's latest state. */
    hunks,
    /** The path every hunk update carried. */
    paths,
    async stream(parts: readonly string[], deltaSize = 16): Promise<void> {
      await session.start({ instructions: '', input: 'test' }, new Map(Object.entries(files).map(([path, content]) => [path, text(content)])));
      for (const part of parts) {
        for (let offset = 0; offset < part.length; offset += deltaSize) sink!.onDelta('text', part.slice(offset, offset + deltaSize));
        await settled();
      }
      sink!.onEnd(COMPLETED);
      await settled();
      session.flush();
    },
  };
}

describe('AnswerSession', () => {
  it('settles hunks of 50,000-character lines against a file with such lines in linear time (main was blocked 3.8 s)', async () => {
    const run = async (size: number) => {
      const long = ' '.repeat(size);
      const { session, hunks, stream } = harness({ 'src/a.ts': `a\n${'*'.repeat(size)}:\n${long}x\nb  \n` });
      await stream([`a${'*'.repeat(size)}a\n*** Begin Patch\n*** Update File: src/a.ts${long}\n@@ ${long}x\n ${long}x${long}\n-b\n+c\n*** End Patch\n`], 4096);
      session.dispose();
      return hunks.get('1.0')?.state;
    };
    expect(await run(10)).toBe('pending');
    expect(await growthRatio(run, 3_125)).toBeLessThan(LINEAR_GROWTH_BOUND);
  });

  it('refuses a hunk containing a NUL character, visibly, and never writes it', async () => {
    const { session, hunks, stream } = harness({ 'src/a.ts': 'one\ntwo\n' });
    await stream(['*** Begin Patch\n*** Update File: src/a.ts\n-one\n+o\0ne\n*** Add File: src/b.ts\n+\0\n*** End Patch\n']);
    expect([...hunks.values()].map((hunk) => hunk.state)).toEqual(['refused', 'refused']);
    expect(hunks.get('1.0')!.message).toContain('NUL character');
    await expect(session.hunks.accept('1.0')).rejects.toThrow('only a complete, anchored hunk');
  });

  it('refuses a moved file’s whole section when the move is refused, in whatever order its hunks settle', async () => {
    const section = (move: string, hunkFirst: boolean) =>
      hunkFirst ? ['*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n+uno\n@@\n', `*** Move to: ${move}\n*** End Patch\n`] : [`*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: ${move}\n@@\n-one\n+uno\n*** End Patch\n`];
    for (const [move, hunkFirst] of [['.git./a.ts', false], ['GIT~1/a.ts', true], ['../a.ts', true]] as const) {
      const { hunks, stream } = harness({ 'src/a.ts': 'one\ntwo\n' });
      await stream(section(move, hunkFirst));
      expect(hunks.get('1.move.0')?.state, move).toBe('refused');
      expect(hunks.get('1.0'), move).toEqual({ state: 'refused', message: expect.stringContaining('whole section is refused with its move') });
    }
  });

  it('shows a refused huge path shortened, so it does not ride along with every update', async () => {
    const { hunks, paths, stream } = harness({});
    await stream([`*** Begin Patch\n*** Update File: ${'a'.repeat(1_000_000)}\n-one\n+uno\n*** End Patch\n`], 65_536);
    expect(hunks.get('1.0')?.state).toBe('refused');
    expect(new Set(paths)).toEqual(new Set([`${'a'.repeat(200)}…`]));
  });

  it('refuses the section’s pending hunks when the move is refused as it is accepted', async () => {
    const refusal = 'Refused: src/b.ts leads into .git through a symlink.';
    const { session, hunks, stream } = harness({ 'src/a.ts': 'one\ntwo\n' }, { moveFile: async () => ({ status: 'refused', message: refusal }) });
    await stream(['*** Begin Patch\n*** Update File: src/a.ts\n*** Move to: src/b.ts\n@@\n-one\n+uno\n*** End Patch\n']);
    expect([hunks.get('1.move.0')?.state, hunks.get('1.0')?.state]).toEqual(['pending', 'pending']);
    expect(await session.hunks.accept('1.move.0')).toBe('refused');
    session.flush();
    expect(hunks.get('1.0')).toEqual({ state: 'refused', message: `${refusal} The file's whole section is refused with its move.` });
  });
});

/**
 * An answer whose streams open when the test says: each turn's sink and a cancel count,
 * and every update the UI would receive.
 */
function turns(files: Record<string, string> = { 'src/a.ts': 'one\ntwo\n' }) {
  const opened: Array<{ sink: StreamSink; cancelled: number; open: () => void }> = [];
  const updates: AnswerUpdate[] = [];
  const session = new AnswerSession({
    sessionId: 'turns',
    openBoard: (report) => new HunkBoard({ applier: {} as EditApplier, readText: async (path) => (path in files ? text(files[path]!) : null), report, logger: createMemoryLogger() }),
    openStream: (_turn, sink) =>
      new Promise((resolve) => {
        const entry = { sink, cancelled: 0, open: () => resolve({ cancel: () => (entry.cancelled += 1), done: new Promise(() => undefined) }) };
        opened.push(entry);
      }),
    emit: (update) => updates.push(update),
    focus: 'whole-file',
    depth: 'fast',
  });
  const shown = new Map(Object.entries(files).map(([path, content]) => [path, text(content)]));
  const start = () => session.start({ instructions: '', input: 'turn' }, shown);
  const statuses = () => updates.flatMap((update) => (update.status ? [update.status] : []));
  const prose = () => updates.map((update) => update.prose ?? '').join('');
  const hunkStates = () => {
    const states = new Map<string, HunkState>();
    for (const update of updates) for (const hunk of update.hunks) states.set(hunk.id, hunk.state);
    return states;
  };
  return { session, opened, start, statuses, prose, hunkStates, flush: () => session.flush() };
}

describe('AnswerSession turns', () => {
  it('streams prose and ends complete', async () => {
    const answer = turns();
    const started = answer.start();
    answer.opened[0]!.open();
    await started;
    answer.opened[0]!.sink.onDelta('text', 'It returns one.\nThat is all.\n');
    answer.opened[0]!.sink.onEnd(COMPLETED);
    answer.flush();
    expect(answer.prose()).toBe('It returns one.\nThat is all.\n');
    expect(answer.statuses().at(-1)).toBe('complete');
    expect(answer.session.isStreaming).toBe(false);
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
    old.onDelta('text', '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-one\n');
    // A redirect: the old stream is stopped and a second turn starts.
    answer.session.stop();
    const second = answer.start();
    answer.opened[1]!.open();
    await second;
    old.onDelta('text', '+uno\n');
    old.onEnd({ ...COMPLETED, outcome: 'cancelled' });
    answer.opened[1]!.sink.onDelta('text', '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-two\n+dos\n*** End Patch\n');
    await settled();
    answer.flush();
    // The old turn's hunk was cut off when its stream ended; the new turn's is its own and still streaming.
    expect(answer.hunkStates()).toEqual(new Map([['1.0', 'partial'], ['2.0', 'pending']]));
    expect(answer.statuses()).not.toContain('stopped');
    expect(answer.statuses().at(-1)).toBe('streaming');
    expect(answer.session.isStreaming).toBe(true);
  });

  it('says why when the stream cannot open, and rethrows for the caller', async () => {
    const failing = new AnswerSession({
      sessionId: 'failing',
      openBoard: (report) => new HunkBoard({ applier: {} as EditApplier, readText: async () => null, report, logger: createMemoryLogger() }),
      openStream: async () => {
        throw new Error('No API key for Test.');
      },
      emit: () => undefined,
      focus: 'whole-file',
      depth: 'fast',
    });
    await expect(failing.start({ instructions: '', input: 'x' }, new Map())).rejects.toThrow('No API key');
    expect(failing.isStreaming).toBe(false);
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
