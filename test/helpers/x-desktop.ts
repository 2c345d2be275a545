/**
 * A real X11 desktop for tests: Xvfb on a free display, openbox (which keeps
 * `_NET_ACTIVE_WINDOW`, as desktop window managers do), an "editor" window — a real xterm,
 * the terminal vim runs in, whose title the test sets with the escape sequence vim's
 * `set title` writes — a real browser window (a Chromium app window whose page sets its
 * title), and X's PRIMARY selection, owned by xclip as a selecting app would own it.
 *
 * The editor is a terminal and not a Chromium window (as VS Code's is): Flint tells an
 * editor from a browser by the window's owner, and a Chromium window is a browser's.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { activateWindowOf } from './x-windows';

const run = promisify(execFile);

export interface XDesktop {
  /** `:N`, for DISPLAY. */
  display: string;
  env: NodeJS.ProcessEnv;
  /**
   * Focuses an editor window (an xterm, opened on first use; a browser window open is
   * closed first) and sets its title to `title`; resolves once X reports it focused with that
   * title. `window` 'second' is another xterm beside the first (focus moving between two editors).
   */
  showEditor(title: string, window?: EditorWindow): Promise<void>;
  /** Opens a browser window (Chromium) whose page is titled `title`, focused; resolves once X reports it so. */
  showBrowser(title: string): Promise<void>;
  /** Makes `text` the PRIMARY selection (as selecting it in an app does); null: nothing selected. */
  select(text: string | null): Promise<void>;
  close(): Promise<void>;
}

/** Which of the desktop's two editor windows. */
export type EditorWindow = 'first' | 'second';

