/**
 * The focused window, kept in memory by following the X server's events: the window
 * manager's `_NET_ACTIVE_WINDOW` on the root window (which window has focus) and the
 * active window's `_NET_WM_NAME` / `WM_NAME` (its title: vim's `set title`, an editor
 * switching files). When the shortcut fires, the title is already here; `current()` only
 * makes sure no event the server sent before the press is still unread (one round trip to
 * the X server, never to another app).
 *
 * Events are not queued one by one: a change marks what to re-read, and one reader runs
 * while anything is marked (a title that changes 60 times a second costs a few reads, not 60).
 */
import { readlink } from 'node:fs/promises';
import type { FocusedWindow } from '../focused-window';
import { Emitter, type Disposable, type Event } from '../../lifecycle';
import { X, type XConnection, type XEvent, type XProperty } from './x-connection';

/** A title longer than this is cut (no editor's is; a window could set megabytes). */
const MAX_TITLE_BYTES = 64 * 1024;

/** `current()` waits at most this long for the server's round trip, then answers with what it has. */
const CURRENT_WITHIN_MS = 250;

export const NO_ACTIVE_WINDOW: FocusedWindow = {
  kind: 'unavailable',
  reason: 'No window has focus (or the window manager does not say which: _NET_ACTIVE_WINDOW is unset).',
};

interface Atoms {
  activeWindow: number;
  netName: number;
  name: number;
  utf8: number;
  windowClass: number;
  pid: number;
}

export class ActiveWindowFollower implements Disposable {
  private readonly _onDidChange = new Emitter<FocusedWindow>();
  /** Fires when the focused window or its title changed (after the new one is read). */
  readonly onDidChange: Event<FocusedWindow> = this._onDidChange.event;
  private window: FocusedWindow = NO_ACTIVE_WINDOW;
  /** The window whose title is followed (0: none). */
  private windowId = 0;
  private dirty = { active: false, title: false };
  /** Changes marked so far, and how many of them the window in memory has read. */
  private marks = 0;
  private readThrough = 0;
  /** Presses waiting for the changes marked before them to be read: each gets the window as of then. */
  private waiters: Array<{ upTo: number; resolve: (window: FocusedWindow) => void }> = [];
  private reading: Promise<void> | null = null;
  private readonly listening: Disposable;
  private readonly ownerPaths = new Map<string, Promise<string | undefined>>();

  private constructor(
    private readonly connection: XConnection,
    private readonly atoms: Atoms,
  ) {
    this.listening = connection.onEvent((event) => this.handle(event));
  }

  /** Starts following on `connection`; resolves once the focused window is known. */
  static async start(connection: XConnection): Promise<ActiveWindowFollower> {
    const [activeWindow, netName, name, utf8, windowClass, pid] = await Promise.all(
      ['_NET_ACTIVE_WINDOW', '_NET_WM_NAME', 'WM_NAME', 'UTF8_STRING', 'WM_CLASS', '_NET_WM_PID'].map((atom) => connection.atom(atom)),
    );
    const follower = new ActiveWindowFollower(connection, { activeWindow: activeWindow!, netName: netName!, name: name!, utf8: utf8!, windowClass: windowClass!, pid: pid! });
    // Root first, then the first read: a change in between is an event, not a miss.
    await connection.selectEvents(connection.root, X.propertyChangeMask);
    follower.mark('active');
    await follower.reading;
    return follower;
  }

