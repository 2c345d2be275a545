/**
 * macOS and Windows have no desktop-wide selection: the clipboard stands in for it, and
 * only once the user opts in (Settings). A real core and project; the platform's readers
 * (the focused window, Electron's clipboard) are given as the Electron shell gives them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createTestCore } from '../../../test/helpers/test-core';
import type { FocusedWindow } from '../desktop/focused-window';
import type { FlintCore } from './flint-core';

const APP = Array.from({ length: 20 }, (_, index) => `export const value${index + 1} = ${index + 1};`);

describe('the clipboard as the selection (macOS, Windows)', () => {
  let project: TempProject;
  let config: string;
  let core: FlintCore;
  let clipboardReads = 0;

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': `${APP.join('\n')}\n` });
    config = await mkdtemp(`${tmpdir()}/flint-clipboard-config-`);
    clipboardReads = 0;
    const window: FocusedWindow = { kind: 'window', title: 'app.ts — project — Visual Studio Code', ownerName: 'Code', processId: 4242 };
    const created = await createTestCore({
      configDirectory: config,
      env: { FLINT_PROVIDER: 'openai-responses', FLINT_BASE_URL: 'http://127.0.0.1:9/v1', FLINT_MODEL: 'gpt-5.3-codex-spark', FLINT_API_KEY: 'sk-test' },
      desktop: {
        focusedWindow: async () => window,
        clipboard: async () => {
          clipboardReads += 1;
          return `${APP[4]}\n${APP[5]}`;
        },
      },
    });
    core = created.core;
    await core.openProject(project.root);
    await waitFor(() => core.workspace.project?.entries !== null, 'the index');
  });

  afterEach(async () => {
    await core?.shutdown();
    await project.remove();
    await rm(config, { recursive: true, force: true });
  });

  it('is not read until the user opts in, and then its lines become the focus', async () => {
    core.openAskBar('hotkey');
    expect(await core.handlers.prepareAsk({ focus: 'recent-change' })).toMatchObject({ path: 'src/app.ts', source: 'focused', selection: null });
    expect(clipboardReads).toBe(0);

    expect(await core.handlers.updateSettings({ clipboardSelection: true })).toMatchObject({ clipboardSelection: true });
    core.openAskBar('hotkey');
    expect(await core.handlers.prepareAsk({ focus: 'recent-change' })).toMatchObject({ path: 'src/app.ts', selection: { startLine: 5, endLine: 6 } });
    expect(clipboardReads).toBe(1);
  });
});
