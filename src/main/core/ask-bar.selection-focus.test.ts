/**
 * The selection the shortcut found, kept to its file and kept by the conversation: through
 * a real core and the simulator (the desktop readers given as a shell gives them; the real
 * ones are tested on an X desktop in ask-bar.desktop.test.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnswerUpdate } from '../../shared/ask-types';
import type { EventEnvelope } from '../../shared/contract';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createTestCore } from '../../../test/helpers/test-core';
import { SimScriptSchema } from '../../../test/sim/sim-script';
import { startSimulator, type Simulator } from '../../../test/sim/simulator';
import type { FocusedWindow } from '../desktop/focused-window';
import type { FlintCore } from './flint-core';

const APP = ["import { z } from 'zod';", ...Array.from({ length: 30 }, (_, index) => `export const value${index + 1} = ${index + 1};`)];
const OTHER = ['export const other = 1;', "import { z } from 'zod';", 'export const schema = z.string();'];

describe('the selection as the question’s focus', () => {
  let project: TempProject;
  let config: string;
  let sim: Simulator;
  let core: FlintCore;
  let events: EventEnvelope[];
  let selection = '';

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': `${APP.join('\n')}\n`, 'src/other.ts': `${OTHER.join('\n')}\n` });
    config = await mkdtemp(`${tmpdir()}/flint-selection-focus-`);
    // Only "spark" is served: the configured model is refused first (the ModelOffer path).
    sim = await startSimulator({ ttftMs: 1, tokensPerSecond: 5000, models: ['spark'], script: SimScriptSchema.parse({ defaultAnswer: 'Noted.\n' }) });
    const window: FocusedWindow = { kind: 'window', title: 'app.ts - project - Visual Studio Code', ownerName: 'Code', processId: 4242 };
    ({ core } = await createTestCore({
      configDirectory: config,
      env: { FLINT_PROVIDER: 'openai-responses', FLINT_BASE_URL: sim.baseUrl, FLINT_MODEL: 'gpt-5.3-codex-spark', FLINT_API_KEY: 'sk-test' },
      desktop: { focusedWindow: async () => window, selection: async () => ({ kind: 'text', text: selection }) },
    }));
    events = [];
    core.onDidEmit((event) => events.push(event));
    await core.openProject(project.root);
    await waitFor(() => core.workspace.project?.entries !== null, 'the index');
  });

  afterEach(async () => {
    await core?.shutdown();
    await sim.close();
    await project.remove();
    await rm(config, { recursive: true, force: true });
  });

  const ended = () => events.filter((event) => event.channel === 'ask:update' && ['complete', 'failed'].includes(String((event.payload as AnswerUpdate).status))).length;

  it('keeps "the user selected lines" when the refused turn is retried with another model', async () => {
    selection = `${APP[12]}\n${APP[13]}`;
    core.openAskBar('hotkey');
    const scope = await core.handlers.prepareAsk({ focus: 'recent-change' });
    expect(scope.selection).toEqual({ startLine: 13, endLine: 14 });
    const { sessionId } = await core.handlers.askModel({ prompt: 'what are these?', focus: 'selection', selection: scope.selection!, paths: ['src/app.ts'], depth: 'fast' });
    await waitFor(() => ended() >= 1, 'the refusal');
    await core.handlers.setProviderModel({ providerId: 'environment', slot: 'fast', model: 'spark' });
    await core.handlers.retryTurn({ sessionId, turn: 1, depth: 'fast' });
    await waitFor(() => ended() >= 2, 'the retried answer');
    const first = JSON.stringify(sim.requests.find((request) => request.body.model === 'gpt-5.3-codex-spark' && JSON.stringify(request.body).includes('what are these?'))?.body);
    expect(first).toContain('The user selected lines 13–14 of src/app.ts'); // the refused original had it
    const retried = JSON.stringify(sim.requests.findLast((request) => request.body.model === 'spark' && JSON.stringify(request.body).includes('what are these?'))?.body);
    expect(retried).toContain('The user selected lines 13–14 of src/app.ts');
  });

  it('does not apply the selection made in the focused editor’s file to the other file after Alt+S', async () => {
    await core.handlers.selectFile({ path: 'src/other.ts' });
    selection = "import { z } from 'zod';"; // selected in app.ts, line 1
    core.openAskBar('hotkey');
    expect(await core.handlers.prepareAsk({ focus: 'recent-change' })).toMatchObject({ path: 'src/app.ts', selection: { startLine: 1, endLine: 1 } });
    await core.handlers.switchCurrentFile({});
    const switched = await core.handlers.prepareAsk({ focus: 'recent-change' });
    expect(switched.path).toBe('src/other.ts');
    expect(switched.selection).toBeNull();
  });
});
