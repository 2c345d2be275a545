/**
 * End to end in real Chromium: the serve shell on a fixture project.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, launchChromium, openFlintPage } from '../helpers/chromium';
import { SERVE_ENTRY, simulatorServeEnv, startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { startSimulator, type Simulator } from '../sim/simulator';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'sample-project');
const OUTPUT = join(import.meta.dirname, '..', '..', 'test-output', 'e2e');

describe('the serve shell in Chromium', () => {
  let workspace: string;
  let project: string;
  let serve: ServeProcess;
  let browser: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];

  const treeItem = (name: string) => page.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name, exact: true });
  const fileViewText = () => page.getByLabel('File view').locator('.cm-content').innerText();
  const currentFile = () => page.getByLabel('Current file').innerText();

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'flint-e2e-'));
    project = join(workspace, 'sample-project');
    await cp(FIXTURE, project, { recursive: true });
    // Hidden entries are made here: git would not keep them in the fixture (its .gitignore excludes them).
    for (const [path, contents] of [
      ['node_modules/left-pad/index.js', 'module.exports = 1;\n'],
      ['build/out.js', 'console.log("built");\n'],
      ['debug.log', 'not tracked\n'],
    ] as const) {
      await mkdir(join(project, path, '..'), { recursive: true });
      await writeFile(join(project, path), contents);
    }
    serve = await startServeProcess([project], { FLINT_CONFIG_DIR: join(workspace, 'config') });
    ({ browser, page, errors: pageErrors } = await openFlintPage(serve.url));
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await rm(workspace, { recursive: true, force: true });
  });

  it('keeps the token out of the address bar and out of every cookie, and still connects after a reload', async () => {
    await treeItem('src').waitFor();
    const token = /token=([A-Za-z0-9_-]+)/.exec(serve.url)![1]!;
    expect(page.url()).not.toContain(token);
    expect(await page.evaluate<string>('location.href')).not.toContain('token');
    expect(await page.evaluate<string>('document.cookie')).toBe('');
    // HttpOnly cookies are invisible to document.cookie: ask the browser itself.
    expect(await browser.cookies()).toEqual([]);
    expect(serve.url).toMatch(/\/#token=[A-Za-z0-9_-]+$/);
    await page.reload();
    await treeItem('src').waitFor();
    expect(page.url()).not.toContain(token);
  });

  it('says how to get in when a page is opened without the token', async () => {
    const bare = await browser.newPage();
    try {
      await bare.goto(serve.url.replace(/#.*$/, ''));
      await bare.getByRole('alert').filter({ hasText: 'open the exact URL Flint printed' }).first().waitFor();
    } finally {
      await bare.close();
    }
  });

  it('shows the project tree with hidden folders left out', async () => {
    await treeItem('src').waitFor();
    await treeItem('README.md').waitFor();
    expect(await treeItem('build').count()).toBe(0);
    expect(await treeItem('node_modules').count()).toBe(0);
    expect(await treeItem('debug.log').count()).toBe(0);
  });

  it('opens a file from the tree into the highlighted read-only view and makes it current', async () => {
    await treeItem('src').click();
    await treeItem('app.ts').click();
    await eventually(fileViewText, (text) => text.includes('export function main()'), 'app.ts in the view');
    // Highlighted tokens are spans with CodeMirror's generated classes, once the language has loaded.
    await eventually(() => page.getByLabel('File view').locator('.cm-line span[class]').count(), (count) => count > 0, 'highlighting');
    await eventually(currentFile, (text) => text === 'src/app.ts', 'the current file to be src/app.ts');
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'serve-shell-file.png') });
  });

  it('reloads the view when another program changes the open file', async () => {
    await writeFile(join(project, 'src', 'app.ts'), 'export const changedOnDisk = 42;\n');
    await eventually(fileViewText, (text) => text.includes('changedOnDisk = 42'), 'the view to reload');
  });

  it('shows a file added on disk, and makes a file saved elsewhere the current file', async () => {
    await writeFile(join(project, 'src', 'added.ts'), 'export const added = true;\n');
    await treeItem('added.ts').waitFor();
    await writeFile(join(project, 'README.md'), '# Sample project, edited elsewhere\n');
    await eventually(currentFile, (text) => text === 'README.md', 'README.md to become current');
  });

  it('removes a deleted file from the tree', async () => {
    await rm(join(project, 'src', 'added.ts'));
    await eventually(() => treeItem('added.ts').count(), (count) => count === 0, 'added.ts to disappear');
  });

  it('describes a binary file instead of loading it', async () => {
    await treeItem('logo.png').click();
    await eventually(() => page.getByLabel('File view').innerText(), (text) => text.includes('Binary file'), 'the binary notice');
  });

  it('shows ignored entries when Show ignored files is on, and lists an ignored folder on demand', async () => {
    await page.getByLabel('Show ignored files').check();
    await treeItem('build').waitFor();
    await treeItem('node_modules').waitFor();
    await treeItem('build').click();
    await treeItem('out.js').waitFor();
    await page.getByLabel('Show ignored files').uncheck();
    await eventually(() => treeItem('build').count(), (count) => count === 0, 'build to be hidden again');
  });

  it('filters the tree by path', async () => {
    await page.getByLabel('Filter files').fill('math');
    await treeItem('src/utils/math.ts').waitFor();
    expect(await treeItem('README.md').count()).toBe(0);
    await page.getByLabel('Filter files').fill('');
  });

  it('reports a folder that does not exist, through the in-app path prompt', async () => {
    await page.getByRole('button', { name: 'Open Folder…' }).click();
    await page.getByLabel('Folder path').fill(join(workspace, 'no-such-folder'));
    await page.getByLabel('Folder path').press('Enter');
    await page.getByRole('alert').filter({ hasText: 'There is no folder at' }).waitFor();
    await page.screenshot({ path: join(OUTPUT, 'serve-shell-error.png') });
  });

  it('says so when the open folder is deleted, and returns to the folder picker', async () => {
    await rm(project, { recursive: true, force: true });
    await page.getByRole('alert').filter({ hasText: 'was deleted or moved while it was open' }).waitFor();
    await page.getByRole('region', { name: 'Recent folders' }).waitFor();
    expect(await page.getByRole('tree').count()).toBe(0);
  });

  it('ran without console errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});

describe('the serve shell page when it loses Flint', () => {
  const SESSION_ENDED = 'This Flint session ended (Flint was restarted). Open the new URL Flint printed in its terminal.';
  let workspace: string;
  let project: string;
  let env: Record<string, string>;
  let sim: Simulator;
  let first: ServeProcess;
  let second: ServeProcess | undefined;
  let browser: BrowserContext;
  let page: Page;
  /** Every WebSocket the page created: its first connection and each retry. */
  let attempts = 0;

  // Each notice is an alert or a status, not a listitem, to the accessibility tree.
  const noticeTexts = (target: Page) => target.getByRole('list', { name: 'Notices' }).locator('li > span').allInnerTexts();
  const statusText = (target: Page) => target.locator('footer.status-bar').innerText();
  const treeItem = (target: Page, name: string) => target.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name, exact: true });
  const modelReady = (target: Page) => eventually(() => statusText(target), (text) => text.includes('Model ready'), 'a ready model', 20_000);

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'flint-e2e-lost-'));
    project = join(workspace, 'sample-project');
    await cp(FIXTURE, project, { recursive: true });
    sim = await startSimulator({ apiKey: 'sk-e2e' });
    env = simulatorServeEnv(join(workspace, 'config'), sim.baseUrl, 'sk-e2e');
    first = await startServeProcess([project], env);
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('websocket', () => attempts++);
    await page.goto(first.url);
  });

  afterAll(async () => {
    await browser?.close();
    await first?.stop();
    await second?.stop();
    await sim?.close();
    await rm(workspace, { recursive: true, force: true });
  });

  it('reconnects and clears its one notice when the server closes the socket while Flint keeps running', async () => {
    // A routed page: the route passes everything through and gives the test the server's side of the socket.
    const routes: WebSocketRoute[] = [];
    let allowReconnect = (): void => undefined;
    const reconnectAllowed = new Promise<void>((resolve) => (allowReconnect = resolve));
    const routed = await browser.newPage();
    try {
      await routed.routeWebSocket(/\/flint-socket$/, async (socket) => {
        routes.push(socket);
        // The retry waits until the test has seen the page say it is reconnecting.
        if (routes.length > 1) await reconnectAllowed;
        socket.connectToServer();
      });
      await routed.goto(first.url);
      await treeItem(routed, 'src').waitFor();
      await modelReady(routed);
      routes[0]!.close({ code: 1012, reason: 'Restarting this connection.' });
      await eventually(() => noticeTexts(routed), (texts) => texts.length === 1, 'one notice');
      expect(await noticeTexts(routed)).toEqual(['Flint closed the connection: Restarting this connection. Reconnecting…']);
      expect(await statusText(routed)).toContain('Flint offline — reconnecting…');
      expect(await statusText(routed)).not.toContain('Model ready');

      allowReconnect();
      await eventually(() => noticeTexts(routed), (texts) => texts.length === 0, 'the notice to go');
      await modelReady(routed);
      expect(routes).toHaveLength(2);
    } finally {
      await routed.close();
    }
  });

  it('says once, not once per retry, that it lost Flint when the process stops, and no longer claims the model is ready', async () => {
    await treeItem(page, 'src').waitFor();
    await modelReady(page);
    const before = attempts;
    await first.stop();
    await eventually(async () => attempts, (count) => count >= before + 4, 'four reconnect attempts', 20_000);
    expect(await noticeTexts(page)).toEqual(['Lost the connection to Flint; reconnecting…']);
    const status = await statusText(page);
    expect(status).toContain('Flint offline — reconnecting…');
    expect(status).not.toContain('Model ready');
  });

  it('tells the old tab its session ended and to open the new URL once Flint starts again on the same port, and stops retrying', async () => {
    second = await startServeProcess([project, '--port', String(first.port)], env);
    expect(second.port).toBe(first.port);
    await eventually(() => noticeTexts(page), (texts) => texts.includes(SESSION_ENDED), 'the session-ended notice', 20_000);
    expect(await noticeTexts(page)).toEqual([SESSION_ENDED]);
    expect(await statusText(page)).toContain('Flint session ended — open the new URL');
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'serve-shell-session-ended.png') });
    // Longer than the longest retry delay (5 s): a page still retrying would have made a socket by then.
    const settled = attempts;
    await new Promise((resolve) => setTimeout(resolve, 6000));
    expect(attempts).toBe(settled);
  });

  it('still says the session ended after the old tab is reloaded, instead of retrying forever', async () => {
    // The reload keeps the old token and the id of the Flint that took it (sessionStorage).
    await page.reload();
    await eventually(() => noticeTexts(page), (texts) => texts.includes(SESSION_ENDED), 'the session-ended notice after the reload', 20_000);
    expect(await noticeTexts(page)).toEqual([SESSION_ENDED]);
    expect(await statusText(page)).toContain('Flint session ended — open the new URL');
  });

  it('connects to the new Flint when its URL is opened in the same tab, and clears the notice', async () => {
    await page.goto(second!.url);
    await treeItem(page, 'src').waitFor();
    await eventually(() => noticeTexts(page), (texts) => texts.length === 0, 'the notice to go');
    await modelReady(page);
  });
});

describe('the serve entry on an unsupported Node', () => {
  it('prints one clear line and exits 1 before doing anything else', async () => {
    const configDirectory = await mkdtemp(join(tmpdir(), 'flint-old-node-'));
    const fakeOldNode = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"22.21.0"})';
    const run = spawnSync(process.execPath, ['--import', fakeOldNode, SERVE_ENTRY], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { ...process.env, FLINT_CONFIG_DIR: configDirectory, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' },
    });
    await rm(configDirectory, { recursive: true, force: true });
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^Flint needs Node 22\.22\.0 or newer, but this is Node 22\.21\.0/)]);
    expect(run.status).toBe(1);
  });
});
