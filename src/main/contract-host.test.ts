import { describe, expect, it } from 'vitest';
import { requests } from '../shared/contract';
import type { FileContent } from '../shared/project-types';
import { FlintFailure } from '../shared/result';
import { createContractHost, type RequestHandlers } from './contract-host';
import { createMemoryLogger } from './logger';

const notUsed = async (): Promise<never> => {
  throw new Error('this handler is not used by the test');
};

/** A full handler table whose readFile is `readFile`; every call's input is recorded. */
function setup(readFile: (input: { path: string }) => Promise<FileContent>) {
  const calls: unknown[] = [];
  const handlers: RequestHandlers = {
    getAppInfo: async () => ({ shell: 'serve', canChooseFolder: false, version: '0.0.0-test', askCommand: 'kill -USR1 1' }),
    getAppState: notUsed,
    openProject: notUsed,
    chooseProjectFolder: notUsed,
    closeProject: notUsed,
    openProjectAnyway: notUsed,
    listDirectory: notUsed,
    findFiles: notUsed,
    suggestFiles: notUsed,
    readFile: async (input) => {
      calls.push(input);
      return readFile(input);
    },
    selectFile: notUsed,
    switchCurrentFile: notUsed,
    prepareAsk: notUsed,
    removeRecent: notUsed,
    updateSettings: async (input) => {
      calls.push(input);
      return { showIgnored: input.showIgnored ?? false, shortcut: input.shortcut ?? 'CommandOrControl+Shift+Space', clipboardSelection: input.clipboardSelection ?? false, exclude: input.exclude ?? [] };
    },
    getProviders: notUsed,
    setActiveProvider: notUsed,
    testConnection: notUsed,
    setApiKey: notUsed,
    deleteApiKey: notUsed,
    allowProviderKey: notUsed,
    saveProvider: notUsed,
    removeProvider: notUsed,
    setProviderModel: notUsed,
    listModels: notUsed,
    askModel: notUsed,
    acceptHunk: notUsed,
    revertHunk: notUsed,
    rejectHunk: notUsed,
    restoreHunk: notUsed,
    acceptAllHunks: notUsed,
    rejectAllHunks: notUsed,
    stopAnswer: notUsed,
    acknowledgeAnswer: notUsed,
    redirectAnswer: notUsed,
    queueAnswer: notUsed,
    retryTurn: notUsed,
    cancelRetry: notUsed,
    listConversations: notUsed,
    getConversation: notUsed,
    undoDecision: notUsed,
    redoDecision: notUsed,
  };
  const logger = createMemoryLogger();
  return { host: createContractHost(handlers, logger), calls, logger };
}

const textFile = async (input: { path: string }): Promise<FileContent> => ({
  kind: 'text',
  path: input.path,
  size: 2,
  text: 'hi',
  encoding: 'utf-8',
});

describe('createContractHost', () => {
  it('calls the handler with the checked input and wraps its value', async () => {
    const { host, calls } = setup(textFile);

    const result = await host.invoke(requests.readFile.channel, { path: 'src/app.ts' });

    expect(result).toEqual({ ok: true, value: { kind: 'text', path: 'src/app.ts', size: 2, text: 'hi', encoding: 'utf-8' } });
    expect(calls).toEqual([{ path: 'src/app.ts' }]);
  });

  it('accepts an empty object for a request without arguments', async () => {
    const { host } = setup(textFile);
    expect(await host.invoke(requests.getAppInfo.channel, {})).toEqual({
      ok: true,
      value: { shell: 'serve', canChooseFolder: false, version: '0.0.0-test', askCommand: 'kill -USR1 1' },
    });
  });

  it("answers 'unknown-channel' for a channel no request uses", async () => {
    const { host, calls } = setup(textFile);

    const result = await host.invoke('fs:deleteEverything', { path: 'x' });

    expect(result).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    expect(calls).toEqual([]);
  });

  it("answers 'unknown-channel' for a request's name (not its channel) and for prototype keys", async () => {
    const { host } = setup(textFile);
    for (const channel of ['readFile', '__proto__', 'constructor', 'toString', '']) {
      expect(await host.invoke(channel, {})).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    }
  });

  it('keeps the unknown-channel message short for a huge channel name', async () => {
    const { host } = setup(textFile);
    const result = await host.invoke('x'.repeat(10_000), {});
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message.length).toBeLessThan(200);
  });

  describe('invalid input', () => {
    const cases: [string, unknown][] = [
      ['a missing path', {}],
      ['an extra key', { path: 'a.ts', extra: true }],
      ['a path of the wrong type', { path: 42 }],
      ['an empty path', { path: '' }],
      ['a 5,000-character path', { path: 'a'.repeat(5000) }],
      ['null instead of an object', null],
      ['a bare string', 'src/app.ts'],
      ['an array', [{ path: 'a.ts' }]],
    ];

    for (const [what, input] of cases) {
      it(`answers 'invalid-input' for ${what} and does not call the handler`, async () => {
        const { host, calls } = setup(textFile);

        const result = await host.invoke(requests.readFile.channel, input);

        expect(result).toMatchObject({ ok: false, error: { code: 'invalid-input' } });
        expect(calls).toEqual([]);
      });
    }

    it('names the offending field in the message', async () => {
      const { host } = setup(textFile);
      const result = await host.invoke(requests.readFile.channel, { path: 42 });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message).toContain('(path)');
    });

    it('refuses an argument given to a request that takes none', async () => {
      const { host } = setup(textFile);
      expect(await host.invoke(requests.getAppInfo.channel, { sneaky: 1 })).toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
    });

    it('refuses a settings update with a wrong type or an unknown setting', async () => {
      const { host, calls } = setup(textFile);
      expect(await host.invoke(requests.updateSettings.channel, { showIgnored: 'yes' })).toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
      expect(await host.invoke(requests.updateSettings.channel, { apiKey: 'sk-123' })).toMatchObject({
        ok: false,
        error: { code: 'invalid-input' },
      });
      expect(calls).toEqual([]);
    });
  });

  it('turns a thrown FlintFailure into a failed result with its code and message', async () => {
    const { host, logger } = setup(async (input) => {
      throw new FlintFailure('not-found', `${input.path} does not exist.`);
    });

    const result = await host.invoke(requests.readFile.channel, { path: 'gone.ts' });

    expect(result).toEqual({ ok: false, error: { code: 'not-found', message: 'gone.ts does not exist.' } });
    expect(logger.lines).toEqual([]);
  });

  it("turns any other error into 'internal' with a generic message, and logs the details", async () => {
    const { host, logger } = setup(async () => {
      throw new Error('database password hunter2 at /home/alice/.secret');
    });

    const result = await host.invoke(requests.readFile.channel, { path: 'src/app.ts' });

    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    if (!result.ok) {
      expect(result.error.message).not.toContain('hunter2');
      expect(result.error.message).not.toContain('/home/alice');
      expect(result.error.message).toContain(requests.readFile.channel);
    }
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]).toMatch(/^error: /);
    expect(logger.lines[0]).toContain(requests.readFile.channel);
    expect(logger.lines[0]).toContain('hunter2');
  });

  it("turns a thrown non-Error value into 'internal' and logs it", async () => {
    const { host, logger } = setup(async () => {
      throw 'a bare string with detail 42';
    });

    const result = await host.invoke(requests.readFile.channel, { path: 'src/app.ts' });

    expect(result).toMatchObject({ ok: false, error: { code: 'internal' } });
    if (!result.ok) expect(result.error.message).not.toContain('detail 42');
    expect(logger.lines.join('\n')).toContain('detail 42');
  });
});
