/**
 * End to end in Chromium: the project view's columns are resized with splitters (mouse
 * and keys), remembered across a reload, and stay usable at 800 px wide.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, openFlintPage } from '../helpers/chromium';
import { simulatorServeEnv, startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { startSimulator, type Simulator } from '../sim/simulator';

const OUTPUT = join(import.meta.dirname, '..', '..', 'test-output', 'e2e');
const SOURCE = Array.from({ length: 40 }, (_, index) => `export const value${index} = ${index}; // a line long enough to need the room it is given`).join('\n');

describe('resizable panes in Chromium (serve shell)', () => {
  let workspace: string;
  let sim: Simulator;
  let serve: ServeProcess;
  let browser: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];

  const widthOf = async (selector: string): Promise<number> => (await page.locator(selector).boundingBox())?.width ?? 0;
  const widths = async () => ({ tree: await widthOf('.tree-panel'), file: await widthOf('.file-view'), edit: await widthOf('.edit-pane') });
  const splitter = (name: string): Locator => page.getByRole('separator', { name });
  const valueOf = async (name: string): Promise<number> => Number(await splitter(name).getAttribute('aria-valuenow'));
  const screenshot = async (name: string): Promise<void> => {
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, `${name}.png`) });
  };
  const showFile = async (): Promise<void> => {
    const tree = page.getByRole('tree', { name: 'Files' });
    await tree.getByRole('treeitem', { name: 'src', exact: true }).click();
    await tree.getByRole('treeitem', { name: 'values.ts', exact: true }).click();
    await eventually(() => page.locator('.cm-content').innerText(), (text) => text.includes('value39'), 'the file on view');
  };

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'flint-e2e-panes-'));
    const project = join(workspace, 'project');
    await mkdir(join(project, 'src'), { recursive: true });
    await writeFile(join(project, 'src', 'values.ts'), SOURCE);
    sim = await startSimulator({ ttftMs: 20, tokensPerSecond: 2000, apiKey: 'sk-e2e' });
    serve = await startServeProcess([project], simulatorServeEnv(join(workspace, 'config'), sim.baseUrl, 'sk-e2e'));
    ({ browser, page, errors: pageErrors } = await openFlintPage(serve.url));
    await showFile();
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await sim?.close();
    await rm(workspace, { recursive: true, force: true });
  });

  it('gives the file view most of the width at 1280 px', async () => {
    const { tree, file, edit } = await widths();
    expect(file).toBeGreaterThan(Math.max(tree, edit));
    await screenshot('panes-1280');
  });

  it('keeps all three columns usable at 800×700, the file view at least 240 px wide', async () => {
    await page.setViewportSize({ width: 800, height: 700 });
    await eventually(widths, ({ file }) => file < 600, 'the narrower layout');
    const { tree, file, edit } = await widths();
    expect(file).toBeGreaterThanOrEqual(240);
    expect(tree).toBeGreaterThanOrEqual(160);
    expect(edit).toBeGreaterThanOrEqual(260);
    expect(tree + file + edit).toBeLessThanOrEqual(800);
    await screenshot('panes-800');
    await page.keyboard.press('Control+Shift+Space');
    const bar = page.getByRole('dialog', { name: 'Ask Flint' });
    await bar.waitFor();
    // The bar covers the file view (and the tree if it must), never the Flint pane.
    const box = (await bar.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(800 - edit);
    await screenshot('panes-800-ask-bar');
    await page.keyboard.press('Escape');
    await eventually(() => bar.count(), (count) => count === 0, 'the bar to close');
  });

  it('drags the tree’s splitter with the mouse, and a reload keeps the widths', async () => {
    const before = await widths();
    const box = (await splitter('Resize the file tree').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 60, box.y + 220, { steps: 5 });
    await page.mouse.up();
    const after = await widths();
    expect(after.tree).toBe(before.tree + 60);
    expect(after.file).toBe(before.file - 60);
    await page.reload();
    await page.getByRole('tree', { name: 'Files' }).waitFor();
    await eventually(widths, (reloaded) => reloaded.tree === after.tree && reloaded.edit === after.edit, 'the widths after a reload');
  });

  it('moves a focused splitter 16 px with the arrow keys, and to its ends with Home and End', async () => {
    const name = 'Resize the Flint pane';
    await splitter(name).focus();
    const start = await valueOf(name);
    const startWidth = (await widths()).edit;
    await page.keyboard.press('ArrowLeft');
    expect(await valueOf(name)).toBe(start + 16);
    expect((await widths()).edit).toBe(startWidth + 16);
    await page.keyboard.press('ArrowRight');
    expect(await valueOf(name)).toBe(start);
    await page.keyboard.press('Home');
    expect(await valueOf(name)).toBe(Number(await splitter(name).getAttribute('aria-valuemin')));
    await page.keyboard.press('End');
    expect(await valueOf(name)).toBe(Number(await splitter(name).getAttribute('aria-valuemax')));
    expect((await widths()).file).toBeGreaterThanOrEqual(240);
  });

  it('ran without console errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
