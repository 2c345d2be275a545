/**
 * What the review's browser tests read and do on Flint's page: a hunk's card and state,
 * the code view's lines and hunk headers, the bytes on disk, a file opened from the tree,
 * a question asked in a fresh conversation, a screenshot. Bound lazily to the running Flint.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { askFlint, eventually } from './chromium';
import { E2E_OUTPUT, type FlintOnSim } from './flint-on-sim';

export function reviewPage(flint: () => FlintOnSim, screenshotPrefix: string) {
  const page = () => flint().page;
  const card = (number: number) => page().locator(`.hunk-card[data-hunk-number="${number}"]`);
  const stateOf = (number: number) => card(number).getByLabel('Hunk state').textContent();
  return {
    /** A file under src/, or a note that Flint is swapping it that instant. */
    onDisk: (name: string) => readFile(join(flint().project, 'src', name), 'utf8').catch(() => '(being swapped)'),
    card,
    stateOf,
    codeLine: (text: string) => page().locator('.file-view-editor .cm-line', { hasText: text }).first(),
    codeLines: () => page().locator('.file-view-editor .cm-line').allTextContents(),
    /** Hunk `number`'s header drawn in the file. */
    header: (number: number) => page().locator('.file-view-editor .cm-flint-hunk-header', { hasText: `Hunk ${number} ` }),
    shoot: async (name: string) => {
      await mkdir(E2E_OUTPUT, { recursive: true });
      await page().screenshot({ path: join(E2E_OUTPUT, `${screenshotPrefix}-${name}.png`) });
    },
    openFile: (name: string) => flint().openFile(`src/${name}`),
    /** A fresh conversation; waits for its hunks to be ready and the answer to end, then closes the bar. */
    ask: async (text: string, hunks: number[]) => {
      await askFlint(page(), text, { fresh: true });
      for (const number of hunks) await eventually(() => stateOf(number).catch(() => null), (state) => state === 'Ready', `hunk ${number} ready`, 20_000);
      await eventually(() => page().getByLabel('Edit status').textContent(), (status) => status === 'Answer complete', 'the answer to end');
      await page().keyboard.press('Escape');
      await eventually(() => page().getByRole('dialog', { name: 'Ask Flint' }).isVisible(), (visible) => !visible, 'the bar to close');
    },
  };
}