  /**
   * The focused window as the X server has it now: every event it sent before this call is
   * read first (bounded: a server slower than CURRENT_WITHIN_MS gets the window last read).
   */
  async current(): Promise<FocusedWindow> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), CURRENT_WITHIN_MS)));
    try {
      return (await Promise.race([this.caughtUp(), late])) ?? this.window;
    } catch {
      // The connection went away: what was read last is still the best answer.
      return this.window;
    } finally {
      clearTimeout(timer);
    }
  }

  dispose(): void {
    this.answerWaiters(true);
    this.listening.dispose();
    this._onDidChange.dispose();
    this.windowId = 0;
  }

  /**
   * The window once every change the server told of before the round trip is read, and
   * none after: Flint's own window, activated a moment after the press, is not the answer.
   */
  private async caughtUp(): Promise<FocusedWindow> {
    await this.connection.sync();
    // Events read before the round trip's reply have marked what to re-read by now.
    const upTo = this.marks;
    if (this.readThrough >= upTo) return this.window;
    return new Promise((resolve) => this.waiters.push({ upTo, resolve }));
  }

  /** Answers the presses whose changes are read (all of them once reading stops, with what it has). */
  private answerWaiters(all: boolean): void {
    if (this.waiters.length === 0) return;
    const waiting = this.waiters;
    this.waiters = [];
    for (const waiter of waiting) {
      if (all || waiter.upTo <= this.readThrough) waiter.resolve(this.window);
      else this.waiters.push(waiter);
    }
  }

  private handle(event: XEvent): void {
    if (event.name !== 'PropertyNotify') return;
    if (event.wid === this.connection.root && event.atom === this.atoms.activeWindow) this.mark('active');
    else if (event.wid === this.windowId && this.windowId !== 0 && (event.atom === this.atoms.netName || event.atom === this.atoms.name)) this.mark('title');
  }

  private mark(what: 'active' | 'title'): void {
    this.dirty[what] = true;
    this.marks += 1;
    if (this.reading) return;
    this.reading = this.readWhileDirty()
      .catch(() => undefined)
      .finally(() => {
        this.reading = null;
        this.answerWaiters(true);
      });
  }

  private async readWhileDirty(): Promise<void> {
    while ((this.dirty.active || this.dirty.title) && !this.connection.isClosed) {
      const previous = this.window;
      // A read covers every change marked before it starts.
      const covers = this.marks;
      if (this.dirty.active) {
        this.dirty = { active: false, title: false };
        await this.readActive();
      } else {
        this.dirty.title = false;
        await this.readTitle();
      }
      this.readThrough = covers;
      this.answerWaiters(false);
      if (!sameWindow(previous, this.window)) this._onDidChange.fire(this.window);
    }
  }

  /** Which window is active; follows its title from now on, and reads all of it. */
  private async readActive(): Promise<void> {
    const { connection, atoms } = this;
    const active = await connection.getProperty(connection.root, atoms.activeWindow, { maxBytes: 4 });
    const id = active && active.format === 32 && active.data.length >= 4 ? active.data.readUInt32LE(0) : 0;
    if (id !== this.windowId) {
      // Stop hearing the old window's changes (it may be gone: then there is nothing to stop).
      if (this.windowId !== 0) void connection.selectEvents(this.windowId, 0).catch(() => undefined);
      this.windowId = id;
      // Before its properties are read: a title set after the read is then an event.
      if (id !== 0 && !(await connection.selectEvents(id, X.propertyChangeMask))) this.windowId = 0;
    }
    if (this.windowId === 0) {
      this.window = NO_ACTIVE_WINDOW;
      return;
    }
    const window = this.windowId;
    const [title, windowClass, pid] = await Promise.all([this.readTitleOf(window), connection.getProperty(window, atoms.windowClass, { maxBytes: 4096 }), connection.getProperty(window, atoms.pid, { maxBytes: 4 })]);
    if (window !== this.windowId) return;
    if (title === null) {
      // Closed between the two reads: the window manager names the next one (an event).
      this.window = { kind: 'unavailable', reason: 'The focused window closed.' };
      return;
    }
    const processId = pid && pid.format === 32 && pid.data.length >= 4 ? pid.data.readUInt32LE(0) : 0;
    const ownerPath = processId > 0 ? await this.ownerPath(window, processId) : undefined;
    if (window !== this.windowId) return;
    this.window = { kind: 'window', title, ownerName: classOf(windowClass), processId, ...(ownerPath ? { ownerPath } : {}) };
  }

  private async readTitle(): Promise<void> {
    const window = this.windowId;
    if (window === 0 || this.window.kind !== 'window') return;
    const title = await this.readTitleOf(window);
    if (window !== this.windowId || this.window.kind !== 'window') return;
    if (title === null) this.window = { kind: 'unavailable', reason: 'The focused window closed.' };
    else this.window = { ...this.window, title };
  }

  /** `_NET_WM_NAME` (UTF-8) where the window sets it, else `WM_NAME`; null when the window is gone. */
  private async readTitleOf(window: number): Promise<string | null> {
    const [netName, name] = await Promise.all([
      this.connection.getProperty(window, this.atoms.netName, { maxBytes: MAX_TITLE_BYTES, type: this.atoms.utf8 }),
      this.connection.getProperty(window, this.atoms.name, { maxBytes: MAX_TITLE_BYTES }),
    ]);
    if (netName === null || name === null) return null;
    if (netName.type === this.atoms.utf8 && netName.data.length > 0) return netName.data.toString('utf8');
    return textOf(name, this.atoms.utf8);
  }

  /**
   * The executable of `processId` (as get-windows reads it: /proc/<pid>/exe), asked once per
   * window: a window keeps its process, and a process id reused later belongs to new windows.
   */
  private ownerPath(window: number, processId: number): Promise<string | undefined> {
    const key = `${window}:${processId}`;
    let path = this.ownerPaths.get(key);
    if (!path) {
      if (this.ownerPaths.size > 256) this.ownerPaths.clear();
      path = readlink(`/proc/${processId}/exe`).catch(() => undefined);
      this.ownerPaths.set(key, path);
    }
    return path;
  }
}

/** A text property: UTF8_STRING as UTF-8; STRING (and COMPOUND_TEXT's ASCII) as Latin-1. */
function textOf(property: XProperty, utf8Atom: number): string {
  if (property.type === X.none || property.format !== 8) return '';
  return property.data.toString(property.type === utf8Atom ? 'utf8' : 'latin1');
}

/** WM_CLASS is two NUL-terminated strings, instance then class ("xterm\0XTerm\0"): the last, as get-windows gives it. */
function classOf(property: XProperty | null): string {
  if (!property || property.format !== 8) return '';
  return property.data.toString('latin1').split('\0').filter((part) => part !== '').at(-1) ?? '';
}

function sameWindow(a: FocusedWindow, b: FocusedWindow): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'unavailable' || b.kind === 'unavailable') return a.kind === 'unavailable' && b.kind === 'unavailable' && a.reason === b.reason;
  return a.title === b.title && a.processId === b.processId && a.ownerName === b.ownerName && a.ownerPath === b.ownerPath;
}
