/**
 * Past the OS's limit on watches, end to end: the serve shell runs in a user namespace that
 * grants it 24 inotify watches for a project of 81 folders. The status bar says how many
 * folders are not watched for as long as that lasts, a notice says it once in words (how to
 * raise the limit), and a file added in a folder the kernel refused still shows in the tree.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { eventually } from '../helpers/chromium';
import { E2E_OUTPUT, flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';

describe('a project past the watch limit', () => {
  let flint: FlintOnSim;
  let page: Page;
  const statusItem = () => page.locator('.status-bar').getByRole('button', { name: /folders? not watched: show why/ });
  const notice = () => page.getByRole('list', { name: 'Notices' }).getByRole('listitem').filter({ hasText: 'limit on watched folders' });

  beforeAll(async () => {
    const files: Record<string, string> = { 'README.md': '# monorepo\n' };
    for (let index = 0; index < 40; index += 1) files[`pkg${String(index).padStart(2, '0')}/src/index.ts`] = `export const n = ${index};\n`;
    flint = await flintOnSim({ name: 'watch-limit', files, watchLimit: 24 });
    page = flint.page;
    page.setDefaultTimeout(10_000);
  });

  afterAll(async () => {
    await flint?.close();
  });

  it('says in the status bar and once in a notice which folders are not watched and how to raise the limit', async () => {
    // The count grows as refusals come in: the whole of it is at least the folders past the limit.
    const countOf = (label: string) => Number(/([\d,]+) folders? not watched/.exec(label)?.[1]?.replace(/,/g, '') ?? 0);
    const count = countOf(await eventually(() => statusItem().innerText().catch(() => ''), (label) => countOf(label) >= 81 - 24, 'the whole count'));
    const message = await eventually(() => notice().innerText().catch(() => ''), (text) => text.includes('fs.inotify.max_user_watches') && text.includes(`: ${count} folders`), 'the notice, with the same count');
    expect(message).toMatch(new RegExp(`The system’s limit on watched folders was reached: ${count} folders \\(.+ and \\d+ more\\) are not watched\\.`));
    expect(await statusItem().getAttribute('title')).toContain('sudo sysctl fs.inotify.max_user_watches=');
    await page.screenshot({ path: join(E2E_OUTPUT, 'watch-limit.png') });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('brings the notice back from the status bar after it was dismissed, by keyboard', async () => {
    await notice().getByRole('button', { name: /Dismiss/ }).click();
    await notice().waitFor({ state: 'detached' });
    await statusItem().focus();
    await page.keyboard.press('Enter');
    await notice().waitFor();
  });

  it('shows a file added in a folder the kernel would not watch', async () => {
    // The first folder the message names is one the kernel refused to watch.
    const refused = /\(([^,)]+)[,)]/.exec((await statusItem().getAttribute('title')) ?? '')?.[1];
    expect(refused).toMatch(/^pkg\d\d/);
    const tree = page.getByRole('tree', { name: 'Files' });
    await tree.getByRole('treeitem', { name: refused!, exact: true }).click();
    await writeFile(join(flint.project, refused!, 'added-later.ts'), 'export {};\n');
    await tree.getByRole('treeitem', { name: 'added-later.ts', exact: true }).waitFor();
  });
});