export async function startXDesktop(): Promise<XDesktop> {
  const processes: ChildProcess[] = [];
  // -noreset: by default Xvfb resets when its last client leaves, and a client connecting during
  // the reset is refused — on a loaded machine openbox, started just after the readiness probe
  // below disconnected, failed "to open the display" in 6 of 60 starts (0 of 100 with -noreset).
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-noreset', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  processes.push(xvfb);
  let display: string;
  let env: NodeJS.ProcessEnv;
  try {
    display = `:${await displayNumber(xvfb)}`;
    env = { ...process.env, DISPLAY: display };
    delete env.WAYLAND_DISPLAY;
    // The server takes connections before openbox is started on it.
    await until(async () => (await xprop(env, ['-root', '_NET_SUPPORTING_WM_CHECK'])).length > 0, 'Xvfb to take connections');
    await startWindowManager(env, processes, xvfb);
  } catch (error) {
    // Nothing of a desktop that did not start is left running.
    for (const child of processes.reverse()) await stop(child);
    throw error;
  }

  let browserTitle = '';
  const server = await titleServer(() => browserTitle);
  const folder = await mkdtemp(join(tmpdir(), 'flint-x-desktop-'));
  const editors = new Map<EditorWindow, { terminal: ChildProcess; titles: string }>();
  let browser: ChildProcess | null = null;
  let selectionOwner: ChildProcess | null = null;

  return {
    display,
    env,
    async showEditor(next, window = 'first') {
      if (browser) {
        // Closed, so the window manager gives the focus back to the editor.
        await stop(browser);
        browser = null;
      }
      let editor = editors.get(window);
      if (!editor) {
        const titles = join(folder, `titles-${window}`);
        await run('mkfifo', [titles]);
        editor = { terminal: startTerminal(env, titles), titles };
        editors.set(window, editor);
        processes.push(editor.terminal);
      }
      await sendTitle(editor.titles, next);
      // The other editor may have the focus: this one is activated, as a click on it in a taskbar does.
      if (editors.size > 1) await activateWindowOf(display, editor.terminal.pid!);
      await until(() => isFocused(env, 'XTerm', next), `the editor window focused with the title ${JSON.stringify(next)}`, 20_000);
    },
    async showBrowser(next) {
      browserTitle = next;
      if (!browser) {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
        browser = spawn('/usr/bin/chromium', ['--no-sandbox', '--no-first-run', '--no-default-browser-check', '--disable-gpu', '--password-store=basic', `--user-data-dir=${join(folder, 'browser')}`, `--app=${url}`], { env, stdio: 'ignore', detached: true });
        processes.push(browser);
      }
      await until(() => isFocused(env, 'Chromium', next), `the browser window focused with the title ${JSON.stringify(next)}`, 20_000);
    },
    async select(text) {
      selectionOwner?.kill();
      selectionOwner = null;
      if (text === null) {
        // A new owner with an empty selection, then gone: PRIMARY has no owner.
        return;
      }
      const owner = spawn('xclip', ['-i', '-selection', 'primary', '-quiet'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
      processes.push(owner);
      owner.stdin!.end(text);
      selectionOwner = owner;
      await until(async () => (await run('xclip', ['-o', '-selection', 'primary'], { env, maxBuffer: 64 * 1024 * 1024 }).then((out) => out.stdout.length > 0).catch(() => false)), 'xclip to own the selection');
    },
    async close() {
      // The windows first (a browser would otherwise lose its display and write crash files), Xvfb last.
      for (const child of processes.reverse()) await stop(child);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(folder, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/**
 * An xterm whose shell sets the window's title to each line written to `titles` (a FIFO),
 * with the escape sequence vim's `set title` sends; UTF-8 titles as they are (utf8Title).
 */
function startTerminal(env: NodeJS.ProcessEnv, titles: string): ChildProcess {
  const loop = `while :; do IFS= read -r title < "$0" || continue; printf '\\033]2;%s\\007' "$title"; done`;
  const args = ['-u8', '-xrm', 'XTerm*utf8Title: true', '-T', 'flint-x-editor', '-e', 'sh', '-c', loop, titles];
  return spawn('xterm', args, { env: { ...env, LC_ALL: 'C.UTF-8' }, stdio: 'ignore' });
}

/** Writes one title line to the terminal's FIFO, once its shell is reading it (a write-only open with no reader fails: retried). */
async function sendTitle(titles: string, title: string): Promise<void> {
  await until(async () => {
    const handle = await open(titles, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => null);
    if (!handle) return false;
    try {
      await handle.write(`${title}\n`);
    } finally {
      await handle.close();
    }
    return true;
  }, 'the editor window to take its title', 20_000);
}

/**
 * openbox on the display, ready once it announces itself on the root window. If it dies,
 * the error carries all it printed (read to the end: its exit can come before its last
 * output) and whether the X server was still up.
 */
async function startWindowManager(env: NodeJS.ProcessEnv, processes: ChildProcess[], xvfb: ChildProcess): Promise<void> {
  const openbox = spawn('openbox', ['--debug'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  processes.push(openbox);
  let output = '';
  const closed = new Promise<void>((resolve) => openbox.once('close', () => resolve()));
  // The last few KB: --debug keeps talking for as long as the desktop lives.
  for (const stream of [openbox.stdout!, openbox.stderr!]) stream.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8192)));
  await until(async () => {
    if (openbox.exitCode !== null || openbox.signalCode !== null) {
      await closed;
      const server = xvfb.exitCode === null && xvfb.signalCode === null ? 'Xvfb was running' : `Xvfb had exited (${xvfb.exitCode ?? xvfb.signalCode})`;
      throw new Error(`openbox exited (${openbox.exitCode ?? openbox.signalCode}) on ${env.DISPLAY}; ${server}; it printed: ${output.trim().split('\n').slice(-20).join('\n')}`);
    }
    return (await xprop(env, ['-root', '_NET_SUPPORTING_WM_CHECK'])).includes('window id');
  }, 'openbox to manage the display');
}

/** The page the browser window shows: it takes its title from the test, as a page sets its own. */
function titleServer(title: () => string): Promise<Server> {
  const page = `<!doctype html><meta charset="utf-8"><title>…</title><script>
    setInterval(async () => { const next = await (await fetch('/title')).text(); if (document.title !== next) document.title = next; }, 30);
  </script>`;
  const server = createServer((request, response) => {
    response.setHeader('content-type', request.url === '/title' ? 'text/plain; charset=utf-8' : 'text/html; charset=utf-8');
    response.end(request.url === '/title' ? title() : page);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Xvfb writes the display number it took to fd 3 once it is ready for clients. */
function displayNumber(xvfb: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const pipe = xvfb.stdio[3] as NodeJS.ReadableStream;
    pipe.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    xvfb.on('error', (error) => reject(new Error(`Xvfb could not start (is the xvfb package installed?): ${error.message}`)));
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready`)));
  });
}

async function xprop(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  return (await run('xprop', args, { env }).catch(() => ({ stdout: '' }))).stdout;
}

/**
 * Whether the focused window is `windowClass`'s (WM_CLASS: the editor and the browser may
 * show the same title) with the _NET_WM_NAME `title`, as X has them now (decoded by xprop, as UTF-8).
 */
async function isFocused(env: NodeJS.ProcessEnv, windowClass: 'XTerm' | 'Chromium', title: string): Promise<boolean> {
  const id = /window id # (0x[0-9a-f]+)/.exec(await xprop(env, ['-root', '_NET_ACTIVE_WINDOW']))?.[1];
  if (!id) return false;
  const properties = await xprop({ ...env, LC_ALL: 'C.UTF-8' }, ['-id', id, '_NET_WM_NAME', 'WM_CLASS']);
  const name = /^_NET_WM_NAME\(UTF8_STRING\) = "(.*)"$/m.exec(properties)?.[1]?.replace(/\\(["\\])/g, '$1');
  return name === title && new RegExp(`^WM_CLASS\\(STRING\\) = .*"${windowClass}"$`, 'm').test(properties);
}

/** Kills a child and waits for it to be gone. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    // Chromium's helpers (zygote, renderers) share its process group: they go with it.
    if (child.spawnargs[0] === '/usr/bin/chromium' && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  });
}

/** Polls an async condition until it holds. */
async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
