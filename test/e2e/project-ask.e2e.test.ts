/**
 * "Ask about the project" and `@path` mentions end to end in Chromium (serve shell,
 * simulator): no current file no longer blocks, files are completed from the tree with
 * the keyboard, the simulator receives the outline and both files, and a hunk on a named
 * file is accepted onto disk. A binary current file does not block either.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../helpers/axe';
import { eventually } from '../helpers/chromium';
import { E2E_OUTPUT, flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';
import { requestChain } from '../sim/simulator';

const A = 'export function add(a: number, b: number) {\n  return a + b;\n}\n';
const B = 'export const limit = 10;\n';
const PATCH_B = `Raising the limit.
*** Begin Patch
*** Update File: src/b.ts
@@
-export const limit = 10;
+export const limit = 20;
*** End Patch
`;

describe('asking about the project with @path mentions, in Chromium', () => {
  let flint: FlintOnSim;
  let page: Page;
  const bar = (): Locator => page.getByRole('dialog', { name: 'Ask Flint' });
  const input = (): Locator => bar().getByRole('textbox', { name: 'Ask Flint' });
  const list = (): Locator => bar().getByRole('listbox', { name: 'Project files' });
  const scopeText = () => bar().getByLabel('Ask scope').innerText();
  const shoot = async (name: string) => {
    await mkdir(E2E_OUTPUT, { recursive: true });
    await page.screenshot({ path: join(E2E_OUTPUT, `project-ask-${name}.png`) });
  };
  /** The questions the simulator received (not the pre-loads). */
  const questions = () => flint.sim.requests.filter((request) => request.body.generate !== false && JSON.stringify(request.body).includes('Request:'));
  /**
   * All the model had for a question: its request, and — when it continues a pre-load
   * (`previous_response_id`) — the pre-load it names.
   */
  const seenFor = (question: (typeof flint.sim.requests)[number]): string => JSON.stringify(requestChain(flint.sim.requests, question).map((request) => request.body));

  beforeAll(async () => {
    flint = await flintOnSim({
      name: 'project-ask',
      files: { 'src/a.ts': A, 'src/b.ts': B, 'src/lib/util.ts': 'export {};\n', 'README.md': '# Demo\n', 'assets/logo.png': '\u0089PNG\u0000\u0000\u0001binary' },
      rules: [{ match: { inputIncludes: 'raise the limit' }, answer: { text: PATCH_B } }],
    });
    page = flint.page;
    page.setDefaultTimeout(5_000);
    await eventually(() => page.getByRole('tree', { name: 'Files' }).isVisible(), Boolean, 'the tree');
  });

  afterAll(async () => {
    await flint?.close();
  });

  it('offers the project, not a blocker, when there is no current file', async () => {
    await page.keyboard.press('Control+Shift+Space');
    await eventually(scopeText, (text) => text.includes('Ask about the project'), 'the project scope');
    expect(await bar().getByRole('alert').count()).toBe(0);
    expect(await bar().getByRole('button', { name: 'Ask about the project' }).getAttribute('aria-pressed')).toBe('true');
    expect(await bar().innerText()).toContain('No current file');
  });

  it('completes @sr to src/a.ts with the keyboard, and a second file after it', async () => {
    await input().click();
    await input().pressSequentially('what calls @sr');
    await eventually(() => list().isVisible(), Boolean, 'the completion list');
    const activeId = await input().getAttribute('aria-activedescendant');
    expect(await page.locator(`[id="${activeId}"]`).innerText()).toContain('a.ts');
    expect(await bar().getByRole('combobox').getAttribute('aria-expanded')).toBe('true');
    await shoot('completion');
    expect(JSON.stringify(await seriousViolations(page), null, 1)).toBe("[]");
    await input().press('Tab');
    // A Tab typed before the list for the newest query came completes when it comes.
    await eventually(() => input().inputValue(), (value) => value === 'what calls @src/a.ts ', 'the first completion');
    expect(await list().isVisible()).toBe(false);
    // The second mention: ↓ moves to the next file, Enter completes it (and does not ask).
    await input().pressSequentially('and raise the limit in @src/');
    await eventually(() => list().getByRole('option').count(), (count) => count >= 2, 'the list for src/');
    await input().press('ArrowDown');
    const second = await page.locator(`[id="${await input().getAttribute('aria-activedescendant')}"]`).innerText();
    expect(second).toContain('b.ts');
    await input().press('Enter');
    await eventually(() => input().inputValue(), (value) => value === 'what calls @src/a.ts and raise the limit in @src/b.ts ', 'the second completion');
    await eventually(scopeText, (text) => text.includes('2 files named'), 'both files in the scope');
    expect(await bar().getByLabel('Named files').innerText()).toContain('src/a.ts, src/b.ts');
    expect(questions()).toHaveLength(0);
  });

  it('closes only the list on Esc, and says what is wrong with a folder mention', async () => {
    await input().pressSequentially('@src/li');
    await eventually(() => list().isVisible(), Boolean, 'the list for src/li');
    await input().press('Escape');
    expect(await list().isVisible()).toBe(false);
    expect(await bar().isVisible()).toBe(true);
    // `@src/lib` names a folder: said under the title, the other files still go.
    await input().pressSequentially('b');
    await input().press('Escape');
    await eventually(() => bar().getByLabel('Named files').innerText(), (text) => text.includes('src/lib is a folder — name a file in it'), 'the folder message');
    await shoot('folder-mention');
    await input().press('Control+a');
    await input().pressSequentially('what calls @src/a.ts and raise the limit in @src/b.ts ');
  });

  it('sends the outline and both files, and the hunk on a named file can be accepted', async () => {
    await input().press('Enter');
    await eventually(async () => questions().length, (count) => count === 1, 'the question at the simulator');
    const sent = seenFor(questions()[0]!);
    expect(sent).toContain('Top-level folders:');
    expect(sent).toContain('File: src/a.ts');
    expect(sent).toContain('return a + b;');
    expect(sent).toContain('File: src/b.ts');
    expect(sent).toContain('export const limit = 10;');
    expect(sent).not.toContain('File: src/lib');
    const card = page.locator('.hunk-card[data-hunk-number="1"]');
    await eventually(() => card.getByLabel('Hunk state').textContent().catch(() => null), (state) => state === 'Ready', 'the hunk on src/b.ts', 20_000);
    await shoot('answer');
    await card.getByRole('button', { name: 'Accept' }).click();
    await eventually(() => readFile(join(flint.project, 'src', 'b.ts'), 'utf8').catch(() => ''), (text) => text === 'export const limit = 20;\n', 'the accepted hunk on disk');
  });

  it('does not block when the current file is binary: the project is asked instead, and the switch comes back for a text file', async () => {
    await page.keyboard.press('Escape');
    await eventually(() => bar().isVisible(), (visible) => !visible, 'the bar to close');
    await flint.openFile('assets/logo.png');
    await page.keyboard.press('Control+Shift+Space');
    await eventually(() => bar().innerText(), (text) => text.includes('binary') && text.includes('Ask about the project'), 'the binary note');
    expect(await bar().getByRole('alert').count()).toBe(0);
    await shoot('binary-current-file');
    await page.keyboard.press('Escape');
    await flint.openFile('src/a.ts');
    await page.keyboard.press('Control+Shift+Space');
    await eventually(scopeText, (text) => text.includes('src/a.ts') && !text.includes('project'), 'the file scope');
    // Alt+P: the project instead of the file, and back.
    await input().press('Alt+p');
    await eventually(scopeText, (text) => text.includes('Ask about the project'), 'the project chosen');
    expect(await bar().getByRole('button', { name: 'Ask about the project' }).getAttribute('aria-pressed')).toBe('true');
    await input().press('Alt+p');
    await eventually(scopeText, (text) => text.includes('src/a.ts'), 'back to the file');
    // Beside the current file, a file picked with the mouse goes too.
    await input().pressSequentially('compare with @READ');
    await list().getByRole('option', { name: /README\.md/ }).click();
    expect(await input().inputValue()).toBe('compare with @README.md ');
    await eventually(() => bar().getByLabel('Named files').innerText(), (text) => text.includes('+ README.md'), 'the named file beside the current one');
    expect(await scopeText()).toContain('src/a.ts');
    await shoot('file-plus-named');
  });
});
