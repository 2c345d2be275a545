/**
 * An AnswerService on a real workspace and temp project, with model streams the test
 * drives by hand (deltas, endings, failures to open), like the real InferenceService: the
 * stream comes back at once, and what the provider answers arrives later through its sink.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { TWO_FUNCTIONS } from '../fixtures/conversation-answers';
import { AnswerService } from '../../src/main/ask/answer-service';
import type { BuiltPrompt, PromptRequest } from '../../src/main/ask/prompt-builder';
import type { InferenceService } from '../../src/main/inference/inference-service';
import type { ConversationMessage, StreamEnd, StreamSink } from '../../src/main/inference/model-stream';
import { createMemoryLogger } from '../../src/main/logger';
import { Workspace } from '../../src/main/workspace/workspace';
import { createTempProject, waitFor, type TempProject } from './temp-project';

export const FIRST_HUNK = '*** Begin Patch\n*** Update File: src/a.ts\n@@ export function first\n-  return 1;\n+  return 10;\n*** End Patch\n';
const LATENCY = { keypressToWriteMs: 0, requestToFirstDeltaMs: 0, tokensPerSecond: 0, totalMs: 0, outputTokens: 0, model: 'fast-m' };

export interface FakeStream {
  prompt: string;
  history: readonly ConversationMessage[];
  sink: StreamSink;
  ended: boolean;
  cancelled: boolean;
  complete(text?: string): void;
  end(end: Omit<StreamEnd, 'latency'>): void;
}

export interface Harness {
  project: TempProject;
  config: string;
  workspace: Workspace;
  answers: AnswerService;
  streams: FakeStream[];
  /** Streams open at once, at most, so far. */
  maxOpen: () => number;
  historyFolder: string;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

/** The service on `src/a.ts` (TWO_FUNCTIONS), current; cleaned up after each test. */
export async function harness(options: { buildPrompt?: (request: PromptRequest) => Promise<BuiltPrompt>; failOpen?: (prompt: string) => boolean; history?: boolean } = {}): Promise<Harness> {
  const project = await createTempProject({ 'src/a.ts': TWO_FUNCTIONS });
  const config = await mkdtemp(join(tmpdir(), 'flint-review-'));
  const logger = createMemoryLogger();
  const streams: FakeStream[] = [];
  let open = 0;
  let maxOpen = 0;
  const inference = {
    modelFor: (depth: string) => ({ model: depth === 'deep' ? 'deep-m' : 'fast-m', kind: 'responses', windowTokens: 100_000 }),
    openStream: async (input: { prompt: string; history?: readonly ConversationMessage[] }, sink: StreamSink) => {
      if (options.failOpen?.(input.prompt)) throw new Error('The server failed (500).');
      open += 1;
      maxOpen = Math.max(maxOpen, open);
      const stream: FakeStream = {
        prompt: input.prompt,
        history: input.history ?? [],
        sink,
        ended: false,
        cancelled: false,
        complete(text = '') {
          if (text) sink.onDelta(text);
          stream.end({ outcome: 'completed' });
        },
        end(end) {
          if (stream.ended) return;
          stream.ended = true;
          open -= 1;
          sink.onEnd({ ...end, latency: LATENCY });
        },
      };
      streams.push(stream);
      return {
        cancel: () => {
          if (stream.ended) return;
          stream.cancelled = true;
          stream.end({ outcome: 'cancelled' });
        },
        done: new Promise<StreamEnd>(() => undefined),
      };
    },
  } as unknown as InferenceService;
  const workspace = new Workspace({ journalFolder: join(config, 'journals'), logger });
  const historyFolder = join(config, 'conversations');
  const answers = new AnswerService({
    workspace,
    inference,
    buildPrompt: options.buildPrompt ?? (async (request) => ({ instructions: 'i', input: request.question })),
    logger,
    ...(options.history ? { historyFolder } : {}),
  });
  await workspace.open(project.root);
  workspace.requireProject().currentFile.select('src/a.ts');
  cleanups.push(async () => {
    answers.dispose();
    await workspace.close('closed', 'test over');
    workspace.dispose();
    await answers.flush();
    await project.remove();
    await rm(config, { recursive: true, force: true });
  });
  return { project, config, workspace, answers, streams, maxOpen: () => maxOpen, historyFolder };
}

export const tick = (ms = 30) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks the first question and waits for its stream. */
export async function firstQuestion(h: Harness, prompt = 'change first'): Promise<string> {
  const { sessionId } = await h.answers.ask({ prompt, depth: 'fast' });
  await waitFor(() => h.streams.length >= 1, 'the first stream');
  return sessionId;
}

/** Prompts built at once, except a question with `word` in it: held until `release()` (a turn caught while it is prepared). */
export function slowPrompts(word: string): { buildPrompt: (request: PromptRequest) => Promise<BuiltPrompt>; isPreparing: () => boolean; release: () => void } {
  let release: () => void = () => undefined;
  let preparing = false;
  return {
    buildPrompt: async (request) => {
      if (request.question.includes(word)) {
        preparing = true;
        await new Promise<void>((resolve) => (release = resolve));
      }
      return { instructions: 'i', input: request.question };
    },
    isPreparing: () => preparing,
    release: () => release(),
  };
}
