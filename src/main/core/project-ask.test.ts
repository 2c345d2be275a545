/**
 * "Ask about the project" and `@path` mentions through a real core: real files in a temp
 * dir, the real watcher, and the simulator recording what would be sent.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnswerUpdate, AskScope } from '../../shared/ask-types';
import type { EventEnvelope } from '../../shared/contract';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createTestCore, isIndexedTree } from '../../../test/helpers/test-core';
import { SimScriptSchema } from '../../../test/sim/sim-script';
import { startSimulator, type Simulator } from '../../../test/sim/simulator';
import type { FlintCore } from './flint-core';

const PATCH_B = `Renaming it.
*** Begin Patch
*** Update File: src/b.ts
@@
-export const b = 2;
+export const bee = 2;
*** End Patch
`;

describe('questions about the project, with @path mentions, in a real core', () => {
  let project: TempProject;
  let config: string;
  let sim: Simulator;
  let core: FlintCore;
  let events: EventEnvelope[];

  const start = async (env: Record<string, string> = { FLINT_API_KEY: 'sk-test' }) => {
    ({ core } = await createTestCore({
      configDirectory: config,
      env: { FLINT_PROVIDER: 'openai-responses', FLINT_BASE_URL: sim.baseUrl, FLINT_MODEL: 'gpt-5.3-codex-spark', ...env },
    }));
    events = [];
    core.onDidEmit((event) => events.push(event));
    await core.openProject(project.root);
    await waitFor(() => events.some(isIndexedTree), 'the whole index');
  };
  const scope = (request: { subject?: 'file' | 'project'; mentions?: string[] } = {}): Promise<AskScope> => core.handlers.prepareAsk({ focus: 'recent-change', ...request });
  const updates = (): AnswerUpdate[] => events.flatMap((event) => (event.channel === 'ask:update' ? [event.payload as AnswerUpdate] : []));
  const completed = () => updates().filter((update) => update.status === 'complete').length;
  /** The request that carried `words` (the question, not a pre-load), as JSON. */
  const sentWith = (words: string) => JSON.stringify(sim.requests.findLast((request) => request.body.generate !== false && JSON.stringify(request.body).includes(words))?.body ?? null);

  beforeEach(async () => {
    project = await createTempProject({
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 2;\n',
      'src/lib/util.ts': 'export {};\n',
      'assets/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]),
    });
    config = await mkdtemp(join(tmpdir(), 'flint-project-ask-'));
    sim = await startSimulator({
      ttftMs: 1,
      tokensPerSecond: 5000,
      script: SimScriptSchema.parse({ rules: [{ match: { inputIncludes: 'rename b' }, answer: { text: PATCH_B } }], defaultAnswer: 'It is a **demo**.\n' }),
    });
  });

  afterEach(async () => {
    await core?.shutdown();
    await sim.close();
    await project.remove();
    await rm(config, { recursive: true, force: true });
  });

  it('still blocks a question about the project when no key is set', async () => {
    await start({});
    expect(await scope()).toMatchObject({ subject: 'project', blockers: [{ kind: 'no-key' }] });
  });

  it('describes each mention of a draft: sent, a folder, binary, outside — none blocking', async () => {
    await start();
    const result = await scope({ mentions: ['@src/a.ts', '@src/lib', '@assets/logo.png', '@../x.ts', '@Component'] });
    expect(result.blockers).toEqual([]);
    expect(result.mentions.map((status) => [status.mention, status.state])).toEqual([
      ['@src/a.ts', 'sent'],
      ['@src/lib', 'refused'],
      ['@assets/logo.png', 'refused'],
      ['@../x.ts', 'refused'],
    ]);
    expect(result.mentions[1]!.message).toBe('src/lib is a folder — name a file in it (@src/lib/…).');
    // The pre-load carries the named file, so the question goes alone.
    await waitFor(() => sim.requests.some((request) => request.body.generate === false && JSON.stringify(request.body).includes('export const a = 1;')), 'the pre-load of the named file');
  });

  it('sends the outline and every named file (not the current file) for a question about the project', async () => {
    await start();
    core.workspace.requireProject().currentFile.select('src/lib/util.ts');
    await core.handlers.askModel({ prompt: 'how do @src/a.ts and @src/b.ts relate?', subject: 'project', depth: 'fast' });
    await waitFor(() => completed() > 0, 'the answer');
    const sent = sentWith('how do @src/a.ts');
    expect(sent).toContain('Top-level folders:');
    expect(sent).toContain('File: src/a.ts');
    expect(sent).toContain('export const a = 1;');
    expect(sent).toContain('File: src/b.ts');
    expect(sent).toContain('export const b = 2;');
    expect(sent).not.toContain('File: src/lib/util.ts');
    expect(sent).toContain('may be edited');
  });

  it('lets the model edit a named file, and the accepted hunk lands on disk', async () => {
    await start();
    const { sessionId } = await core.handlers.askModel({ prompt: 'rename b in @src/b.ts', subject: 'project', depth: 'fast' });
    await waitFor(() => updates().some((update) => update.hunks.some((hunk) => hunk.path === 'src/b.ts' && hunk.state === 'pending')), 'the hunk on src/b.ts');
    await core.handlers.acceptHunk({ sessionId, hunkId: '1.0' });
    expect(await readFile(project.path('src/b.ts'), 'utf8')).toBe('export const bee = 2;\n');
  });

  it('keeps a named file in a follow-up, and adds one the follow-up names', async () => {
    await start();
    const { sessionId } = await core.handlers.askModel({ prompt: 'what is @src/a.ts?', subject: 'project', depth: 'fast' });
    await waitFor(() => completed() > 0, 'the first answer');
    await writeFile(project.path('src/a.ts'), 'export const a = 100;\n');
    await core.handlers.askModel({ prompt: 'and next to @src/b.ts?', conversationId: sessionId, depth: 'fast' });
    await waitFor(() => completed() > 1, 'the second answer');
    const sent = sentWith('and next to @src/b.ts');
    expect(sent).toContain('export const a = 100;');
    expect(sent).toContain('export const b = 2;');
  });

  it('cuts the named files that do not fit and says which, keeping the rest', async () => {
    const big = Array.from({ length: 3_000 }, (_, index) => `export const value${index} = compute(${index}, "item-${index}");`).join('\n');
    await project.write({ 'src/big1.ts': big, 'src/big2.ts': big, 'src/big3.ts': big });
    await start({ FLINT_API_KEY: 'sk-test', FLINT_CONTEXT_WINDOW: '16000' });
    const result = await scope({ subject: 'project', mentions: ['@src/a.ts', '@src/big1.ts', '@src/big2.ts', '@src/big3.ts'] });
    expect(result.mentions[0]).toMatchObject({ path: 'src/a.ts', state: 'sent' });
    for (const status of result.mentions.slice(1)) expect(status).toMatchObject({ state: 'partial', message: expect.stringMatching(/^Only lines 1–\d+ of 3,000 fit/) });
    expect(result.tokens).toBeLessThanOrEqual(16_000);
  });
});
