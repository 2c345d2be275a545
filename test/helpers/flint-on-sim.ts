/**
 * Flint end to end on real parts, for the browser tests: a temp project, the simulator
 * (with the given script and pace, keyed), the serve shell as its own process, and Debian's
 * Chromium on its page — one call, one close.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { eventually, openFlintPage } from './chromium';
import { simulatorServeEnv, startServeProcess, type ServeProcess } from './serve-process';
import type { z } from 'zod';
import { SimScriptSchema } from '../sim/sim-script';
import { startSimulator, type Simulator, type SimulatorOptions } from '../sim/simulator';

export const E2E_OUTPUT = join(import.meta.dirname, '..', '..', 'test-output', 'e2e');
const API_KEY = 'sk-e2e';
const FAST_MODEL: SimulatorOptions = { ttftMs: 10, tokensPerSecond: 2000, chunkTokens: 4 };

export interface FlintOnSim {
  /** The project's folder. */
  project: string;
  sim: Simulator;
  serve: ServeProcess;
  browser: BrowserContext;
  page: Page;
  /** Console errors and page errors (CSP violations show up here). */
  errors: string[];
  /** The channel of every request the page sent, in order (see `requestsBefore`). */
  requests: string[];
  /** Opens `path` (project-relative) from the tree and waits until it is the current file. */
  openFile(path: string): Promise<void>;
  close(): Promise<void>;
}

export interface FlintOnSimOptions {
  /** Names the temp folder. */
  name: string;
  /** Project-relative path → text. */
  files: Record<string, string>;
  /** The simulator's answers, by what the question includes. */
  rules?: z.input<typeof SimScriptSchema>['rules'];
  /** The simulator's pace and the rest (default: a fast model, 2,000 tokens/s in 4-token deltas). */
  sim?: SimulatorOptions;
  /** Start on the welcome screen (no folder on the command line). */
  noProject?: boolean;
  /** More environment for the serve shell (e.g. DISPLAY, for a test's X desktop). */
  env?: Record<string, string>;
  /** The serve shell's inotify watches (a user namespace of its own): the kernel refuses the rest. */
  watchLimit?: number;
}

export async function flintOnSim(options: FlintOnSimOptions): Promise<FlintOnSim> {
  const workspace = await mkdtemp(join(tmpdir(), `flint-e2e-${options.name}-`));
  const project = join(workspace, 'project');
  for (const [path, text] of Object.entries(options.files)) {
    await mkdir(dirname(join(project, path)), { recursive: true });
    await writeFile(join(project, path), text);
  }
  await mkdir(project, { recursive: true });
  const sim = await startSimulator({ apiKey: API_KEY, ...FAST_MODEL, ...(options.rules ? { script: SimScriptSchema.parse({ rules: options.rules }) } : {}), ...options.sim });
  const serve = await startServeProcess(options.noProject ? [] : [project], { ...simulatorServeEnv(join(workspace, 'config'), sim.baseUrl, API_KEY), ...options.env }, { watchLimit: options.watchLimit });
  const { browser, page, errors, requests } = await openFlintPage(serve.url);
  return {
    project,
    sim,
    serve,
    browser,
    page,
    errors,
    requests,
    async openFile(path) {
      const tree = page.getByRole('tree', { name: 'Files' });
      const parts = path.split('/');
      for (const folder of parts.slice(0, -1)) {
        const item = tree.getByRole('treeitem', { name: folder, exact: true });
        if ((await item.getAttribute('aria-expanded')) !== 'true') await item.click();
      }
      await tree.getByRole('treeitem', { name: parts.at(-1)!, exact: true }).click();
      await eventually(() => page.getByLabel('Current file').innerText(), (text) => text === path, `${path} to be the current file`);
    },
    async close() {
      await browser.close();
      await serve.stop();
      await sim.close();
      await rm(workspace, { recursive: true, force: true });
    },
  };
}
