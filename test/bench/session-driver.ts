/**
 * An answer driven by hand for the scale benches: a real Conversation on a real
 * EditService (real files, journal, guarded writes), with the model stream replaced by a
 * sink the bench feeds, and the updates the renderer would receive kept as hunk states.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HunkState } from '../../src/shared/edits/hunk-types';
import type { Conversation } from '../../src/main/ask/conversation';
import { conversationFor, startTurn } from '../../test/helpers/conversations';
import { EditService } from '../../src/main/edits/edit-service';
import type { FileText } from '../../src/main/fs/file-text';
import { ProjectFiles } from '../../src/main/fs/project-files';
import type { StreamSink } from '../../src/main/inference/model-stream';
import { createMemoryLogger } from '../../src/main/logger';

/** A completed stream's end, as a provider reports it. */
export const COMPLETED = {
  outcome: 'completed',
  latency: { keypressToWriteMs: 0, requestToFirstDeltaMs: 0, tokensPerSecond: 0, totalMs: 0, outputTokens: 0, model: 'bench' },
} as const;

/** One turn of the event loop: what a task queued (microtasks, immediates before it) has run. */
export const nextTask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A temporary project folder and a journal folder beside it; `remove` deletes both. */
export async function benchWorkspace(prefix: string): Promise<{ project: string; journals: string; remove: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const project = join(root, 'project');
  const journals = join(root, 'journals');
  await mkdir(project);
  await mkdir(journals);
  return { project, journals, remove: () => rm(root, { recursive: true, force: true }) };
}

export class DrivenSession {
  /** Each hunk's latest state, as the renderer would know it. */
  readonly states = new Map<string, HunkState>();

  private constructor(
    readonly service: EditService,
    readonly session: Conversation,
    readonly sink: StreamSink,
  ) {}

  /**
   * Opens the service on `project` and starts an answer whose model was shown `shown`
   * (read through ProjectFiles, as the ask service does; a path missing on disk is not shown).
   */
  static async open(project: string, journals: string, shown: readonly string[]): Promise<DrivenSession> {
    const files = new ProjectFiles(project);
    const service = await EditService.create({ files, journalFolder: journals, logger: createMemoryLogger(), onWillWrite: () => undefined });
    let sink: StreamSink | null = null;
    let driven: DrivenSession | null = null;
    const session = conversationFor({
      id: 'bench-scale',
      openBoard: (report, streaming) => service.openBoard(report, streaming),
      emit: (update) => {
        for (const hunk of update.hunks) driven?.states.set(hunk.id, hunk.state);
      },
      focus: { focus: 'whole-file' },
      openStream: async (_prompt, streamSink) => {
        sink = streamSink;
        return { cancel: () => undefined, done: new Promise(() => undefined) };
      },
    });
    const texts = new Map<string, FileText>();
    for (const path of shown) {
      const text = await files.readText(path);
      if (text !== null) texts.set(path, text);
    }
    await startTurn(session, { instructions: '', input: 'bench' }, texts);
    driven = new DrivenSession(service, session, sink!);
    return driven;
  }

  /** How many hunks the renderer last saw in `state`. */
  count(state: HunkState): number {
    let count = 0;
    for (const value of this.states.values()) if (value === state) count += 1;
    return count;
  }

  /** Flushes and lets the loop turn until `done()`; throws after `timeoutMs`, naming the states seen. */
  async until(done: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      this.session.flush();
      if (done()) return;
      if (performance.now() > deadline) {
        const seen = [...new Set(this.states.values())].map((state) => `${this.count(state)} ${state}`).join(', ');
        throw new Error(`timed out waiting for ${what} (hunks seen: ${seen || 'none'})`);
      }
      await nextTask();
    }
  }

  /** Ends the stream as completed and waits until `hunks` hunks are pending. */
  async endAndSettle(hunks: number): Promise<void> {
    this.sink.onEnd(COMPLETED);
    // Settling may read files (real I/O): give it turns of the loop, not just microtasks.
    await this.until(() => this.count('pending') === hunks, `${hunks} pending hunks`);
  }

  async dispose(): Promise<void> {
    this.session.dispose();
    await this.service.finishWrites();
    this.service.dispose();
  }
}
