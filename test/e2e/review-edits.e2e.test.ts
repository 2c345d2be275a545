/**
 * The review in context: editing a hunk's new text in
 * the file view, with saves and undo around it, CRLF files and files without a final
 * newline. Exact bytes on disk.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/chromium';
import { flintOnSim, type FlintOnSim } from '../helpers/flint-on-sim';
import { reviewPage } from '../helpers/review-page';

const lines = (...text: string[]): string => `${text.join('\n')}\n`;

const TWO = lines('export const one = 1;', 'export const two = 2;', 'export const three = 3;');
const TWO_PATCH = `Two changes.
*** Begin Patch
*** Update File: src/two.ts
@@
-export const one = 1;
+export const one = 11;
@@
-export const three = 3;
+export const three = 33;
*** End Patch
`;

const SAVED = lines('export const one = 1;', 'export const two = 2;', 'export const three = 3;', 'export const four = 4;');
const SAVED_PATCH = `One change.
*** Begin Patch
*** Update File: src/saved.ts
@@
 export const three = 3;
-export const four = 4;
+export const four = 44;
*** End Patch
`;

const CRLF = ['line one', 'line two', 'line three', ''].join('\r\n');
const CRLF_PATCH = `CRLF change.
*** Begin Patch
*** Update File: src/crlf.txt
@@
 line one
-line two
+line 2
+line two and a half
 line three
*** End Patch
`;

const NO_EOL = 'alpha\nbeta\ngamma';
const NO_EOL_PATCH = `Last line.
*** Begin Patch
*** Update File: src/noeol.txt
@@
 beta
-gamma
+GAMMA
+delta
*** End Patch
`;

const CONF = lines('export const one = 1;', 'export const two = 2;', 'export const three = 3;');
const CONF_PATCH = `Conflict.
*** Begin Patch
*** Update File: src/conf.ts
@@
 export const one = 1;
-export const two = 2;
+export const two = 22;
 export const three = 3;
*** End Patch
`;

const SEL = lines('export const one = 1;', 'export const two = 2;', '', '', 'export const last = 0;');
const SEL_PATCH = `Three lines.
*** Begin Patch
*** Update File: src/sel.ts
@@
 export const one = 1;
+// s1
+// s2
+// s3
 export const two = 2;
*** End Patch
`;

describe('editing hunks in the file view', () => {
  let flint: FlintOnSim;
  let page: Page;
  const { onDisk, card, stateOf, codeLine, codeLines, header, shoot, openFile, ask } = reviewPage(() => flint, 'review-edits');

  /** Puts the cursor at the end of the code line holding `text` and types `typed`. */
  const typeAtEndOf = async (text: string, typed: string) => {
    await codeLine(text).click();
    await page.keyboard.press('End');
    await page.keyboard.type(typed);
  };

  beforeAll(async () => {
    flint = await flintOnSim({
      name: 'review-edits',
      files: { 'src/two.ts': TWO, 'src/saved.ts': SAVED, 'src/crlf.txt': CRLF, 'src/noeol.txt': NO_EOL, 'src/conf.ts': CONF, 'src/sel.ts': SEL },
      rules: [
        { match: { inputIncludes: 'case-two' }, answer: { text: TWO_PATCH } },
        { match: { inputIncludes: 'case-saved' }, answer: { text: SAVED_PATCH } },
        { match: { inputIncludes: 'case-crlf' }, answer: { text: CRLF_PATCH } },
        { match: { inputIncludes: 'case-noeol' }, answer: { text: NO_EOL_PATCH } },
        { match: { inputIncludes: 'case-conf' }, answer: { text: CONF_PATCH } },
        { match: { inputIncludes: 'case-sel' }, answer: { text: SEL_PATCH } },
      ],
    });
    page = flint.page;
    page.setDefaultTimeout(5_000);
  });

  afterAll(() => flint?.close());

  it('an edit taken back with Ctrl+Z after the file was redrawn: Accept takes the hunk as the model wrote it', async () => {
    await openFile('two.ts');
    await ask('case-two please', [1, 2]);
    // Edit hunk 2's new line, then accept hunk 1 from its header: the file is written and drawn again.
    await typeAtEndOf('export const three = 33;', ' // mine');
    await header(1).locator('.cm-flint-accept').click();
    await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted');
    await eventually(onDisk.bind(null, 'two.ts'), (text) => text.includes('one = 11;'), 'hunk 1 on disk');
    await eventually(codeLines, (text) => !text.includes('export const one = 1;'), 'the file drawn again');
    expect(await codeLines()).toContain('export const three = 33; // mine');
    // The user changes their mind: Ctrl+Z in the code view takes the typing back.
    await codeLine('export const three = 33; // mine').click();
    await page.keyboard.press('Control+z');
    // The line without the typing (the line with it contains the model's line too).
    await eventually(codeLines, (text) => text.includes('export const three = 33;') && !text.includes('// mine'), 'the edit undone');
    await shoot('edit-undone');
    // Back to the model's line: the header should no longer say "edited"...
    expect.soft(await header(2).textContent()).not.toContain('edited');
    // ...and Accept takes the hunk as it is.
    await header(2).locator('.cm-flint-accept').click();
    await eventually(() => stateOf(2), (state) => state?.startsWith('Accepted') ?? false, 'hunk 2 accepted');
    await shoot('edit-undone-accepted');
    expect(await onDisk('two.ts')).toBe(lines('export const one = 11;', 'export const two = 2;', 'export const three = 33;'));
  });

  it('an edit waiting while another program saves lines above the hunk: the edit is kept and written where the hunk is', async () => {
    await openFile('saved.ts');
    await ask('case-saved please', [1]);
    await typeAtEndOf('export const four = 44;', ' // mine');
    const anchor = Number((await card(1).locator('.hunk-line').textContent())?.slice(1));
    // Another program saves the file with two lines more at the top.
    await writeFile(join(flint.project, 'src', 'saved.ts'), `// header 1\n// header 2\n${SAVED}`);
    await eventually(codeLines, (text) => text[0] === '// header 1', 'the save drawn');
    // The hunk, planned again on the save, is drawn two lines down: the redraw that could drop the edit has come.
    await eventually(() => page.locator('.file-view-editor').getAttribute('data-drawn-hunks'), (drawn) => drawn?.includes(`1.0@${anchor + 2}+`) ?? false, 'the hunk drawn where the save moved it');
    await shoot('edit-kept-after-save');
    expect(await codeLines()).toContain('export const four = 44; // mine');
    await header(1).locator('.cm-flint-accept').click();
    await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted');
    expect(await onDisk('saved.ts')).toBe(`// header 1\n// header 2\n${SAVED.replace('four = 4;', 'four = 44; // mine')}`);
  });

  it('a CRLF file: accepting one line of a hunk and editing keep CRLF on every line', async () => {
    await openFile('crlf.txt');
    await ask('case-crlf please', [1]);
    // Select the added "line 2" (the first of the hunk's 3 changed lines) only.
    await codeLine('line 2').click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+End');
    expect(await header(1).locator('.cm-flint-accept').textContent()).toContain('Accept 1 of 3 lines');
    await header(1).locator('.cm-flint-accept').click();
    await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted');
    expect(await onDisk('crlf.txt')).toBe(['line one', 'line two', 'line 2', 'line three', ''].join('\r\n'));
  });

  it('a file without a final newline: an edited hunk at its end writes no newline the file did not have', async () => {
    await openFile('noeol.txt');
    await ask('case-noeol please', [1]);
    // File line numbers: the last line is 3, the added lines have none. The card can show
    // before the file view has drawn the hunk (the gutter is redrawn a frame later): wait for it.
    const numbers = async (): Promise<string[]> =>
      (await page.locator('.file-view-editor .cm-lineNumbers .cm-gutterElement:not([style*="hidden"])').allTextContents())
        .filter((label) => /^\d/.test(label))
        .map((label) => label.trim());
    expect(await eventually(numbers, (labels) => labels.includes('3 −'), 'the hunk drawn in the gutter')).toEqual(['1', '2', '3 −']);
    await typeAtEndOf('delta', '!');
    await header(1).locator('.cm-flint-accept').click();
    await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted');
    expect(await onDisk('noeol.txt')).toBe('alpha\nbeta\nGAMMA\ndelta!');
  });

  it('Accept all after editing a hunk in place writes the edit, not the model’s text', async () => {
    await writeFile(join(flint.project, 'src', 'two.ts'), TWO);
    await openFile('two.ts');
    await ask('case-two again', [1, 2]);
    await typeAtEndOf('export const three = 33;', ' // mine');
    expect(await header(2).locator('.cm-flint-accept').textContent()).toContain('Accept edit');
    await page.keyboard.press('Control+Shift+Enter');
    await eventually(async () => [await stateOf(1), await stateOf(2)], (states) => states.every((state) => state?.startsWith('Accepted')), 'both accepted');
    await shoot('accept-all-after-edit');
    expect(await onDisk('two.ts')).toBe(lines('export const one = 11;', 'export const two = 2;', 'export const three = 33; // mine'));
  });

  it('a conflict card’s "Your text now" follows the user’s next save', async () => {
    await openFile('conf.ts');
    await ask('case-conf please', [1]);
    await writeFile(join(flint.project, 'src', 'conf.ts'), CONF.replace('two = 2;', 'two = 200; // first save'));
    await eventually(() => stateOf(1), (state) => state === 'Conflict', 'a conflict');
    const theirs = card(1).getByLabel('Your text now');
    await eventually(() => theirs.textContent().then((text) => text ?? '').catch(() => ''), (text) => text.includes('first save'), 'the first save shown');
    await writeFile(join(flint.project, 'src', 'conf.ts'), CONF.replace('two = 2;', 'two = 300; // second save'));
    await eventually(() => page.locator('.file-view-editor .cm-line', { hasText: 'second save' }).count(), (count) => count === 1, 'the second save on view');
    await eventually(() => theirs.textContent().then((text) => text ?? '').catch(() => ''), (text) => text.includes('second save'), 'the second save in the card').catch(() => undefined);
    await shoot('conflict-text');
    expect(await stateOf(1)).toBe('Conflict');
    expect(await theirs.textContent()).toContain('second save');
  });

  it('a selection of 2 of 3 lines survives another program saving elsewhere in the file: Ctrl+Enter takes those 2', async () => {
    await openFile('sel.ts');
    await ask('case-sel please', [1]);
    await codeLine('// s1').click();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+End');
    expect(await header(1).locator('.cm-flint-accept').textContent()).toContain('Accept 2 of 3 lines');
    // A formatter (or the user in another editor) touches the end of the file.
    await writeFile(join(flint.project, 'src', 'sel.ts'), SEL.replace('export const last = 0;', 'export const last = 1;'));
    await eventually(codeLines, (text) => text.includes('export const last = 1;'), 'the save drawn');
    // A pause a user makes before pressing the key. Not what the verdict rests on: the save
    // is below the hunk, so planning it again moves nothing and redraws nothing (the file
    // view redraws hunks when one moves or changes size); the one redraw the save causes, of
    // the text, is the one waited for above.
    await page.waitForTimeout(300);
    await shoot('selection-after-save');
    expect.soft(await header(1).locator('.cm-flint-accept').textContent()).toContain('Accept 2 of 3 lines');
    await page.keyboard.press('Control+Enter');
    await eventually(() => stateOf(1), (state) => state?.startsWith('Accepted') ?? false, 'hunk 1 accepted');
    expect(await onDisk('sel.ts')).toBe(lines('export const one = 1;', '// s1', '// s2', 'export const two = 2;', '', '', 'export const last = 1;'));
  });
});
