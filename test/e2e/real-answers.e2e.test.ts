/**
 * End to end in Chromium: answers written the way real models write them — search/replace
 * blocks in fences, a file without an extension created by an empty SEARCH, a bare file
 * name, a chunk that names no place — land exactly, say on their cards what Flint made of
 * them, and one Undo takes an Accept all back.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askFlint, eventually, openFlintPage } from '../helpers/chromium';
import { simulatorServeEnv, startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { SimScriptSchema } from '../sim/sim-script';
import { startSimulator, type Simulator } from '../sim/simulator';

const OUTPUT = join(import.meta.dirname, '..', '..', 'test-output', 'e2e');
const APP = ['export function greet(name: string): string {', "  return 'Hello, ' + name;", '}', ''].join('\n');
const HELPERS = ['export const trim = (text: string) => text.trim();', ''].join('\n');
const NOTES = 'first note\nsecond note';
const SEARCH_REPLACE = `Adding a Makefile and a greeting with a full stop.

Makefile
\`\`\`make
<<<<<<< SEARCH>
=======
build:
\tnpx tsc
>>>>>>> REPLACE
\`\`\`

\`\`\`ts
src/app.ts
<<<<<<< SEARCH
  return 'Hello, ' + name;
=======
  return \`Hello, \${name}.\`;
>>>>>>> REPLACE
\`\`\`

Both are small.
`;
const V4A = `Two more.
  *** Begin Patch
*** Update File: helpers.ts
@@
-export const trim = (text: string) => text.trim();
+export const trim = (text: string): string => text.trim();
*** Update File: notes.txt
+third note

  *** End Patch
`;

describe('answers as real models write them, in Chromium (serve shell, simulator)', () => {
  let workspace: string;
  let project: string;
  let sim: Simulator;
  let serve: ServeProcess;
  let browser: BrowserContext;
  let page: Page;
  let pageErrors: string[] = [];

  const card = (path: string) => page.getByRole('article', { name: new RegExp(`^Hunk \\d+ in ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\b`) });
  const read = (path: string) => readFile(join(project, path), 'utf8').catch(() => '(absent)');
  const allReady = async (count: number) =>
    eventually(() => page.getByLabel('Hunk state').allInnerTexts(), (states) => states.length === count && states.every((state) => state === 'Ready'), `${count} ready hunks`, 20_000);

  beforeAll(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'flint-e2e-answers-'));
    project = join(workspace, 'project');
    await mkdir(join(project, 'src', 'lib'), { recursive: true });
    await writeFile(join(project, 'src', 'app.ts'), APP);
    await writeFile(join(project, 'src', 'lib', 'helpers.ts'), HELPERS);
    await writeFile(join(project, 'notes.txt'), NOTES);
    sim = await startSimulator({
      ttftMs: 20,
      tokensPerSecond: 2000,
      chunkTokens: 3,
      apiKey: 'sk-e2e',
      script: SimScriptSchema.parse({
        rules: [
          { match: { inputIncludes: 'makefile please' }, answer: { text: SEARCH_REPLACE } },
          { match: { inputIncludes: 'two more please' }, answer: { text: V4A } },
        ],
      }),
    });
    serve = await startServeProcess([project], simulatorServeEnv(join(workspace, 'config'), sim.baseUrl, 'sk-e2e'));
    ({ browser, page, errors: pageErrors } = await openFlintPage(serve.url));
    const tree = page.getByRole('tree', { name: 'Files' });
    await tree.getByRole('treeitem', { name: 'src', exact: true }).click();
    await tree.getByRole('treeitem', { name: 'app.ts', exact: true }).click();
    await eventually(() => page.getByLabel('Current file').innerText(), (text) => text === 'src/app.ts', 'the current file');
  });

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await sim?.close();
    await rm(workspace, { recursive: true, force: true });
  });

  it('creates a Makefile from an empty SEARCH and edits a fenced block; the prose shows no fences or path lines', async () => {
    await askFlint(page, 'makefile please');
    await allReady(2);
    expect(await card('Makefile').locator('.hunk-message').innerText()).toContain('Creates Makefile');
    const prose = await page.locator('.edit-session').innerText();
    expect(prose).toContain('Both are small.');
    expect(prose).not.toContain('```');
    await page.getByRole('button', { name: 'Accept all' }).click();
    await eventually(() => read('Makefile'), (text) => text === 'build:\n\tnpx tsc\n', 'the new Makefile');
    await eventually(() => read('src/app.ts'), (text) => text === APP.replace("'Hello, ' + name;", '`Hello, ${name}.`;'), 'the greeting');
    await mkdir(OUTPUT, { recursive: true });
    await page.screenshot({ path: join(OUTPUT, 'real-answers.png') });
  });

  it('takes the whole Accept all back with one Undo', async () => {
    await page.getByRole('button', { name: 'Undo' }).click();
    // One Undo, two files: restored one after the other (newest first), so each is waited for.
    await eventually(() => read('src/app.ts'), (text) => text === APP, 'the original greeting');
    await eventually(async () => existsSync(join(project, 'Makefile')), (exists) => !exists, 'the created Makefile to be gone');
    await eventually(() => page.getByText(/Undid the changes to 2 files/).count(), (count) => count > 0, 'the notice');
  });

  it('resolves a bare file name and appends a chunk that names no place, keeping a file without a final newline so', async () => {
    await askFlint(page, 'two more please', { fresh: true });
    await allReady(2);
    expect(await card('src/lib/helpers.ts').locator('.hunk-message').innerText()).toContain('the only file of that name');
    expect(await card('notes.txt').locator('.hunk-message').innerText()).toContain('names no place');
    await page.getByRole('button', { name: 'Accept all' }).click();
    await eventually(() => read('notes.txt'), (text) => text === 'first note\nsecond note\nthird note', 'the appended note');
    expect(await read('src/lib/helpers.ts')).toBe('export const trim = (text: string): string => text.trim();\n');
    // Still said once accepted: where the change went is what the user checks afterwards.
    await eventually(() => card('src/lib/helpers.ts').locator('.hunk-message').innerText(), (text) => text.includes('the only file of that name'), 'the note after accepting');
    // Padded envelope markers are read without a word about them.
    expect(await page.getByText(/note\(s\) about the model/).count()).toBe(0);
    await page.screenshot({ path: join(OUTPUT, 'real-answers-v4a.png') });
  });

  it('ran without console errors or CSP violations', () => {
    expect(pageErrors).toEqual([]);
  });
});
