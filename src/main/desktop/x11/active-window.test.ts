/**
 * What a press answers when the desktop changes around it, against a scripted X connection
 * whose replies the test releases one by one (the real server's timing cannot be forced;
 * x11-desktop.x11.test.ts covers the follower on a real one).
 */
import { describe, expect, it } from 'vitest';
import type { XConnection, XEvent, XProperty } from './x-connection';
import { ActiveWindowFollower } from './active-window';

const ROOT = 1;
const ATOMS: Record<string, number> = { _NET_ACTIVE_WINDOW: 100, _NET_WM_NAME: 101, WM_NAME: 102, UTF8_STRING: 103, WM_CLASS: 104, _NET_WM_PID: 105 };

/** A desktop of windows (id → title), its replies held until `release()` when `holding`. */
function scriptedDesktop() {
  const titles = new Map<number, string>([[10, 'app.ts - VIM']]);
  let active = 10;
  let onEvent: (event: XEvent) => void = () => undefined;
  const held: Array<{ kind: 'sync' | 'property'; send: () => void }> = [];
  let holding = false;
  const reply = <T>(kind: 'sync' | 'property', value: () => T): Promise<T> =>
    new Promise((resolve) => (holding ? held.push({ kind, send: () => resolve(value()) }) : resolve(value())));
  const word = (value: number): XProperty => {
    const data = Buffer.alloc(4);
    data.writeUInt32LE(value);
    return { type: 6, format: 32, bytesAfter: 0, data };
  };
  const text = (value: string): XProperty => ({ type: ATOMS.UTF8_STRING!, format: 8, bytesAfter: 0, data: Buffer.from(value) });
  const connection = {
    root: ROOT,
    isClosed: false,
    atom: async (name: string) => ATOMS[name]!,
    selectEvents: async () => true,
    onEvent: (listener: (event: XEvent) => void) => ((onEvent = listener), { dispose: () => undefined }),
    sync: () => reply('sync', () => undefined),
    getProperty: (window: number, property: number) =>
      reply('property', () => {
        if (window === ROOT) return word(active);
        if (property === ATOMS._NET_WM_NAME || property === ATOMS.WM_NAME) return text(titles.get(window) ?? '');
        return property === ATOMS._NET_WM_PID ? word(0) : text('XTerm');
      }),
  } as unknown as XConnection;
  return {
    connection,
    hold: () => (holding = true),
    /** Replies flow again, the held ones first. */
    flow: async () => {
      holding = false;
      while (held.length > 0) held.shift()!.send();
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** Lets the oldest held reply of `kind` through, and what it started run. */
    release: async (kind: 'sync' | 'property') => {
      const index = held.findIndex((reply) => reply.kind === kind);
      if (index !== -1) held.splice(index, 1)[0]!.send();
      await new Promise((resolve) => setImmediate(resolve));
    },
    setTitle: (window: number, title: string) => {
      titles.set(window, title);
      onEvent({ type: 28, name: 'PropertyNotify', wid: window, atom: ATOMS._NET_WM_NAME!, state: 0 });
    },
    activate: (window: number, title: string) => {
      titles.set(window, title);
      active = window;
      onEvent({ type: 28, name: 'PropertyNotify', wid: ROOT, atom: ATOMS._NET_ACTIVE_WINDOW!, state: 0 });
    },
  };
}

describe('ActiveWindowFollower.current', () => {
  it('answers with the window as it was at the press, not one activated while a read was under way', async () => {
    const desktop = scriptedDesktop();
    const follower = await ActiveWindowFollower.start(desktop.connection);
    expect(await follower.current()).toMatchObject({ kind: 'window', title: 'app.ts - VIM' });
    desktop.hold();
    // vim switches files: its title is being read when the shortcut is pressed…
    desktop.setTitle(10, 'index.ts - VIM');
    const answer = follower.current();
    // The press's round trip comes back: the title change is all the server had told of.
    await desktop.release('sync');
    // …and right after the press, Flint's own window is activated, before the title's read is done.
    desktop.activate(20, 'Flint');
    for (let step = 0; step < 8; step += 1) await desktop.release('property');
    expect(await answer).toMatchObject({ kind: 'window', title: 'index.ts - VIM' });
    // The next press sees Flint's window: the change was not lost, only not the answer.
    await desktop.flow();
    expect(await follower.current()).toMatchObject({ kind: 'window', title: 'Flint' });
    follower.dispose();
  });
});
