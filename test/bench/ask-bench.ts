/**
 * The ask bar's figures: shortcut → bar painted in Chromium (the serve shell's in-app
 * shortcut), the desktop shortcut → the bar naming the focused editor's file (idle, and
 * with the two CPU burners of `npm run test:loaded` running), and main's context build for
 * a 5,000-line current file.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AskService } from '../../src/main/ask/ask-service';
import { DesktopLookup } from '../../src/main/ask/desktop-lookup';
import { X11Desktop } from '../../src/main/desktop/x11/x11-desktop';
import { PromptBuilder } from '../../src/main/ask/prompt-builder';
import { projectOutline } from '../../src/main/context/project-outline';
import { SaveHistory } from '../../src/main/context/save-history';
import { ProjectFiles } from '../../src/main/fs/project-files';
import { loadO200kCounter } from '../../src/main/context/token-counter';
import { CredentialService } from '../../src/main/credentials/credential-service';
import { InferenceService } from '../../src/main/inference/inference-service';
import { createMemoryLogger } from '../../src/main/logger';
import { SettingsStore } from '../../src/main/settings/settings-store';
import { eventually, openFlintPage } from '../helpers/chromium';
import { startServeProcess } from '../helpers/serve-process';
import { MemorySecretStore } from '../helpers/test-core';
import { startXDesktop } from '../helpers/x-desktop';
import { startCpuBurners } from '../load/cpu-burners';
import { CLEAR_BAR_MARKS, READ_BAR_MARK, READ_BAR_PAINTED_AT } from './browser-probes';
import { median, percentile, round } from './statistics';

export interface AskFigures {
  /** The desktop shortcut (with the focused-window lookup in parallel) → the bar painted, p95. */
  hotkey_to_bar_ms: number;
  /** The desktop shortcut → the bar names the focused editor's file (the lookup and the scope), p95. */
  hotkey_to_focused_file_ms: number;
  /** The same with two CPU burners running, the focus moving between two editor windows before each press, p95. */
  shortcut_to_focused_file_p95_ms: number;
  /** Of that, main's part: the press → the focused window known (X11Desktop, in this process, same load), p95. */
  focused_window_lookup_p95_ms: number;
  /** The shortcut pressed inside Flint → the bar painted, p95 (no lookup: Flint has focus). */
  in_app_key_to_bar_ms: number;
  context_build_ms: number;
  /** The first build in a process, when no line has been counted yet. */
  context_build_first_ms: number;
}

const BAR_RUNS = 20;
/** Under load: more runs, so the p95 is not one unlucky run in twenty. */
const LOADED_RUNS = 40;
const BUILD_RUNS = 30;

