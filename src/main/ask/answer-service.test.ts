import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bothFunctionsPatch, TWO_FUNCTIONS } from '../../../test/fixtures/conversation-answers';
import type { HunkState } from '../../shared/edits/hunk-types';
import type { AnswerUpdate } from '../../shared/ask-types';
import { MemorySecretStore } from '../../../test/helpers/test-core';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { SimScriptSchema } from '../../../test/sim/sim-script';
import { startSimulator, type Simulator } from '../../../test/sim/simulator';
import { CredentialService } from '../credentials/credential-service';
import { InferenceService } from '../inference/inference-service';
import { createMemoryLogger } from '../logger';
import { SettingsStore } from '../settings/settings-store';
import { Workspace } from '../workspace/workspace';
import { AnswerService } from './answer-service';
import { PromptBuilder } from './prompt-builder';

const ORIGINAL = TWO_FUNCTIONS;

const TWO_HUNKS = `Changing both functions.\n${bothFunctionsPatch('src/app.ts')}`;

const ADJACENT = `*** Begin Patch
*** Update File: src/mixed.ts
@@
-const a = 1;
+const a = 10;
@@
-const b = 2;
+const b = 20;
*** End Patch
`;

const ESCAPE = `*** Begin Patch
*** Update File: ../outside.txt
-secret
+pwned
*** Add File: .git/hooks/pre-commit
+rm -rf /
*** End Patch
`;

const NUL_AND_MOVE_INTO_GIT = `*** Begin Patch
*** Update File: src/app.ts
@@ export function first
-  return 1;
+  return '\0';
*** Update File: src/mixed.ts
*** Move to: .git./hooks/post-checkout
@@
-const a = 1;
+const a = 10;
*** End Patch
`;

