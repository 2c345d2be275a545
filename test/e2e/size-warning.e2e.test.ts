/**
 * Opening the home folder, end to end: the serve shell runs with HOME set to a fake home
 * (a temp folder; the real home is never opened), the page opens `~`, and the warning says
 * what was found with Cancel and Open anyway.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { eventually } from '../helpers/chromium';
import { E2E_OUTPUT, flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';

describe('opening the home folder', () => {
  let home: string;
  let flint: FlintOnSim;
  let page: Page;
  const warning = () => page.getByRole('region', { name: /is your home folder/ });
  const openHome = async () => {
    await page.getByLabel('Folder path').fill('~');
    await page.getByLabel('Folder path').press('Enter');
  };

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'flint-e2e-home-'));
    // 3 folders of 50 files, and a cache: 154 entries (the cache is one, hidden and not read).
    for (const folder of ['Documents', 'Downloads', 'code']) {
      await mkdir(join(home, folder));
      for (let index = 0; index < 50; index += 1) await writeFile(join(home, folder, `file${index}.txt`), 'x\n');
    }
    await mkdir(join(home, '.cache', 'chromium'), { recursive: true });
    await writeFile(join(home, '.cache', 'chromium', 'data_1'), 'cache\n');
    flint = await flintOnSim({ name: 'size-warning', files: {}, noProject: true, env: { HOME: home } });
    page = flint.page;
    page.setDefaultTimeout(5_000);
  });

  afterAll(async () => {
    await flint?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('warns before showing the home folder, with the entries found, and Cancel closes it', async () => {
    await openHome();
    await eventually(() => warning().locator('.size-warning-count').innerText().catch(() => ''), (text) => text.startsWith('154 entries found.'), 'the count of the held scan');
    expect(await warning().getByRole('alert').innerText()).toBe(`${home} is your home folder.`);
    // Held: no tree until the user says so.
    expect(await page.getByRole('tree', { name: 'Files' }).getByRole('treeitem').count()).toBe(0);
    await page.screenshot({ path: join(E2E_OUTPUT, 'size-warning-home.png') });
    expect(await seriousViolations(page)).toEqual([]);

    await warning().getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Folder path').waitFor();
    expect(await warning().count()).toBe(0);
  });

  it('shows the tree and watches the folder once the user says Open anyway', async () => {
    await openHome();
    await warning().getByRole('button', { name: 'Open anyway' }).click();
    await page.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: 'Documents', exact: true }).waitFor();
    expect(await warning().count()).toBe(0);
    // The watcher starts once the tree is shown: a new file in the tree proves it is watching.
    await writeFile(join(home, 'watched.txt'), 'new\n');
    await page.getByRole('tree', { name: 'Files' }).getByRole('treeitem', { name: 'watched.txt', exact: true }).waitFor({ timeout: 20_000 });
    await writeFile(join(home, 'code', 'file1.txt'), 'saved\n');
    await eventually(() => page.getByLabel('Current file').innerText(), (text) => text === 'code/file1.txt', 'the save seen by the watcher');
  });
});
