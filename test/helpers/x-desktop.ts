/**
 * A real X11 desktop for tests: Xvfb on a free display, openbox (which keeps
 * `_NET_ACTIVE_WINDOW`, as desktop window managers do), an "editor" window — a real
 * Chromium app window, as VS Code's is, whose title the test sets as an editor sets its
 * own — and X's PRIMARY selection, owned by xclip as a selecting app would own it.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface XDesktop {
  /** `:N`, for DISPLAY. */
  display: string;
  env: NodeJS.ProcessEnv;
  /** Opens the editor window (focused) with `title`, or re-titles it; resolves once X reports it focused with that title. */
  showEditor(title: string): Promise<void>;
  /** Makes `text` the PRIMARY selection (as selecting it in an app does); null: nothing selected. */
  select(text: string | null): Promise<void>;
  close(): Promise<void>;
}

export async function startXDesktop(): Promise<XDesktop> {
  const processes: ChildProcess[] = [];
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  processes.push(xvfb);
  let display: string;
  let env: NodeJS.ProcessEnv;
  try {
    display = `:${await displayNumber(xvfb)}`;
    env = { ...process.env, DISPLAY: display };
    delete env.WAYLAND_DISPLAY;
    await startWindowManager(env, processes);
  } catch (error) {
    // Nothing of a desktop that did not start is left running.
    for (const child of processes.reverse()) await stop(child);
    throw error;
  }

  let title = '';
  const server = await titleServer(() => title);
  const profile = await mkdtemp(join(tmpdir(), 'flint-x-editor-'));
  let editor: ChildProcess | null = null;
  let selectionOwner: ChildProcess | null = null;

  return {
    display,
    env,
    async showEditor(next) {
      title = next;
      if (!editor) {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
        editor = spawn('/usr/bin/chromium', ['--no-sandbox', '--no-first-run', '--no-default-browser-check', '--disable-gpu', '--password-store=basic', `--user-data-dir=${profile}`, `--app=${url}`], { env, stdio: 'ignore', detached: true });
        processes.push(editor);
      }
      await until(async () => (await activeTitle(env)) === next, `the editor window focused with the title ${JSON.stringify(next)}`, 20_000);
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
      // The editor first (it would otherwise lose its display and write crash files), Xvfb last.
      for (const child of processes.reverse()) await stop(child);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(profile, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

/** openbox on the display, ready once it announces itself on the root window (its stderr in the error if it dies). */
async function startWindowManager(env: NodeJS.ProcessEnv, processes: ChildProcess[]): Promise<void> {
  const openbox = spawn('openbox', [], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  processes.push(openbox);
  let stderr = '';
  openbox.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await until(async () => {
    if (openbox.exitCode !== null || openbox.signalCode !== null) throw new Error(`openbox exited (${openbox.exitCode ?? openbox.signalCode}): ${stderr.trim()}`);
    return (await xprop(env, ['-root', '_NET_SUPPORTING_WM_CHECK'])).includes('window id');
  }, 'openbox to manage the display');
}

/** The page the editor window shows: it takes its title from the test, as an editor shows the file in it. */
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

/** The focused window's _NET_WM_NAME, as X has it now (decoded by xprop, as UTF-8). */
async function activeTitle(env: NodeJS.ProcessEnv): Promise<string | null> {
  const id = /window id # (0x[0-9a-f]+)/.exec(await xprop(env, ['-root', '_NET_ACTIVE_WINDOW']))?.[1];
  if (!id) return null;
  const name = await xprop({ ...env, LC_ALL: 'C.UTF-8' }, ['-id', id, '_NET_WM_NAME']);
  const quoted = /= "(.*)"$/m.exec(name)?.[1];
  return quoted === undefined ? null : quoted.replace(/\\(["\\])/g, '$1');
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
