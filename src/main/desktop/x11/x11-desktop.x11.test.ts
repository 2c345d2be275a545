/**
 * Flint's X connection on a real X server (Xvfb, openbox): the focused window and its title
 * followed from the server's events, PRIMARY read on the same connection (pieces, cap,
 * silence), and the connection lost and found again. The windows are made by the test on a
 * connection of its own (x-windows.ts), as apps make theirs; selections of 10 MB come from
 * xclip, a real selection owner.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { useXDesktop } from '../../../../test/helpers/x-desktop-hooks';
import { openTestWindows, type TestWindows } from '../../../../test/helpers/x-windows';
import { createMemoryLogger } from '../../logger';
import type { FocusedWindow } from '../focused-window';
import { MAX_SELECTION_BYTES, type SelectionRead } from '../primary-selection';
import type { FollowerState } from './follower-state';
import { X11Desktop } from './x11-desktop';

const FALLBACK_WINDOW: FocusedWindow = { kind: 'unavailable', reason: 'read the old way' };
const FALLBACK_SELECTION: SelectionRead = { kind: 'unavailable', reason: 'read with xclip' };

describe('the focused window and the selection on one X connection', () => {
  const xDesktop = useXDesktop();
  const opened: Array<{ dispose(): void } | TestWindows> = [];
  let fallbackReads = 0;

  const follow = (display = xDesktop().display, logger = createMemoryLogger()) => {
    const desktop = new X11Desktop({
      display,
      logger,
      fallback: {
        focusedWindow: async () => (fallbackReads++, FALLBACK_WINDOW),
        selection: async () => FALLBACK_SELECTION,
      },
    });
    opened.push(desktop);
    return desktop;
  };
  const windows = async () => {
    const made = await openTestWindows(xDesktop().display);
    opened.push(made);
    return made;
  };

  afterEach(async () => {
    for (const item of opened.splice(0).reverse()) await ('close' in item ? item.close() : item.dispose());
    fallbackReads = 0;
  });

  it('names the window focus moved to, from the server’s event, and at once after the move', async () => {
    const desktop = follow();
    const made = await windows();
    const left = await made.open({ title: 'left.ts (~/src) - Geany', windowClass: 'Geany', processId: process.pid });
    await untilState(desktop, 'following');
    expect(await desktop.focusedWindow()).toEqual({ kind: 'window', title: 'left.ts (~/src) - Geany', ownerName: 'Geany', processId: process.pid, ownerPath: process.execPath });

    // Another window takes the focus: its PropertyNotify brings the new title into memory.
    const named = untilWindow(desktop, 'right.ts - Mousepad');
    const right = await made.open({ title: 'right.ts - Mousepad', windowClass: 'Mousepad' });
    await named;
    // A press right after the move names it: nothing the server sent before it is left unread.
    await left.activate();
    expect(await desktop.focusedWindow()).toMatchObject({ kind: 'window', title: 'left.ts (~/src) - Geany' });
    await right.activate();
    expect(await desktop.focusedWindow()).toMatchObject({ kind: 'window', title: 'right.ts - Mousepad', ownerName: 'Mousepad', processId: 0 });
    expect(fallbackReads).toBe(0);
  });

  it('follows the active window’s title, and only the active window’s', async () => {
    const desktop = follow();
    const made = await windows();
    const back = await made.open({ title: 'notes.md - Geany', windowClass: 'Geany' });
    const editor = await made.open({ title: 'app.ts + (~/p) - VIM', windowClass: 'XTerm' });
    await untilState(desktop, 'following');
    const changed = untilWindow(desktop, 'server.py (~/p) - VIM');
    await editor.setTitle('server.py (~/p) - VIM');
    await changed;
    // The window behind changes its title: the focused one is still the editor.
    await back.setTitle('todo.md - Geany');
    await editor.setTitle('● café.ts — projet — VIM');
    expect(await desktop.focusedWindow()).toMatchObject({ title: '● café.ts — projet — VIM' });
    // A window that sets only WM_NAME (Latin-1), as old X apps do.
    const old = await made.open({ title: 'résumé.txt - xedit', titleIn: 'WM_NAME', windowClass: 'Xedit' });
    expect(await desktop.focusedWindow()).toMatchObject({ title: 'résumé.txt - xedit', ownerName: 'Xedit' });
    await old.destroy();
    await back.activate();
    expect(await desktop.focusedWindow()).toMatchObject({ title: 'todo.md - Geany' });
  });

  it('reads PRIMARY on the same connection: none, text, text in pieces, and never more than 1 MB', async () => {
    const desktop = follow();
    await untilState(desktop, 'following');
    await xDesktop().select(null);
    expect(await desktop.selection()).toEqual({ kind: 'none' });
    const made = await windows();
    await made.ownSelection('  let sum = 0;\n  for (const item of items) sum += item.price;');
    expect(await desktop.selection()).toEqual({ kind: 'text', text: '  let sum = 0;\n  for (const item of items) sum += item.price;' });
    // 300 KB in 64 KB pieces (INCR), UTF-8 kept whole across the pieces' edges.
    const large = 'é — ✓ '.repeat(30_000);
    await made.ownSelection(large, { incrChunkBytes: 64 * 1024 });
    expect(await desktop.selection()).toEqual({ kind: 'text', text: large });
    // Pieces past the cap: the read stops there, whatever size was announced.
    await made.ownSelection('x'.repeat(MAX_SELECTION_BYTES + 200_000), { incrChunkBytes: 128 * 1024, announcedBytes: 1000 });
    const piecesTooLarge = await desktop.selection();
    expect(piecesTooLarge.kind === 'too-large' && piecesTooLarge.bytes > MAX_SELECTION_BYTES).toBe(true);
    // A transfer announced larger than the cap is not started.
    await made.ownSelection('x'.repeat(2000), { incrChunkBytes: 1000, announcedBytes: 50 * 1024 * 1024 });
    expect(await desktop.selection()).toEqual({ kind: 'too-large', bytes: 50 * 1024 * 1024 });
    // An owner that never answers: the read gives up, the next read works.
    made.answerSelection(false);
    expect(await desktop.selection()).toEqual({ kind: 'unavailable', reason: 'The selection’s owner did not answer in time.' });
    made.answerSelection(true);
    await made.ownSelection('back');
    expect(await desktop.selection()).toEqual({ kind: 'text', text: 'back' });
  });

  it('stops reading a 10 MB selection from a real owner (xclip) past 1 MB, and says it is too large', async () => {
    const desktop = follow();
    await untilState(desktop, 'following');
    await xDesktop().select('x'.repeat(10 * 1024 * 1024));
    const read = await desktop.selection();
    // xclip sends it in pieces without announcing a size: the read stops once they pass the cap.
    expect(read.kind === 'too-large' && read.bytes > MAX_SELECTION_BYTES).toBe(true);
    await xDesktop().select('  return total;');
    expect(await desktop.selection()).toEqual({ kind: 'text', text: '  return total;' });
    await xDesktop().select(null);
  });

  it('without an X server, says why and reads the old way; follows once there is one, and again after it restarted', async () => {
    const logger = createMemoryLogger();
    // A display far from those Xvfb -displayfd picks (the lowest free): no other test takes it while it is down.
    const server = await startXvfbAbove(500 + (process.pid % 400));
    const display = `:${server.number}`;
    try {
      server.stop();
      await server.gone;
      const desktop = follow(display, logger);
      await untilState(desktop, 'lost');
      expect(logger.lines).toContainEqual(expect.stringMatching(new RegExp(`^info: focused window: no X connection to ${display} \\(could not connect to ${display}: .+\\); it is read with xprop at each press`)));
      expect(await desktop.focusedWindow()).toEqual(FALLBACK_WINDOW);
      expect(await desktop.selection()).toEqual(FALLBACK_SELECTION);

      const restarted = await startXvfb(server.number);
      try {
        await untilState(desktop, 'following');
        // No window manager on this server: nothing is active.
        expect(await desktop.focusedWindow()).toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('_NET_ACTIVE_WINDOW is unset') });
        restarted.stop();
        await untilState(desktop, 'lost');
        expect(await desktop.focusedWindow()).toEqual(FALLBACK_WINDOW);
      } finally {
        restarted.stop();
        await restarted.gone;
      }
      const again = await startXvfb(server.number);
      try {
        await untilState(desktop, 'following');
        expect(logger.lines.filter((line) => line.includes(`following it on ${display}`))).toHaveLength(2);
      } finally {
        again.stop();
        await again.gone;
      }
    } finally {
      server.stop();
    }
  });
});

/** Resolves once the desktop is in `kind` (now or after a change). */
function untilState(desktop: X11Desktop, kind: FollowerState['kind']): Promise<void> {
  return new Promise((resolve) => {
    if (desktop.state.kind === kind) return resolve();
    const listening = desktop.onDidChangeState((state) => {
      if (state.kind !== kind) return;
      listening.dispose();
      resolve();
    });
  });
}

