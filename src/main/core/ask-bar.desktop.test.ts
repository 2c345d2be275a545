/**
 * The shortcut on a real X desktop, through a real core: Xvfb and openbox, an editor window
 * (an xterm titled as VS Code titles its own), a browser window (Chromium), the PRIMARY
 * selection, the project's real files and watcher, and the simulator receiving what would be sent.
 * Nothing of the desktop is faked: the core reads it on its own X connection, as the app does.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AnswerUpdate, AskScope } from '../../shared/ask-types';
import type { EventEnvelope } from '../../shared/contract';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createTestCore, isIndexedTree } from '../../../test/helpers/test-core';
import { useXDesktop } from '../../../test/helpers/x-desktop-hooks';
import { SimScriptSchema } from '../../../test/sim/sim-script';
import { startSimulator, type Simulator } from '../../../test/sim/simulator';
import { systemDesktopReaders } from '../desktop/desktop-readers';
import { createMemoryLogger } from '../logger';
import type { FlintCore } from './flint-core';

const APP = Array.from({ length: 30 }, (_, index) => `export const value${index + 1} = ${index + 1};`);

describe('the shortcut on a real X desktop', () => {
  const xDesktop = useXDesktop();
  let project: TempProject;
  let config: string;
  let sim: Simulator;
  let core: FlintCore;
  let events: EventEnvelope[];
  /** Which windows are Flint's own: none, unless a test says the editor's process is Flint's. */
  let isOwnProcess: (processId: number) => boolean;
  /** What the desktop readers logged (whether they follow the desktop on their X connection). */
  let desktopLog: ReturnType<typeof createMemoryLogger>;
  const scope = (focus: 'recent-change' | 'selection' | 'whole-file' = 'recent-change'): Promise<AskScope> => core.handlers.prepareAsk({ focus });
  /** The shortcut: Flint reads the desktop, and the bar (here, its scope) follows. */
  const pressShortcut = async (): Promise<AskScope> => {
    core.openAskBar('hotkey');
    return scope();
  };
  const title = (file: string) => `● ${file} — ${basename(project.root)} — Visual Studio Code`;

  beforeEach(async () => {
    project = await createTempProject({
      'src/app.ts': `${APP.join('\n')}\n`,
      'src/other.ts': 'export const other = 1;\n',
      'src/index.ts': 'export * from "./app";\n',
      'lib/index.ts': 'export {};\n',
      'test/index.ts': 'export {};\n',
    });
    config = await mkdtemp(`${tmpdir()}/flint-desktop-config-`);
    isOwnProcess = () => false;
    desktopLog = createMemoryLogger();
    sim = await startSimulator({ ttftMs: 1, tokensPerSecond: 5000, script: SimScriptSchema.parse({ defaultAnswer: 'Noted.\n' }) });
    const created = await createTestCore({
      configDirectory: config,
      env: { FLINT_PROVIDER: 'openai-responses', FLINT_BASE_URL: sim.baseUrl, FLINT_MODEL: 'gpt-5.3-codex-spark', FLINT_API_KEY: 'sk-test' },
      desktop: { ...systemDesktopReaders('linux', process.env, desktopLog), isOwnProcess: (processId) => isOwnProcess(processId) },
    });
    core = created.core;
    events = [];
    core.onDidEmit((event) => events.push(event));
    await core.openProject(project.root);
    await waitFor(() => events.some(isIndexedTree), 'the whole index');
    await mkdir(project.path('watch-probe'));
    await waitFor(() => events.some((event) => event.channel === 'project:changed' && JSON.stringify(event.payload).includes('watch-probe')), 'the watcher');
    // The user's last save was of another file (a formatter, a git checkout).
    await writeFile(project.path('src/other.ts'), 'export const other = 2;\n');
    await waitFor(() => core.workspace.requireProject().currentFile.value.path === 'src/other.ts', 'the save of src/other.ts');
    await xDesktop().select(null);
  });

  afterEach(async () => {
    await core?.shutdown();
    await sim.close();
    await project.remove();
    await rm(config, { recursive: true, force: true });
  });

  it('asks about the file in the focused VS Code window, not the one saved last, and switches to that one with one call', async () => {
    await xDesktop().showEditor(title('app.ts'));
    const result = await pressShortcut();
    expect(result).toMatchObject({ path: 'src/app.ts', source: 'focused', editor: 'VS Code', other: { path: 'src/other.ts', source: 'saved' }, windowNote: null, blockers: [] });
    await core.handlers.switchCurrentFile({});
    expect(await scope()).toMatchObject({ path: 'src/other.ts', source: 'saved', other: { path: 'src/app.ts', source: 'focused', editor: 'VS Code' } });
  });

  it('names the file of the editor the focus just moved to, at the first press after each move', async () => {
    // Two terminals (vim in each, say): the focus moves between them, the titles stay.
    await xDesktop().showEditor('app.ts (~/project/src) - VIM', 'first');
    await xDesktop().showEditor(`${project.root}/src/index.ts - NVIM`, 'second');
    for (const [window, path] of [['first', 'src/app.ts'], ['second', 'src/index.ts'], ['first', 'src/app.ts'], ['second', 'src/index.ts']] as const) {
      await xDesktop().showEditor(window === 'first' ? 'app.ts (~/project/src) - VIM' : `${project.root}/src/index.ts - NVIM`, window);
      expect(await pressShortcut()).toMatchObject({ path, source: 'focused', windowNote: null });
    }
    // Read from the X connection's memory, not with xprop.
    expect(desktopLog.lines).toEqual([`info: focused window: following it on ${xDesktop().display} through one X connection`]);
    // The second terminal goes on showing a file; the next test starts in the first.
    await xDesktop().showEditor('app.ts (~/project/src) - VIM', 'first');
  });

  it('refuses to guess a name found in three folders, lists them, and takes the one last saved once there is one', async () => {
    await xDesktop().showEditor(title('index.ts'));
    const refused = await pressShortcut();
    expect(refused).toMatchObject({ path: 'src/other.ts', source: 'saved' });
    expect(refused.windowNote).toEqual({ message: 'The focused VS Code window shows index.ts, and 3 files of the project have that name: pick one.', candidates: ['lib/index.ts', 'src/index.ts', 'test/index.ts'] });
    await writeFile(project.path('lib/index.ts'), 'export const lib = 1;\n');
    await waitFor(() => core.workspace.requireProject().currentFile.value.path === 'lib/index.ts', 'the save of lib/index.ts');
    expect(await pressShortcut()).toMatchObject({ path: 'lib/index.ts', source: 'focused', windowNote: null });
  });

  it('says when the focused window names no project file, or one outside it, and keeps the last saved file', async () => {
    await xDesktop().showEditor('Pull requests · flint');
    expect(await pressShortcut()).toMatchObject({ path: 'src/other.ts', source: 'saved', windowNote: { message: 'The focused window (“Pull requests · flint”) names no file of the project.', candidates: [] } });
    await xDesktop().showEditor('/etc/hosts - NVIM');
    expect((await pressShortcut()).windowNote?.message).toBe('The focused Neovim window shows /etc/hosts, which is outside the project.');
  });

  it('never takes a file from a browser window, even one whose page copies an editor’s title, and says the current file stays', async () => {
    const stays = { message: 'Chromium is not an editor: the current file stays src/other.ts.', candidates: [] };
    await xDesktop().showBrowser('app.ts - Chromium');
    expect(await pressShortcut()).toMatchObject({ path: 'src/other.ts', source: 'saved', other: null, windowNote: stays });
    await xDesktop().showBrowser(title('app.ts'));
    expect(await pressShortcut()).toMatchObject({ path: 'src/other.ts', source: 'saved', other: null, windowNote: stays });
    // The editor's window, with the same title, is read.
    await xDesktop().showEditor(title('app.ts'));
    expect(await pressShortcut()).toMatchObject({ path: 'src/app.ts', source: 'focused', editor: 'VS Code', windowNote: null });
  });

  it('keeps the current file when the focused window is Flint’s own (the shortcut pressed inside Flint)', async () => {
    await xDesktop().showEditor(title('app.ts'));
    isOwnProcess = () => true;
    expect(await pressShortcut()).toMatchObject({ path: 'src/other.ts', source: 'saved', windowNote: null, other: null });
  });

  it('makes the lines the user selected the focus of the question, and sends them as such', async () => {
    await xDesktop().showEditor(title('app.ts'));
    await xDesktop().select(`${APP[11]}\n${APP[12]}\n${APP[13]}`);
    const result = await pressShortcut();
    expect(result).toMatchObject({ path: 'src/app.ts', selection: { startLine: 12, endLine: 14 }, selectionNote: null });
    await core.handlers.askModel({ prompt: 'what are these?', focus: 'selection', selection: result.selection!, paths: ['src/app.ts'], depth: 'fast' });
    await waitFor(() => events.some((event) => event.channel === 'ask:update' && (event.payload as AnswerUpdate).status === 'complete'), 'the answer');
    expect(JSON.stringify(sim.requests.at(-1)?.body)).toContain('The user selected lines 12–14 of src/app.ts in their editor.');
  });

  it('ignores a selection that is not in the file, and says a 10 MB one is too large', async () => {
    await xDesktop().showEditor(title('app.ts'));
    await xDesktop().select('some text from a web page');
    expect(await pressShortcut()).toMatchObject({ path: 'src/app.ts', selection: null, selectionNote: null });
    await xDesktop().select('x'.repeat(10 * 1024 * 1024));
    expect((await pressShortcut()).selectionNote).toMatch(/^Your selection \(\d+\.\d MB or more\) is too large to focus on/);
  });
});
