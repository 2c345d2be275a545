/**
 * Beside the user's editor, for real: an X desktop (Xvfb, openbox), an editor window titled
 * as VS Code titles its own, a browser window, the user's selection in X's PRIMARY, and the
 * serve shell on that display. The shortcut from the desktop is `flint --ask`'s signal (SIGUSR1 in the
 * serve shell); the ask bar in Chromium says which file and why, and Alt+S switches.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { eventually } from '../helpers/chromium';
import { E2E_OUTPUT, flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';
import { startXDesktop, type XDesktop } from '../helpers/x-desktop';

const APP = Array.from({ length: 30 }, (_, index) => `export const value${index + 1} = ${index + 1};`);

/** Starts keeping, in `window.__sources`, each distinct text the bar's source line shows (the bar may not be open yet). */
const RECORD_SOURCES = `(() => {
  window.__sourceObserver?.disconnect();
  const sources = (window.__sources = []);
  const record = () => {
    const text = (document.querySelector('[aria-label="Where the file came from"]')?.textContent ?? '').replace(/\\s+/g, ' ').trim();
    if (text !== '' && sources.at(-1) !== text) sources.push(text);
  };
  window.__sourceObserver = new MutationObserver(record);
  window.__sourceObserver.observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

describe('the file in the focused editor window', () => {
  let desktop: XDesktop;
  let flint: FlintOnSim;
  let page: Page;
  const bar = () => page.getByRole('dialog', { name: 'Ask Flint' });
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  const scopeTitle = async () => oneLine(await bar().getByLabel('Ask scope').innerText());
  const source = async () => oneLine(await bar().getByLabel('Where the file came from').innerText());
  /** The desktop shortcut: what `flint --ask` does, sent to the running serve shell. */
  const pressShortcut = () => process.kill(flint.serve.child.pid!, 'SIGUSR1');
  const shoot = (name: string) => page.screenshot({ path: join(E2E_OUTPUT, `focused-editor-${name}.png`) });

  beforeAll(async () => {
    desktop = await startXDesktop();
    flint = await flintOnSim({
      name: 'focused-editor',
      files: { 'src/app.ts': `${APP.join('\n')}\n`, 'src/other.ts': 'export const other = 1;\n', 'src/index.ts': 'export {};\n', 'lib/index.ts': 'export {};\n', 'src/util.ts': 'export const util = 1;\n' },
      rules: [{ match: { inputIncludes: 'what do these do' }, answer: { text: 'They export numbers.\n' } }],
      env: { DISPLAY: desktop.display },
    });
    page = flint.page;
    page.setDefaultTimeout(5_000);
    // The user's last save was of another file (a formatter run, a git checkout).
    await writeFile(join(flint.project, 'src', 'other.ts'), 'export const other = 2;\n');
    await eventually(() => page.getByLabel('Current file').innerText(), (text) => text === 'src/other.ts', 'the save of src/other.ts');
  });

  afterAll(async () => {
    await flint?.close();
    await desktop?.close();
  });

  it('asks about the file in the focused VS Code window, focused on the lines selected there, and Alt+S switches to the last saved one', async () => {
    await desktop.showEditor('● app.ts — project — Visual Studio Code');
    await desktop.select(`${APP[11]}\n${APP[12]}\n${APP[13]}`);
    pressShortcut();
    await eventually(scopeTitle, (text) => text.startsWith('Ask about src/app.ts'), 'the bar about src/app.ts');
    expect(await source()).toBe('focused in VS Code · Ask about src/other.ts (last saved) instead Alt+S');
    await eventually(() => bar().getByRole('button', { name: /^Focus:/ }).innerText(), (text) => text === 'Lines 12–14 (your selection)', 'the selection as the focus');
    await shoot('focused');
    expect(await seriousViolations(page)).toEqual([]);

    await bar().getByRole('textbox', { name: 'Ask Flint' }).press('Alt+s');
    await eventually(scopeTitle, (text) => text.startsWith('Ask about src/other.ts'), 'the switch to src/other.ts');
    expect(await source()).toBe('last saved · Ask about src/app.ts (focused in VS Code) instead Alt+S');
    await bar().getByRole('textbox', { name: 'Ask Flint' }).press('Alt+s');
    await eventually(scopeTitle, (text) => text.startsWith('Ask about src/app.ts'), 'the switch back');

    await eventually(() => bar().getByRole('button', { name: /^Focus:/ }).innerText(), (text) => text === 'Lines 12–14 (your selection)', 'the selection as the focus again');
    await bar().getByRole('textbox', { name: 'Ask Flint' }).fill('what do these do?');
    await bar().getByRole('textbox', { name: 'Ask Flint' }).press('Enter');
    await eventually(async () => flint.sim.requests.at(-1)?.body, (body) => JSON.stringify(body ?? null).includes('what do these do'), 'the question');
    expect(JSON.stringify(flint.sim.requests.at(-1)!.body)).toContain('The user selected lines 12–14 of src/app.ts in their editor.');
    await page.keyboard.press('Escape');
  });

  it('names the file of the editor the focus just moved to, at the first press after each move, never falling back', async () => {
    await desktop.select(null);
    const titles = { first: 'app.ts (~/project/src) - VIM', second: `${join(flint.project, 'src', 'util.ts')} - NVIM` };
    await desktop.showEditor(titles.first, 'first');
    await desktop.showEditor(titles.second, 'second');
    for (const [window, path, editor] of [['first', 'src/app.ts', 'Vim'], ['second', 'src/util.ts', 'Neovim'], ['first', 'src/app.ts', 'Vim']] as const) {
      await desktop.showEditor(titles[window], window);
      // Every source line the bar shows from the press on, in order.
      await page.evaluate(RECORD_SOURCES);
      pressShortcut();
      await eventually(source, (text) => text.startsWith(`focused in ${editor}`), `the bar about ${path}, focused in ${editor}`);
      expect(await scopeTitle()).toMatch(new RegExp(`^Ask about ${path} `));
      // Never the last saved file instead (a lookup that gave up), never a note about the window.
      const shown = (await page.evaluate('window.__sources')) as string[];
      expect(shown.filter((text) => !text.startsWith('focused in'))).toEqual([]);
      expect(await bar().getByLabel('The focused window').count()).toBe(0);
      await page.keyboard.press('Escape');
      await eventually(() => bar().count(), (count) => count === 0, 'the bar to close');
    }
    expect(flint.serve.stderr()).toContain(`focused window: following it on ${desktop.display} through one X connection`);
    await desktop.showEditor('● app.ts — project — Visual Studio Code', 'first');
  });

  it('never takes the file from a browser window whose page is titled like an editor, and says so', async () => {
    await desktop.select(null);
    await desktop.showBrowser('● app.ts — project — Visual Studio Code');
    pressShortcut();
    const note = bar().getByLabel('The focused window');
    await eventually(() => note.innerText().catch(() => ''), (text) => text === 'Chromium is not an editor: the current file stays src/other.ts.', 'the note');
    expect(await scopeTitle()).toMatch(/^Ask about src\/other\.ts/);
    expect(await source()).toBe('last saved');
    await shoot('browser');
    await page.keyboard.press('Escape');
  });

  it('lists the files a name found in two folders could be, and a click picks one', async () => {
    await desktop.select(null);
    await desktop.showEditor('index.ts - project - Visual Studio Code');
    pressShortcut();
    const note = bar().getByLabel('The focused window');
    await eventually(() => note.innerText().catch(() => ''), (text) => text.startsWith('The focused VS Code window shows index.ts, and 2 files of the project have that name: pick one.'), 'the note');
    await shoot('ambiguous');
    await note.getByRole('button', { name: 'lib/index.ts' }).click();
    await eventually(scopeTitle, (text) => text.startsWith('Ask about lib/index.ts'), 'the picked file');
    expect(await source()).toMatch(/^selected in Flint/);
    await page.keyboard.press('Escape');
  });
});