export async function measureAsk(log: (line: string) => void): Promise<AskFigures> {
  const workspace = await mkdtemp(join(tmpdir(), 'flint-bench-ask-'));
  try {
    await mkdir(join(workspace, 'project', 'src'), { recursive: true });
    const context = await measureContextBuild(join(workspace, 'project'), join(workspace, 'config-build'), log);
    const inApp = await measureBar(join(workspace, 'project'), join(workspace, 'config-bar'), log);
    const desktop = await measureDesktopShortcut(join(workspace, 'project'), join(workspace, 'config-desktop'), log);
    const loaded = await measureDesktopShortcut(join(workspace, 'project'), join(workspace, 'config-desktop-loaded'), log, { burners: 2 });
    return {
      ...desktop,
      shortcut_to_focused_file_p95_ms: loaded.hotkey_to_focused_file_ms,
      focused_window_lookup_p95_ms: loaded.lookup_ms ?? NaN,
      in_app_key_to_bar_ms: inApp,
      ...context,
    };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

/** The bar's scope and source lines, for a failure to say what it showed. */
const READ_BAR_TEXT = `[...document.querySelectorAll('[aria-label="Ask scope"], [aria-label="Where the file came from"], [aria-label="The focused window"]')].map((element) => element.textContent).join(' | ')`;

/** How long `desktop` takes to answer with the focused window; throws unless it names `title` (never a give-up, never stale). */
async function timeLookup(desktop: X11Desktop, title: string): Promise<number> {
  const started = performance.now();
  const window = await desktop.focusedWindow();
  const took = performance.now() - started;
  if (window.kind !== 'window' || window.title !== title) throw new Error(`the focused window was ${JSON.stringify(window)}, not ${JSON.stringify(title)}`);
  return took;
}

/**
 * Starts watching for the ask bar to say it is about `path`, focused in an editor; when it
 * does, `window.__focusedFileAt` is when (epoch ms). Installed before the shortcut, while
 * the bar is closed; the bar's DOM is checked at every change.
 */
const watchFocusedFile = (path: string): string => `(() => {
  window.__focusedFileObserver?.disconnect();
  window.__focusedFileAt = undefined;
  const check = () => {
    const title = document.querySelector('[aria-label="Ask scope"]')?.textContent ?? '';
    const source = document.querySelector('[aria-label="Where the file came from"]')?.textContent ?? '';
    if (!title.includes(${JSON.stringify(path)}) || !source.startsWith('focused in')) return;
    window.__focusedFileAt = performance.timeOrigin + performance.now();
    observer.disconnect();
  };
  const observer = (window.__focusedFileObserver = new MutationObserver(check));
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/** A plausible 5,000-line TypeScript file (about 200 KB: more than the bytes that fit without counting tokens). */
function fiveThousandLines(edit = -1): string {
  const lines: string[] = [];
  for (let index = 0; index < 5000; index += 1) {
    lines.push(
      index === edit
        ? `  const edited${index} = await compute(items[${index}], { retries: 3 }); // edited`
        : index % 25 === 0
          ? `export async function handler${index}(items: Item[], options: Options = {}): Promise<Result> {`
          : `  const value${index} = items[${index % 97}]?.weight ?? options.fallback ?? ${index}; // step ${index}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Main's work when the hotkey fires: read the current file, find the recent change, assemble within 128K tokens. */
async function measureContextBuild(root: string, config: string, log: (line: string) => void): Promise<Pick<AskFigures, 'context_build_ms' | 'context_build_first_ms'>> {
  const path = 'src/handlers.ts';
  await writeFile(join(root, path), fiveThousandLines());
  const logger = createMemoryLogger();
  const env = { FLINT_PROVIDER: 'openai-responses', FLINT_BASE_URL: 'http://127.0.0.1:9/v1', FLINT_MODEL: 'gpt-5.3-codex-spark', FLINT_API_KEY: 'sk-bench' };
  const { store } = await SettingsStore.load(config);
  const inference = new InferenceService({ settings: store, credentials: new CredentialService(new MemorySecretStore(), logger), env, logger });
  const files = new ProjectFiles(root);
  const history = new SaveHistory({ files, settleMs: 0 });
  const outline = projectOutline('bench', [{ path: 'src', kind: 'directory' }, { path, kind: 'file' }]);
  // One service for the whole run, as in the app: lines counted once stay counted.
  const project = () => ({ root, name: 'bench', outline: () => outline, history, files });
  const service = new AskService({ inference, prompts: new PromptBuilder({ inference, project }), project, currentFile: () => ({ path, source: 'saved', at: 0 }), desktop: new DesktopLookup({}, () => null, logger), isStreaming: () => false });
  // The tokenizer loads once per process (about 140 ms); that is not a build.
  await loadO200kCounter();
  await history.noteSaved(path);

  const builds: number[] = [];
  for (let run = 0; run <= BUILD_RUNS; run += 1) {
    // The user saves one changed line, then presses the hotkey.
    await writeFile(join(root, path), fiveThousandLines(run * 150 + 7));
    await history.noteSaved(path);
    const started = performance.now();
    const scope = await service.scope('recent-change');
    builds.push(performance.now() - started);
    if (scope.blockers.length > 0 || !scope.recentChange) throw new Error(`context build failed: ${scope.blockers[0]?.message ?? 'no recent change'}`);
  }
  const [first, ...after] = builds;
  history.dispose();
  inference.dispose();
  log(`  context build, 5,000 lines: first in the process ${round(first!)} ms (every line tokenized); after each save p50 ${round(median(after))} ms, p95 ${round(percentile(after, 0.95))} ms`);
  return { context_build_ms: round(median(after)), context_build_first_ms: round(first!) };
}

/** In-app shortcut keydown → the bar's title painted (Element Timing), in the serve shell. */
async function measureBar(root: string, config: string, log: (line: string) => void): Promise<number> {
  const serve = await startServeProcess([root], { FLINT_CONFIG_DIR: config, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
  const { browser, page } = await openFlintPage(serve.url);
  try {
    await page.getByRole('tree', { name: 'Files' }).waitFor();
    const latencies: number[] = [];
    for (let run = 0; run < BAR_RUNS; run += 1) {
      await page.evaluate(CLEAR_BAR_MARKS);
      await page.keyboard.press('Control+Shift+Space');
      const latency = await eventually(() => page.evaluate(READ_BAR_MARK) as Promise<number | undefined>, (value) => value !== undefined, 'the bar to paint');
      latencies.push(latency!);
      await page.keyboard.press('Escape');
      await eventually(() => page.evaluate(`document.querySelector('.ask-bar') === null`) as Promise<boolean>, (closed) => closed, 'the bar to close');
    }
    log(`  in-app shortcut → bar painted: p50 ${round(median(latencies))} ms, p95 ${round(percentile(latencies, 0.95))} ms`);
    return round(percentile(latencies, 0.95));
  } finally {
    await browser.close();
    await serve.stop();
  }
}

/**
 * The shortcut from another app, on a real X desktop: an editor window (titled as VS Code
 * titles its own) has focus, the serve shell gets `flint --ask`'s signal, and Flint reads
 * the focused window while the bar shows. Timed from the signal: the bar painted, and the
 * bar naming the editor's file. Idle, the editor alternates between two files; with
 * `burners` (CPU burners, as `npm run test:loaded` runs them), the focus moves between two
 * editor windows, each on its own file. Either way each run has a new file to find.
 */
async function measureDesktopShortcut(
  root: string,
  config: string,
  log: (line: string) => void,
  { burners = 0 }: { burners?: number } = {},
): Promise<Pick<AskFigures, 'hotkey_to_bar_ms' | 'hotkey_to_focused_file_ms'> & { lookup_ms?: number }> {
  const desktop = await startXDesktop();
  await writeFile(join(root, 'src', 'left.ts'), 'export const left = 1;\n');
  await writeFile(join(root, 'src', 'right.ts'), 'export const right = 1;\n');
  const serve = await startServeProcess([root], { FLINT_CONFIG_DIR: config, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', DISPLAY: desktop.display });
  const { browser, page } = await openFlintPage(serve.url);
  const load = burners > 0 ? startCpuBurners(burners) : null;
  const runs = load ? LOADED_RUNS : BAR_RUNS;
  const how = load ? `, focus moving between two editor windows, ${load.count} CPU burners running` : '';
  // Main's part alone, under the same load: Flint's X11 desktop in this process, asked before each signal.
  const lookup = load ? new X11Desktop({ display: desktop.display, fallback: { focusedWindow: async () => ({ kind: 'unavailable', reason: 'no X connection' }), selection: async () => ({ kind: 'none' }) } }) : null;
  const lookups: number[] = [];
  try {
    await page.getByRole('tree', { name: 'Files' }).waitFor();
    const painted: number[] = [];
    const named: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const file = run % 2 === 0 ? 'left.ts' : 'right.ts';
      await desktop.showEditor(`${file} - project - Visual Studio Code`, load && run % 2 === 1 ? 'second' : 'first');
      if (lookup) lookups.push(await timeLookup(lookup, `${file} - project - Visual Studio Code`));
      await page.evaluate(CLEAR_BAR_MARKS);
      // Installed before the signal (under load an evaluate can take longer than the bar does).
      await page.evaluate(watchFocusedFile(`src/${file}`));
      const sentAt = performance.timeOrigin + performance.now();
      process.kill(serve.child.pid!, 'SIGUSR1');
      const paintedAt = await eventually(() => page.evaluate(READ_BAR_PAINTED_AT) as Promise<number | undefined>, (value) => value !== undefined, 'the bar to paint');
      painted.push(paintedAt! - sentAt);
      const namedAt = await eventually(
        () => page.evaluate('window.__focusedFileAt') as Promise<number | undefined>,
        (value) => value !== undefined,
        `the bar to name src/${file}`,
      ).catch(async (error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}; it shows ${JSON.stringify(await page.evaluate(READ_BAR_TEXT))}`);
      });
      named.push(namedAt! - sentAt);
      await page.keyboard.press('Escape');
      await eventually(() => page.evaluate(`document.querySelector('.ask-bar') === null`) as Promise<boolean>, (closed) => closed, 'the bar to close');
    }
    log(`  desktop shortcut${how} → bar painted: p50 ${round(median(painted))} ms, p95 ${round(percentile(painted, 0.95))} ms`);
    log(`  desktop shortcut${how} → bar names the focused file: p50 ${round(median(named))} ms, p95 ${round(percentile(named, 0.95))} ms, max ${round(Math.max(...named))} ms`);
    if (lookup) log(`  of which the focused window known (X11, ${load!.count} CPU burners running): p50 ${round(median(lookups))} ms, p95 ${round(percentile(lookups, 0.95))} ms, max ${round(Math.max(...lookups))} ms`);
    const figures = { hotkey_to_bar_ms: round(percentile(painted, 0.95)), hotkey_to_focused_file_ms: round(percentile(named, 0.95)) };
    return lookup ? { ...figures, lookup_ms: round(percentile(lookups, 0.95)) } : figures;
  } finally {
    lookup?.dispose();
    await load?.stop();
    await browser.close();
    await serve.stop();
    await desktop.close();
  }
}
