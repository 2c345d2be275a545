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
      files: { 'src/app.ts': `${APP.join('\n')}\n`, 'src/other.ts': 'export const other = 1;\n', 'src/index.ts': 'export {};\n', 'lib/index.ts': 'export {};\n' },
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
