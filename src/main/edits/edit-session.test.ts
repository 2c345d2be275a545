import { describe, expect, it } from 'vitest';
import { growthRatio, LINEAR_GROWTH_BOUND } from '../../shared/edits/fixtures/growth';
import type { HunkState } from '../../shared/edits/hunk-types';
import type { AnswerUpdate } from '../../shared/ask-types';
import type { StreamSink } from '../inference/model-stream';
import { createMemoryLogger } from '../logger';
import type { EditApplier } from './edit-applier';
import { EditSession } from './edit-session';
import { decodeFileText, type FileText } from './file-text';

const text = (content: string): FileText => decodeFileText(new TextEncoder().encode(content), 'test');
const COMPLETED = { outcome: 'completed', latency: { keypressToWriteMs: 0, requestToFirstDeltaMs: 0, tokensPerSecond: 0, totalMs: 0, outputTokens: 0, model: 'test' } } as const;
const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * An edit session fed by hand: `stream` sends each part in small deltas and lets every
 * hunk settle before the next part. `applier` holds only what a test expects to be called.
 */
function harness(files: Record<string, string>, applier: Partial<EditApplier> = {}) {
  const hunks = new Map<string, { state: HunkState; message?: string }>();
  const paths: string[] = [];
  let sink: StreamSink | null = null;
  const session = new EditSession({
    sessionId: 'test',
    applier: applier as EditApplier,
    openStream: async (_turn, streamSink) => {
      sink = streamSink;
      return { cancel: () => undefined, done: new Promise(() => undefined) };
    },
    readText: async (path) => (path in files ? text(files[path]!) : null),
    emit: (update: AnswerUpdate) => {
      for (const hunk of update.hunks) {
        hunks.set(hunk.id, { state: hunk.state, ...(hunk.message !== undefined ? { message: hunk.message } : {}) });
        paths.push(hunk.path);
      }
    },
    logger: createMemoryLogger(),
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

describe('EditSession', () => {
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
    await expect(session.accept('1.0')).rejects.toThrow('only a complete, anchored hunk');
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
    expect(await session.accept('1.move.0')).toBe('refused');
    session.flush();
    expect(hunks.get('1.0')).toEqual({ state: 'refused', message: `${refusal} The file's whole section is refused with its move.` });
  });
});
