/**
 * The ask bar's scope and prompt through a real core: real files in a temp dir, the
 * real watcher seeing saves, and the simulator receiving what would be sent.
 */
import { mkdir, mkdtemp, open, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AskScope } from '../../shared/ask-types';
import type { EventEnvelope } from '../../shared/contract';
import type { AnswerUpdate } from '../../shared/ask-types';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import { createTestCore, isIndexedTree } from '../../../test/helpers/test-core';
import { SimScriptSchema } from '../../../test/sim/sim-script';
import { startSimulator, type Simulator } from '../../../test/sim/simulator';
import type { FlintCore } from './flint-core';

const lines = (count: number, label = 'line') => Array.from({ length: count }, (_, index) => `const ${label}${index + 1} = ${index + 1};`);

describe('AskService in a real core', () => {
  let project: TempProject;
  let outside: string;
  let config: string;
  let sim: Simulator;
  let core: FlintCore;
  /** The open project's current file. */
  const currentFile = () => core.workspace.requireProject().currentFile.value;
  let events: EventEnvelope[];

  const start = async (env: Record<string, string> = {}) => {
    const created = await createTestCore({
      configDirectory: config,
      env: { FLINT_PROVIDER: 'openai-responses', FLINT_BASE_URL: sim.baseUrl, FLINT_MODEL: 'gpt-5.3-codex-spark', FLINT_API_KEY: 'sk-test', ...env },
    });
    core = created.core;
    events = [];
    core.onDidEmit((event) => events.push(event));
    await core.openProject(project.root);
    await waitFor(() => events.some(isIndexedTree), 'the whole index');
    // The tree comes before the watcher is live, and a save in between goes unseen: wait
    // until a probe folder's creation is reported (a folder never becomes the current file).
    await mkdir(project.path('assets/watch-probe'));
    await waitFor(() => events.some((event) => event.channel === 'project:changed' && JSON.stringify(event.payload).includes('watch-probe')), 'the watcher');
  };
  /** Writes a file as another editor would, and waits until Flint saw the save. */
  const save = async (path: string, text: string) => {
    const before = currentFile().at;
    await writeFile(project.path(path), text);
    await waitFor(() => currentFile().path === path && currentFile().at !== before, `the save of ${path}`);
  };
  /**
   * Saves as an editor writing in place does: truncates, then writes in 512 KB pieces,
   * pausing between them for longer than a read takes (a slow disk, a loaded machine).
   */
  const writeInPieces = async (path: string, text: string, pauseMs = 50) => {
    const bytes = Buffer.from(text);
    const handle = await open(project.path(path), 'w');
    try {
      for (let offset = 0; offset < bytes.length; offset += 512 * 1024) {
        if (offset > 0) await sleep(pauseMs);
        await handle.write(bytes, offset, Math.min(512 * 1024, bytes.length - offset), offset);
      }
    } finally {
      await handle.close();
    }
  };
  /** Starts a save in pieces and resolves at its first change event, while the editor is still writing (`written`: when it is done). */
  const startSaveInPieces = async (path: string, text: string): Promise<{ written: Promise<void> }> => {
    const before = currentFile().at;
    const written = writeInPieces(path, text);
    await waitFor(() => currentFile().path === path && currentFile().at !== before, `the first change event of ${path}`);
    return { written };
  };
  /** Every file heading sent to the model for `path` (each says how many lines the file had). */
  const sentHeadings = (path: string) =>
    sim.requests.flatMap((request) => JSON.stringify(request.body).match(new RegExp(`File: ${path.replace(/[./]/g, '\\$&')} \\([^)]*\\)`, 'g')) ?? []);
  const updates = (): AnswerUpdate[] => events.flatMap((event) => (event.channel === 'ask:update' ? [event.payload as AnswerUpdate] : []));
  const answered = () => waitFor(() => updates().some((update) => update.status === 'complete'), 'the answer');
  const scope = (focus: 'recent-change' | 'whole-file' = 'recent-change'): Promise<AskScope> => core.handlers.prepareAsk({ focus });
  /**
   * Waits until both sockets of the pool have pre-loaded a context holding `text` and the
   * simulator has answered each: whichever socket the question then takes, Flint has
   * recorded (or, still reading the answer, will record before it frees the socket) that
   * pre-load. As a user's typing would, but decided by the pre-loads, not by a pause.
   */
  const preloadedOnBothSockets = (text: string) =>
    waitFor(() => {
      const answered = sim.requests.filter((request) => request.body.generate === false && request.responseId !== undefined && JSON.stringify(request.body).includes(text));
      return sim.connectionCount() === 2 && new Set(answered.map((request) => request.connectionId)).size === 2;
    }, `the pre-load of ${JSON.stringify(text)} on both sockets`);

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': `${lines(40).join('\n')}\n`, 'README.md': '# demo\n', 'assets/logo.png': new Uint8Array([0x89, 0x50, 0, 0, 1, 2]) });
    outside = await mkdtemp(join(tmpdir(), 'flint-outside-'));
    config = await mkdtemp(join(tmpdir(), 'flint-ask-config-'));
    sim = await startSimulator({ ttftMs: 1, tokensPerSecond: 5000, script: SimScriptSchema.parse({ defaultAnswer: 'It returns **1**.\n' }) });
  });

  afterEach(async () => {
    await core?.shutdown();
    await sim.close();
    await project.remove();
    await rm(outside, { recursive: true, force: true });
    await rm(config, { recursive: true, force: true });
  });

  it('says to open a folder when no project is open', async () => {
    const created = await createTestCore({ configDirectory: config, env: { FLINT_PROVIDER: 'openai-responses', FLINT_BASE_URL: sim.baseUrl, FLINT_MODEL: 'gpt-5.3-codex-spark', FLINT_API_KEY: 'sk-test' } });
    core = created.core;
    expect((await scope()).blockers).toEqual([{ kind: 'no-project', message: expect.stringContaining('Open a folder') }]);
  });

  it('names both missing steps on a first start, the folder then the key', async () => {
    const created = await createTestCore({ configDirectory: config });
    core = created.core;
    expect((await scope()).blockers).toEqual([
      { kind: 'no-project', message: expect.stringContaining('No project is open') },
      { kind: 'no-key', message: expect.stringContaining('Settings') },
    ]);
  });

  it('asks about the project, without blocking, when there is no current file yet', async () => {
    await start();
    const result = await scope();
    expect(result).toMatchObject({ blockers: [], subject: 'project', path: null, subjectNote: expect.stringContaining('No current file') });
  });

  it('finds the lines the user just changed from two real saves', async () => {
    await start();
    const original = lines(40);
    await save('src/app.ts', `${original.join('\n')}\n`);
    const edited = [...original];
    edited[19] = 'const line20 = 2000; // edited';
    edited.splice(21, 0, 'const inserted = true;');
    await save('src/app.ts', `${edited.join('\n')}\n`);

    const result = await scope();

    expect(result.blockers).toEqual([]);
    expect(result.path).toBe('src/app.ts');
    expect(result.language).toBe('TypeScript');
    expect(result.recentChange).toMatchObject({ startLine: 20, endLine: 22, added: 2, removed: 1, places: 2 });
  });

  it('knows the previous version of a recently modified file from the moment the project opens', async () => {
    await start();
    // No save and no selection before this one: the version read at open is the baseline,
    // once it has been read (a save before that read would leave nothing to compare with).
    await core.workspace.requireProject().whenPrimed();
    const edited = lines(40);
    edited[4] = 'const line5 = 5000;';
    await save('src/app.ts', `${edited.join('\n')}\n`);
    expect((await scope()).recentChange).toMatchObject({ startLine: 5, endLine: 5 });
  });

  it('sends the change and the file, in cache-friendly order, focused on the change', async () => {
    await start();
    await save('src/app.ts', `${lines(40).join('\n')}\n`);
    const edited = lines(40);
    edited[9] = 'const line10 = 10 * 10;';
    await save('src/app.ts', `${edited.join('\n')}\n`);

    await core.handlers.askModel({ prompt: 'What does line 10 do?', depth: 'fast' });
    await answered();

    const asked = sim.requests.filter((request) => request.body.generate !== false).at(-1)!;
    const sent = JSON.stringify(asked.body);
    expect(sent).toContain('const line10 = 10 * 10;');
    expect(sent).toContain('-const line10 = 10;');
    expect(sent).toContain('Focus on those lines (line 10)');
    const prose = updates().flatMap((update) => update.prose ?? []).map((piece) => piece.text).join('');
    expect(prose).toContain('It returns **1**.');
  });

  it('pre-loads the current file when the bar opens, so the question goes alone', async () => {
    await start();
    await save('src/app.ts', `${lines(40).join('\n')}\n`);
    await scope();
    await preloadedOnBothSockets('const line40 = 40;');
    await core.handlers.askModel({ prompt: 'Explain this file', depth: 'fast' });
    await answered();
    const asked = sim.requests.filter((request) => request.body.generate !== false).at(-1)!;
    expect(asked.body.previous_response_id).toMatch(/^resp_/);
    expect(JSON.stringify(asked.body.input)).toContain('Explain this file');
    expect(JSON.stringify(asked.body.input)).not.toContain('const line40 = 40;');
  });

  it('pre-loads exactly what a truncated file sends, so even a large file’s question goes alone', async () => {
    const big = lines(20_000, 'entry');
    await project.write({ 'src/big.ts': `${big.join('\n')}\n` });
    await start({ FLINT_CONTEXT_WINDOW: '16000' });
    await save('src/big.ts', `${big.join('\n')}\n`);
    await scope();
    big[12_000] = 'const entry12001 = 0; // changed';
    await save('src/big.ts', `${big.join('\n')}\n`);
    expect((await scope()).window).toMatchObject({ truncated: true });
    const preload = await waitFor(
      () => sim.requests.find((request) => request.body.generate === false && JSON.stringify(request.body).includes('const entry12001 = 0; // changed')),
      'the pre-load of the changed window',
    );
    expect(JSON.stringify(preload.body)).toContain('const entry11900 ');
    await preloadedOnBothSockets('const entry12001 = 0; // changed');
    await core.handlers.askModel({ prompt: 'Why was this changed to zero?', depth: 'fast' });
    await answered();
    const asked = sim.requests.filter((request) => request.body.generate !== false).at(-1)!;
    expect(asked.body.previous_response_id).toMatch(/^resp_/);
    // The window (far beyond the diff's context lines) was pre-loaded, not sent again.
    expect(JSON.stringify(asked.body.input)).not.toContain('const entry11900 ');
  });

  it('widens to the whole file on request: no change is sent', async () => {
    await start();
    await save('src/app.ts', `${lines(40).join('\n')}\n`);
    const edited = lines(40);
    edited[0] = 'const first = 0;';
    await save('src/app.ts', `${edited.join('\n')}\n`);
    await core.handlers.askModel({ prompt: 'Summarize', focus: 'whole-file', depth: 'fast' });
    await answered();
    const asked = sim.requests.filter((request) => request.body.generate !== false).at(-1)!;
    expect(JSON.stringify(asked.body)).not.toContain('Focus on those lines');
  });

  it('says a current file was deleted after its save, asks about the project instead, and never sends it', async () => {
    await start();
    await save('src/app.ts', 'const a = 1;\n');
    await unlink(project.path('src/app.ts'));
    const result = await scope();
    expect(result).toMatchObject({ blockers: [], subject: 'project', subjectNote: expect.stringContaining('no longer exists') });
    await core.handlers.askModel({ prompt: 'Why?', depth: 'fast' });
    await answered();
    expect(sentHeadings('src/app.ts')).toEqual([]);
  });

  it('says a binary current file cannot be sent and asks about the project instead', async () => {
    await start();
    await save('assets/logo.png', '\u0089PNG\u0000\u0000binary');
    expect(await scope()).toMatchObject({ blockers: [], subject: 'project', subjectNote: expect.stringContaining('binary') });
  });

  it('never sends a file that leads outside the project through a symlink', async () => {
    await writeFile(join(outside, 'secret.ts'), 'export const SECRET = "do-not-send";\n');
    await symlink(join(outside, 'secret.ts'), project.path('src/linked.ts'));
    await start();
    await core.handlers.selectFile({ path: 'src/linked.ts' }).catch(() => undefined);
    core.workspace.requireProject().currentFile.select('src/linked.ts');
    const result = await scope();
    expect(result).toMatchObject({ blockers: [], subject: 'project', subjectNote: expect.stringContaining('outside the project') });
    // Sent as a question about the project (the bar said so): the file stays out.
    await core.handlers.askModel({ prompt: 'Explain', depth: 'fast' });
    await answered();
    await expect(core.handlers.askModel({ prompt: 'Explain', paths: ['src/linked.ts'], depth: 'fast' })).rejects.toThrow(/outside the project/);
    expect(sim.requests.some((request) => JSON.stringify(request.body).includes('do-not-send'))).toBe(false);
  });

  it('sends a 10 MB file as a window around the change, inside the model window', async () => {
    const big = lines(300_000, 'value');
    await project.write({ 'src/big.ts': `${big.join('\n')}\n` });
    await start({ FLINT_CONTEXT_WINDOW: '32000' });
    // The first save, in pieces: this step waits for the whole write and for Flint to see it.
    const first = await startSaveInPieces('src/big.ts', `${big.join('\n')}\n`);
    await first.written;
    // Seconds pass between two saves of a real editor; this one is read before the next.
    await scope();
    big[150_000] = 'const value150001 = -1; // changed';
    // The hotkey, pressed at the first change event of the next save, while the editor is still writing.
    const second = await startSaveInPieces('src/big.ts', `${big.join('\n')}\n`);
    const result = await scope();
    await second.written;

    expect(result.blockers).toEqual([]);
    expect(result.lineCount).toBe(300_000);
    expect(result.recentChange).toMatchObject({ startLine: 150_001, endLine: 150_001, added: 1, removed: 1 });
    expect(result.window).toMatchObject({ truncated: true });
    expect(result.window!.startLine).toBeLessThanOrEqual(150_001);
    expect(result.window!.endLine).toBeGreaterThanOrEqual(150_001);
    expect(result.tokens).toBeLessThanOrEqual(32_000);
    expect(result.tokenCounting).toBe('o200k_base tokenizer');
    // Nothing read mid-write was pre-loaded.
    const headings = sentHeadings('src/big.ts');
    expect(headings.length).toBeGreaterThan(0);
    for (const heading of headings) expect(heading).toContain('300,000 lines');
  });

  it('asks about a file still being written only once its writer has finished', async () => {
    const original = lines(40_000);
    await project.write({ 'src/long.ts': `${original.join('\n')}\n` });
    await start();
    await save('src/long.ts', `${original.join('\n')}\n`);
    await scope();
    const edited = [...original];
    edited[29_999] = 'const line30000 = 0; // edited';
    // Enter, pressed at the first change event of a save still being written.
    const saving = await startSaveInPieces('src/long.ts', `${edited.join('\n')}\n`);
    await core.handlers.askModel({ prompt: 'Why zero?', depth: 'fast' });
    await saving.written;
    await answered();

    const asked = sim.requests.filter((request) => request.body.generate !== false).at(-1)!;
    expect(JSON.stringify(asked.body)).toContain('Focus on those lines (line 30000)');
    for (const heading of sentHeadings('src/long.ts')) expect(heading).toContain('40,000 lines');
  });

  it('guides to Settings when the provider has no key', async () => {
    await start({ FLINT_API_KEY: '' });
    await save('src/app.ts', 'const a = 1;\n');
    expect((await scope()).blockers).toEqual([{ kind: 'no-key', message: expect.stringContaining('Settings') }]);
  });

  it('refuses a question too long for the model window, in words', async () => {
    await start({ FLINT_CONTEXT_WINDOW: '8000' });
    await save('src/app.ts', 'const a = 1;\n');
    await expect(core.handlers.askModel({ prompt: 'why '.repeat(20_000), depth: 'fast' })).rejects.toThrow(/Shorten it/);
  });
});