describe('AnswerService with the simulator and a real project', () => {
  let sim: Simulator;
  let project: TempProject;
  let config: string;
  let inference: InferenceService;
  let workspace: Workspace;
  let answers: AnswerService;
  let prompts: PromptBuilder;
  let hunks: Map<string, { state: HunkState; path: string; lines: number; message?: string }>;
  let statuses: string[];

  async function setUp(tokensPerSecond = 20_000, env: Record<string, string> = { FLINT_API_KEY: 'sk-sim' }) {
    sim = await startSimulator({
      ttftMs: 5,
      tokensPerSecond,
      chunkTokens: 1,
      script: SimScriptSchema.parse({
        rules: [
          { match: { inputIncludes: 'change both' }, answer: { text: TWO_HUNKS } },
          { match: { inputIncludes: 'escape' }, answer: { text: ESCAPE } },
          { match: { inputIncludes: 'no final newline' }, answer: { text: TWO_HUNKS.trimEnd() } },
          { match: { inputIncludes: 'adjacent' }, answer: { text: ADJACENT } },
          { match: { inputIncludes: 'sneaky' }, answer: { text: NUL_AND_MOVE_INTO_GIT } },
        ],
      }),
    });
    project = await createTempProject({ 'src/app.ts': ORIGINAL, 'src/mixed.ts': 'const a = 1;\r\nconst b = 2;\nconst c = 3;\r\n' });
    config = await mkdtemp(join(tmpdir(), 'flint-edit-config-'));
    const logger = createMemoryLogger();
    const fullEnv = { FLINT_BASE_URL: sim.baseUrl, FLINT_MODEL: 'spark', ...env };
    const { store } = await SettingsStore.load(config);
    inference = new InferenceService({ settings: store, credentials: new CredentialService(new MemorySecretStore(), logger), env: fullEnv, logger });
    hunks = new Map();
    statuses = [];
    workspace = new Workspace({ journalFolder: join(config, 'journals'), logger });
    prompts = new PromptBuilder({ inference, project: () => workspace.project });
    answers = new AnswerService({ workspace, inference, buildPrompt: (request) => prompts.build(request), logger });
    answers.onDidUpdate((update: AnswerUpdate) => {
      if (update.status) statuses.push(update.status);
      for (const hunk of update.hunks) {
        const known = hunks.get(hunk.id);
        hunks.set(hunk.id, { state: hunk.state, path: hunk.path, lines: (known?.lines ?? 0) + hunk.appendLines.length, ...(hunk.message ? { message: hunk.message } : {}) });
      }
    });
    await workspace.open(project.root);
    workspace.requireProject().currentFile.select('src/app.ts');
  }

  afterEach(async () => {
    answers?.dispose();
    await workspace?.close('closed', 'test over');
    workspace?.dispose();
    inference?.dispose();
    await sim?.close();
    await project?.remove();
    await rm(config, { recursive: true, force: true });
  });

  const hunksOf = (sessionId: string) => answers.conversation(sessionId).hunks;
  const edits = () => workspace.requireProject().edits;
  const states = () => [...hunks.values()].map((hunk) => hunk.state);
  const read = () => readFile(project.path('src/app.ts'), 'utf8');

  it('accepts the first hunk while the second streams, rejects the second: exact bytes on disk', async () => {
    await setUp(150);
    const { sessionId } = await answers.ask({ prompt: 'change both', depth: 'fast' });
    await waitFor(() => hunks.get('1.0')?.state === 'pending', 'the first hunk to be decidable');
    expect(hunks.get('1.1')?.state ?? 'not yet').not.toBe('pending');
    expect(await hunksOf(sessionId).accept('1.0')).toBe('accepted');
    await waitFor(() => hunks.get('1.1')?.state === 'pending', 'the second hunk');
    expect(hunksOf(sessionId).reject('1.1')).toBe('rejected');
    expect(await read()).toBe(ORIGINAL.replace('return 1;', 'return 10;'));
    await waitFor(() => statuses.includes('complete'), 'the answer to complete');
  });

  it('stops mid-hunk: complete hunks stay decidable, the cut one is partial', async () => {
    await setUp(150);
    const { sessionId } = await answers.ask({ prompt: 'change both', depth: 'fast' });
    await waitFor(() => hunks.get('1.1')?.state === 'streaming' && hunks.get('1.1')!.lines > 0, 'the second hunk to start');
    answers.stop(sessionId);
    await waitFor(() => hunks.get('1.1')?.state === 'partial', 'the partial hunk');
    expect(hunks.get('1.0')?.state).toBe('pending');
    expect(statuses).toContain('stopped');
    expect(() => hunksOf(sessionId).reject('1.1')).not.toThrow();
    await expect(hunksOf(sessionId).accept('1.0')).resolves.toBe('accepted');
  });

  it('re-anchors pending hunks when the user saves during streaming: merged elsewhere, conflict on the same lines', async () => {
    await setUp();
    const { sessionId } = await answers.ask({ prompt: 'change both', depth: 'fast' });
    await waitFor(() => states().length === 2 && states().every((state) => state === 'pending'), 'both hunks');
    // The user edits the second function in their editor.
    await writeFile(project.path('src/app.ts'), ORIGINAL.replace('return 2;', 'return 2222; // mine'));
    await edits().noteFileChanged('src/app.ts');
    await waitFor(() => hunks.get('1.1')?.state === 'conflict', 'a conflict on the same lines');
    expect(hunks.get('1.0')?.state).toBe('pending');
    expect(await hunksOf(sessionId).accept('1.0')).toBe('accepted');
    expect(await read()).toBe(ORIGINAL.replace('return 1;', 'return 10;').replace('return 2;', 'return 2222; // mine'));
  });

  it('undoes an Accept all in one step, restoring the original bytes exactly', async () => {
    await setUp();
    const { sessionId } = await answers.ask({ prompt: 'change both', depth: 'fast' });
    await waitFor(() => states().length === 2 && states().every((state) => state === 'pending'), 'both hunks');
    expect(await hunksOf(sessionId).acceptAll()).toBe(2);
    expect(await read()).toBe(ORIGINAL.replace('return 1;', 'return 10;').replace('return 2;', 'return 20;'));
    expect(await edits().undo()).toMatchObject({ status: 'done', message: 'Undid the change to src/app.ts.' });
    expect(await read()).toBe(ORIGINAL);
    expect((await edits().undo()).status).toBe('empty');
    // The cards say what is on disk: undone hunks can be accepted again, and redo writes both again.
    await waitFor(() => states().every((state) => state === 'pending'), 'undone hunks to be decidable again');
    expect((await edits().redo()).status).toBe('done');
    await waitFor(() => states().every((state) => state === 'accepted'), 'the redone hunks');
    expect(await read()).toBe(ORIGINAL.replace('return 1;', 'return 10;').replace('return 2;', 'return 20;'));
  });

  it('undoes single accepts one at a time', async () => {
    await setUp();
    const { sessionId } = await answers.ask({ prompt: 'change both', depth: 'fast' });
    await waitFor(() => states().length === 2 && states().every((state) => state === 'pending'), 'both hunks');
    expect(await hunksOf(sessionId).accept('1.0')).toBe('accepted');
    expect(await hunksOf(sessionId).accept('1.1')).toBe('accepted');
    expect((await edits().undo()).status).toBe('done');
    expect(await read()).toBe(ORIGINAL.replace('return 1;', 'return 10;'));
    expect((await edits().undo()).status).toBe('done');
    expect(await read()).toBe(ORIGINAL);
  });

  it('refuses a patch that leaves the project or touches .git, and writes nothing', async () => {
    await setUp();
    await writeFile(join(project.root, '..', 'outside.txt'), 'secret\n');
    try {
      const { sessionId } = await answers.ask({ prompt: 'escape', depth: 'fast' });
      await waitFor(() => states().length === 2 && states().every((state) => state === 'refused'), 'both refused');
      await expect(hunksOf(sessionId).accept('1.0')).rejects.toThrow('only a complete, anchored hunk');
      expect(await readFile(join(project.root, '..', 'outside.txt'), 'utf8')).toBe('secret\n');
    } finally {
      await rm(join(project.root, '..', 'outside.txt'), { force: true });
    }
  });

  it('refuses a hunk containing NUL and a moved section whose destination is .git as Windows spells it, and writes nothing', async () => {
    await setUp();
    const { sessionId } = await answers.ask({ prompt: 'sneaky', depth: 'fast' });
    await waitFor(() => statuses.includes('complete') && states().length === 3 && states().every((state) => state === 'refused'), 'all three refused');
    expect(hunks.get('1.0')?.message).toContain('NUL character');
    expect(hunks.get('1.1')?.message).toContain('whole section is refused with its move');
    await expect(hunksOf(sessionId).accept('1.1')).rejects.toThrow('only a complete, anchored hunk');
    expect(await read()).toBe(ORIGINAL);
    expect(await readFile(project.path('src/mixed.ts'), 'utf8')).toBe('const a = 1;\r\nconst b = 2;\nconst c = 3;\r\n');
  });

  it('redirects about the session’s own file, even after another file became current', async () => {
    await setUp(150);
    const { sessionId } = await answers.ask({ prompt: 'change both', depth: 'fast' });
    await waitFor(() => hunks.get('1.0')?.state === 'pending', 'the first hunk');
    workspace.requireProject().currentFile.select('src/mixed.ts');
    await answers.redirect(sessionId, 'change both, but smaller');
    await waitFor(() => hunks.has('2.0'), 'the new turn’s first hunk');
    const secondTurn = JSON.stringify(sim.requests.filter((request) => request.protocol === 'responses').at(-1)!.body);
    expect(secondTurn).toContain('File: src/app.ts');
    expect(secondTurn).not.toContain('src/mixed.ts');
  });

  it('redirects mid-stream: stops, keeps what was accepted, and tells the model in a new turn', async () => {
    await setUp(150);
    const { sessionId } = await answers.ask({ prompt: 'change both', depth: 'fast' });
    await waitFor(() => hunks.get('1.0')?.state === 'pending', 'the first hunk');
    expect(await hunksOf(sessionId).accept('1.0')).toBe('accepted');
    await answers.redirect(sessionId, 'only the first one, please; change both is too much');
    await waitFor(() => hunks.get('1.1')?.state === 'partial' || hunks.get('1.1')?.state === 'pending', 'the old turn to stop');
    await waitFor(() => hunks.has('2.0'), 'the new turn’s first hunk');
    const secondTurn = sim.requests.filter((request) => request.protocol === 'responses').at(-1)!;
    // The file (with the accepted change) is in the stable part; the decisions in the turn.
    const sent = JSON.stringify(secondTurn.body);
    expect(JSON.stringify(secondTurn.body.input)).toContain('hunk 1 in src/app.ts accepted');
    expect(sent).toContain('only the first one, please');
    expect(sent).toContain('return 10;');
    expect(hunks.get('1.0')?.state).toBe('accepted');
    expect(await read()).toContain('return 10;');
  });

  it('a stream that fails to open fails its turn, keeps the question, and does not block the next request', async () => {
    await setUp(20_000, {});
    for (const attempt of [1, 2]) {
      const { sessionId } = await answers.ask({ prompt: `change both, attempt ${attempt}`, depth: 'fast' });
      const turn = answers.conversation(sessionId).turn(1);
      expect(turn).toMatchObject({ status: 'failed', text: `change both, attempt ${attempt}`, failure: { code: 'no-key', needsSettings: true } });
      expect(turn.message).toContain('No API key');
    }
  });

  it('completes every hunk of an answer that ends without a final newline', async () => {
    await setUp();
    const { sessionId } = await answers.ask({ prompt: 'no final newline', depth: 'fast' });
    await waitFor(() => statuses.includes('complete') && states().length === 2 && states().every((state) => state === 'pending'), 'both hunks');
    // The whole conversation, as a reload reads it: what was batched goes out first, so a
    // late change of state (the stream's end taken for a cut) would be in both.
    const full = answers.full(sessionId);
    expect(full.hunks.map((hunk) => [hunk.state, hunk.message])).toEqual([
      ['pending', undefined],
      ['pending', undefined],
    ]);
    expect([...hunks.values()].map((hunk) => [hunk.state, hunk.message])).toEqual([
      ['pending', undefined],
      ['pending', undefined],
    ]);
  });

  it('applies hunks on adjacent lines one after the other, keeping each line’s ending', async () => {
    await setUp();
    const { sessionId } = await answers.ask({ prompt: 'adjacent', paths: ['src/mixed.ts'], depth: 'fast' });
    await waitFor(() => states().length === 2 && states().every((state) => state === 'pending'), 'both hunks');
    expect(await hunksOf(sessionId).accept('1.0')).toBe('accepted');
    expect(await hunksOf(sessionId).accept('1.1')).toBe('accepted');
    expect(await readFile(project.path('src/mixed.ts'), 'utf8')).toBe('const a = 10;\r\nconst b = 20;\nconst c = 3;\r\n');
  });

  it('refuses a second edit request while one streams', async () => {
    await setUp(100);
    await answers.ask({ prompt: 'change both', depth: 'fast' });
    await expect(answers.ask({ prompt: 'change both', depth: 'fast' })).rejects.toMatchObject({ code: 'already-streaming', message: expect.stringContaining('still streaming') });
  });

  it('lets only one of two questions sent at once stream (the second was checked before the first had a stream)', async () => {
    await setUp(100);
    const results = await Promise.allSettled([answers.ask({ prompt: 'change both', depth: 'fast' }), answers.ask({ prompt: 'change both', depth: 'fast' })]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'already-streaming' });
  });

  it('asks about the project when there is no current file: the outline goes, no file does', async () => {
    await setUp();
    workspace.requireProject().currentFile.clear();
    await answers.ask({ prompt: 'explain the layout', depth: 'fast' });
    await waitFor(() => statuses.includes('complete'), 'the answer');
    const sent = JSON.stringify(sim.requests.find((request) => JSON.stringify(request.body).includes('explain the layout'))!.body);
    expect(sent).toContain('Top-level folders:');
    expect(sent).not.toContain('File: src/app.ts');
  });

  it('refuses a question whose project closed while it was being prepared, and never sends it', async () => {
    await setUp();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const logger = createMemoryLogger();
    const gated = new AnswerService({ workspace, inference, logger, buildPrompt: async (request) => (await gate, prompts.build(request)) });
    const asking = gated.ask({ prompt: 'change both', depth: 'fast' });
    expect(gated.isStreaming).toBe(true);
    await workspace.close('closed', 'closed while the question was prepared');
    release();
    await expect(asking).rejects.toMatchObject({ code: 'no-project' });
    expect(gated.isStreaming).toBe(false);
    expect(sim.requests.filter((request) => JSON.stringify(request.body).includes('change both'))).toEqual([]);
    gated.dispose();
  });

  it('lets the answers go with the project: a decision afterwards finds none', async () => {
    await setUp(150);
    const { sessionId } = await answers.ask({ prompt: 'change both', depth: 'fast' });
    await workspace.close('closed', 'closed mid-answer');
    expect(answers.isStreaming).toBe(false);
    expect(() => answers.conversation(sessionId)).toThrow('That conversation is over');
  });
});
