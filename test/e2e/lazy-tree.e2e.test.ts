/**
 * The lazy tree in real Chromium (serve shell, a real watcher): a project of 12,000 files
 * reaches the page as its top level only; each folder is listed by main as it opens, the
 * filter and `@` completion search main's whole index, and a reload lists the open folders
 * again.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeViolations, seriousViolations } from '../helpers/axe';
import { eventually, openFlintPage } from '../helpers/chromium';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';

const OUTPUT = join(import.meta.dirname, '..', '..', 'test-output', 'e2e');
/** 40 packages × 6 folders × 50 files: the whole tree as JSON is about 700 KB. */
const PACKAGES = 40;
const FOLDERS = 6;
const FILES = 50;
const ENTRIES = PACKAGES + PACKAGES * FOLDERS + PACKAGES * FOLDERS * FILES + 1;

describe('a lazy tree (serve shell, 12,000 files)', () => {
  let workspace: string;
  let project: string;
  let serve: ServeProcess;
  let browser: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];

  const tree = () => page.getByRole('tree', { name: 'Files' });
  const treeItem = (name: string) => tree().getByRole('treeitem', { name, exact: true });
  const statusText = () => page.locator('footer.status-bar').innerText();

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'flint-e2e-lazy-'));
    project = join(workspace, 'monorepo');
    for (let pkg = 0; pkg < PACKAGES; pkg += 1) {
      for (let folder = 0; folder < FOLDERS; folder += 1) {
        const path = join(project, `pkg${pkg}`, `mod${folder}`);
        await mkdir(path, { recursive: true });
        await Promise.all(Array.from({ length: FILES }, (_, file) => writeFile(join(path, `file${file}.ts`), `export const v = ${file};\n`)));
      }
    }
    await writeFile(join(project, 'README.md'), '# monorepo\n');
    serve = await startServeProcess([project], { FLINT_CONFIG_DIR: join(workspace, 'config') });
    ({ browser, page, errors: pageErrors } = await openFlintPage(serve.url));
    // The whole index, counted in the status bar.
    await eventually(statusText, (text) => text.includes(`${ENTRIES.toLocaleString()} entries`), 'the whole index counted', 30_000);
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await rm(workspace, { recursive: true, force: true });
  });

  it('sends the page the top level only: a reload carries kilobytes, not the 700 KB tree', async () => {
    let received = 0;
    page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => void (received += String(payload).length)));
    await page.reload();
    await treeItem('pkg0').waitFor();
    await treeItem('README.md').waitFor();
    await eventually(statusText, (text) => text.includes(`${ENTRIES.toLocaleString()} entries`), 'the count after the reload');
    expect(received).toBeLessThan(64 * 1024);
    expect(await treeItem('mod0').count()).toBe(0);
  });

  it('lists a folder as it opens, with the keyboard too', async () => {
    await treeItem('pkg1').click();
    await treeItem('mod3').waitFor();
    // The click left pkg1 active in the tree: ↓ four times to mod3, → opens it.
    for (let step = 0; step < 4; step += 1) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await treeItem('file0.ts').waitFor();
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'lazy-tree.png') });
  });

  it('shows a file added in an open folder, and one added in a folder never opened once it is', async () => {
    await writeFile(join(project, 'pkg1', 'mod3', 'added-live.ts'), 'export {};\n');
    await treeItem('added-live.ts').waitFor();
    await writeFile(join(project, 'pkg7', 'mod2', 'added-unseen.ts'), 'export {};\n');
    await eventually(statusText, (text) => text.includes(`${(ENTRIES + 2).toLocaleString()} entries`), 'both files counted');
    // pkg1 closed, so that pkg7 is on screen (the list draws only the rows in view).
    await treeItem('pkg1').click();
    await treeItem('pkg7').click();
    await treeItem('mod2').click();
    await treeItem('added-unseen.ts').waitFor();
  });

  it('lists the open folders again after a reload', async () => {
    await page.reload();
    await treeItem('added-unseen.ts').waitFor();
    await treeItem('pkg1').click();
    await treeItem('added-live.ts').waitFor();
  });

  it('filters over the whole index, folders never opened included', async () => {
    await page.getByLabel('Filter files').fill('pkg33/mod5/file7');
    await treeItem('pkg33/mod5/file7.ts').waitFor();
    // 12,000 files match: the page gets the first 5,000 and says so.
    await page.getByLabel('Filter files').fill('file');
    await page.getByText('Showing the first 5,000 matches; type more to narrow.').waitFor();
    await page.getByLabel('Filter files').fill('');
    await treeItem('pkg0').waitFor();
  });

  it('offers @ files from folders never opened', async () => {
    await page.keyboard.press('Control+Shift+Space');
    const bar = page.getByRole('dialog', { name: 'Ask Flint' });
    const input = bar.getByRole('textbox', { name: 'Ask Flint' });
    await input.pressSequentially('look at @pkg38/mod4/file4');
    // Each option: the file's name, then its folder.
    await bar.getByRole('option', { name: /^file4\.ts\s*pkg38\/mod4$/ }).waitFor();
    await page.screenshot({ path: join(OUTPUT, 'lazy-tree-mention.png') });
    // Enter completes with the best file, whatever came first: the list or the key.
    await input.press('Enter');
    await eventually(() => input.inputValue(), (value) => value === 'look at @pkg38/mod4/file4.ts ', 'the mention completed');
    await input.press('Escape');
    await bar.waitFor({ state: 'hidden' });
  });

  it('hides a folder named in Settings’ patterns from every view, and shows it again when the pattern goes', async () => {
    // pkg1 (opened above) closes: the rows are drawn as they scroll into view, and pkg3 must be in view.
    await treeItem('pkg1').click();
    await eventually(() => treeItem('mod3').count(), (count) => count === 0, 'pkg1 closed');
    await treeItem('pkg3').waitFor();
    await page.keyboard.press('Control+Comma');
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    const patterns = dialog.getByRole('textbox', { name: 'Hidden in every project' });
    await patterns.fill('pkg3/\n\n  pkg7/  \n');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    // Applied as written, blank lines and spaces dropped: nothing left to apply.
    await eventually(() => dialog.getByRole('button', { name: 'Apply' }).isDisabled(), (disabled) => disabled, 'the patterns applied');
    await page.screenshot({ path: join(OUTPUT, 'settings-exclude.png') });
    await page.keyboard.press('Escape');
    await eventually(() => treeItem('pkg3').count(), (count) => count === 0, 'pkg3 hidden');
    expect(await treeItem('pkg7').count()).toBe(0);
    // The filter and @ do not offer what is hidden either.
    await page.getByLabel('Filter files').fill('pkg3/mod1/file1.ts');
    await page.getByText('No files match “pkg3/mod1/file1.ts”.').waitFor();
    await page.getByLabel('Filter files').fill('');

    await page.keyboard.press('Control+Comma');
    await patterns.fill('pkg7/');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.keyboard.press('Escape');
    await treeItem('pkg3').waitFor();
    expect(await treeItem('pkg7').count()).toBe(0);
    await page.getByLabel('Filter files').fill('pkg3/mod1/file1.ts');
    await treeItem('pkg3/mod1/file1.ts').waitFor();
    await page.getByLabel('Filter files').fill('');
  });

  it('passes axe with no serious or critical violations, and without console errors', async () => {
    expect(describeViolations(await seriousViolations(page))).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