/** Resolves when the desktop reports, from an event, that the focused window's title is `title`. */
function untilWindow(desktop: X11Desktop, title: string): Promise<FocusedWindow> {
  return new Promise((resolve) => {
    const listening = desktop.onDidChangeWindow((window) => {
      if (window.kind !== 'window' || window.title !== title) return;
      listening.dispose();
      resolve(window);
    });
  });
}

interface Xvfb {
  number: number;
  stop(): void;
  gone: Promise<void>;
}

/** A bare Xvfb on the first free display from `first` on. */
async function startXvfbAbove(first: number): Promise<Xvfb> {
  for (let number = first; ; number += 1) {
    const started = await startXvfb(number).catch(() => null);
    if (started) return started;
    if (number > first + 50) throw new Error(`no free X display from :${first} to :${number}`);
  }
}

/** A bare Xvfb (no window manager) on display `number`; rejects if that display is taken. */
async function startXvfb(number: number): Promise<Xvfb> {
  const child: ChildProcess = spawn('Xvfb', [`:${number}`, '-displayfd', '3', '-screen', '0', '640x480x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<number>((resolve, reject) => {
    let text = '';
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(Number(text.trim()));
    });
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready`)));
    child.once('error', reject);
  });
  return { number: ready, stop: () => void child.kill('SIGTERM'), gone };
}
