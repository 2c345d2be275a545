/**
 * The ask bar's figures: shortcut → bar painted in Chromium (the serve shell's in-app
 * shortcut), and main's context build for a 5,000-line current file.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { AskService } from '../../src/main/ask/ask-service';
import { DesktopLookup } from '../../src/main/ask/desktop-lookup';
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
import { CLEAR_BAR_MARKS, READ_BAR_MARK, READ_BAR_PAINTED_AT, watchFocusedFile } from './browser-probes';
import { median, percentile, round } from './statistics';

export interface AskFigures {
  /** The desktop shortcut (with the focused-window lookup in parallel) → the bar painted, p95. */
  hotkey_to_bar_ms: number;
  /** The desktop shortcut → the bar names the focused editor's file (the lookup and the scope), p95. */
  hotkey_to_focused_file_ms: number;
  /** The shortcut pressed inside Flint → the bar painted, p95 (no lookup: Flint has focus). */
  in_app_key_to_bar_ms: number;
  context_build_ms: number;
  /** The first build in a process, when no line has been counted yet. */
  context_build_first_ms: number;
}

const BAR_RUNS = 20;
const BUILD_RUNS = 30;

export async function measureAsk(log: (line: string) => void): Promise<AskFigures> {
  const workspace = await mkdtemp(join(tmpdir(), 'flint-bench-ask-'));
  try {
    await mkdir(join(workspace, 'project', 'src'), { recursive: true });
    const context = await measureContextBuild(join(workspace, 'project'), join(workspace, 'config-build'), log);
    const inApp = await measureBar(join(workspace, 'project'), join(workspace, 'config-bar'), log);
    const desktop = await measureDesktopShortcut(join(workspace, 'project'), join(workspace, 'config-desktop'), log);
    return { ...desktop, in_app_key_to_bar_ms: inApp, ...context };
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

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
    if (scope.blocker || !scope.recentChange) throw new Error(`context build failed: ${scope.blocker?.message ?? 'no recent change'}`);
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
 * bar naming the editor's file. The editor alternates between two files, so each run has
 * a new file to find.
 */
async function measureDesktopShortcut(root: string, config: string, log: (line: string) => void): Promise<Pick<AskFigures, 'hotkey_to_bar_ms' | 'hotkey_to_focused_file_ms'>> {
  const desktop = await startXDesktop();
  await writeFile(join(root, 'src', 'left.ts'), 'export const left = 1;\n');
  await writeFile(join(root, 'src', 'right.ts'), 'export const right = 1;\n');
  const serve = await startServeProcess([root], { FLINT_CONFIG_DIR: config, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent', DISPLAY: desktop.display });
  const { browser, page } = await openFlintPage(serve.url);
  try {
    await page.getByRole('tree', { name: 'Files' }).waitFor();
    const painted: number[] = [];
    const named: number[] = [];
    for (let run = 0; run < BAR_RUNS; run += 1) {
      const file = run % 2 === 0 ? 'left.ts' : 'right.ts';
      await desktop.showEditor(`${file} - project - Visual Studio Code`);
      await page.evaluate(CLEAR_BAR_MARKS);
      const shown = page.evaluate(watchFocusedFile(`src/${file}`)) as Promise<number>;
      const sentAt = performance.timeOrigin + performance.now();
      process.kill(serve.child.pid!, 'SIGUSR1');
      const paintedAt = await eventually(() => page.evaluate(READ_BAR_PAINTED_AT) as Promise<number | undefined>, (value) => value !== undefined, 'the bar to paint');
      painted.push(paintedAt! - sentAt);
      named.push((await shown) - sentAt);
      await page.keyboard.press('Escape');
      await eventually(() => page.evaluate(`document.querySelector('.ask-bar') === null`) as Promise<boolean>, (closed) => closed, 'the bar to close');
    }
    log(`  desktop shortcut → bar painted: p50 ${round(median(painted))} ms, p95 ${round(percentile(painted, 0.95))} ms`);
    log(`  desktop shortcut → bar names the focused file: p50 ${round(median(named))} ms, p95 ${round(percentile(named, 0.95))} ms`);
    return { hotkey_to_bar_ms: round(percentile(painted, 0.95)), hotkey_to_focused_file_ms: round(percentile(named, 0.95)) };
  } finally {
    await browser.close();
    await serve.stop();
    await desktop.close();
  }
}
