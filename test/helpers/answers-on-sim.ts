/**
 * The conversation part of main on real parts: an AnswerService with a real workspace on a
 * temp project, the real inference service talking to the simulator, and (optionally) a
 * history folder, so a test can close Flint and start it again on the same config.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnswerUpdate, ConversationSummary } from '../../src/shared/ask-types';
import type { HunkState } from '../../src/shared/edits/hunk-types';
import { AnswerService } from '../../src/main/ask/answer-service';
import { PromptBuilder } from '../../src/main/ask/prompt-builder';
import { CredentialService } from '../../src/main/credentials/credential-service';
import { InferenceService } from '../../src/main/inference/inference-service';
import { createMemoryLogger } from '../../src/main/logger';
import { SettingsStore } from '../../src/main/settings/settings-store';
import { Workspace } from '../../src/main/workspace/workspace';
import type { z } from 'zod';
import { SimScriptSchema } from '../sim/sim-script';
import { startSimulator, type Simulator } from '../sim/simulator';
import { createTempProject, type TempProject } from './temp-project';
import { MemorySecretStore } from './test-core';

export interface SeenHunk {
  state: HunkState;
  path: string;
  lines: number;
  message?: string;
  superseded?: boolean;
}

/** One run of Flint's conversation part: what it sent the UI, and how to stop it. */
export interface AnswersRun {
  workspace: Workspace;
  answers: AnswerService;
  inference: InferenceService;
  /** Every update, in order. */
  updates: AnswerUpdate[];
  /** Each hunk's latest state, by id (ids repeat across conversations: the latest wins). */
  hunks: Map<string, SeenHunk>;
  lists: ConversationSummary[][];
  notices: string[];
  /** Closes the project (its conversations written to disk) and lets everything go. */
  stop(): Promise<void>;
}

export interface AnswersOnSim {
  sim: Simulator;
  project: TempProject;
  config: string;
  /** Starts Flint's conversation part on the project (again, after `stop`: a restart). */
  start(options?: { keep?: boolean; env?: Record<string, string> }): Promise<AnswersRun>;
  close(): Promise<void>;
}

export async function answersOnSim(options: { files: Record<string, string>; script: z.input<typeof SimScriptSchema>; tokensPerSecond?: number }): Promise<AnswersOnSim> {
  const sim = await startSimulator({ ttftMs: 5, tokensPerSecond: options.tokensPerSecond ?? 20_000, chunkTokens: 1, script: SimScriptSchema.parse(options.script) });
  const project = await createTempProject(options.files);
  const config = await mkdtemp(join(tmpdir(), 'flint-answers-config-'));
  const runs: AnswersRun[] = [];
  return {
    sim,
    project,
    config,
    async start({ keep = true, env = { FLINT_API_KEY: 'sk-sim' } } = {}) {
      const run = await startRun(sim, project, config, keep, env);
      runs.push(run);
      return run;
    },
    async close() {
      for (const run of runs) await run.stop();
      await sim.close();
      await project.remove();
      await rm(config, { recursive: true, force: true });
    },
  };
}

async function startRun(sim: Simulator, project: TempProject, config: string, keep: boolean, env: Record<string, string>): Promise<AnswersRun> {
  const logger = createMemoryLogger();
  const fullEnv = { FLINT_BASE_URL: sim.baseUrl, FLINT_MODEL: 'spark', FLINT_DEEP_MODEL: 'spark-deep', ...env };
  const { store } = await SettingsStore.load(config);
  const inference = new InferenceService({ settings: store, credentials: new CredentialService(new MemorySecretStore(), logger), env: fullEnv, logger });
  const workspace = new Workspace({ journalFolder: join(config, 'journals'), logger });
  const prompts = new PromptBuilder({ inference, project: () => workspace.project });
  const answers = new AnswerService({ workspace, inference, buildPrompt: (request) => prompts.build(request), logger, ...(keep ? { historyFolder: join(config, 'conversations') } : {}) });
  const run: AnswersRun = { workspace, answers, inference, updates: [], hunks: new Map(), lists: [], notices: [], stop: async () => undefined };
  answers.onDidUpdate((update) => {
    run.updates.push(update);
    for (const hunk of update.hunks) {
      const known = run.hunks.get(hunk.id);
      run.hunks.set(hunk.id, { state: hunk.state, path: hunk.path, lines: (known?.lines ?? 0) + hunk.appendLines.length, ...(hunk.message ? { message: hunk.message } : {}), ...(hunk.superseded ? { superseded: true } : {}) });
    }
  });
  answers.onDidChangeList((list) => run.lists.push(list));
  answers.onDidNotice((notice) => run.notices.push(notice));
  await workspace.open(project.root);
  let stopped = false;
  run.stop = async () => {
    if (stopped) return;
    stopped = true;
    await workspace.close('closed', 'test over');
    await answers.flush();
    answers.dispose();
    workspace.dispose();
    inference.dispose();
  };
  return run;
}
