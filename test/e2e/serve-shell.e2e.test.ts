/**
 * End to end in real Chromium: the serve shell on a fixture project.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, openFlintPage } from '../helpers/chromium';
import { SERVE_ENTRY, startServeProcess, type ServeProcess } from '../helpers/serve-process';

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

  it('shows hidden entries when the toggle is on, and lists a hidden folder on demand', async () => {
    await page.getByLabel('Show hidden files').check();
    await treeItem('build').waitFor();
    await treeItem('node_modules').waitFor();
    await treeItem('build').click();
    await treeItem('out.js').waitFor();
    await page.getByLabel('Show hidden files').uncheck();
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
