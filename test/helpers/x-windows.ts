/**
 * Top-level windows a test makes on an X display, on a connection of its own, as an app
 * makes its windows: a title (`_NET_WM_NAME` in UTF-8 and/or `WM_NAME`), a class, a
 * process id; mapped, so the window manager (openbox) manages and focuses them; activated
 * as a taskbar does (a `_NET_ACTIVE_WINDOW` message to the root). Each step resolves once
 * the server has it: a focus change once the root's `_NET_ACTIVE_WINDOW` names the window
 * (its PropertyNotify, not a poll). Also owns PRIMARY, for selection tests.
 */
import x11, { type XClient, type XEvent } from 'x11';

export interface TestWindowOptions {
  title: string;
  /** WM_CLASS's class (default "FlintTest"). */
  windowClass?: string;
  /** `_NET_WM_PID` (default: none set). */
  processId?: number;
  /** Which title properties the window sets (default both, as GTK and Qt apps do; old X apps set WM_NAME only). */
  titleIn?: 'both' | 'WM_NAME';
}

export interface TestWindow {
  readonly id: number;
  /** Changes the title; resolves once the server has it. */
  setTitle(title: string): Promise<void>;
  /** Asks the window manager to focus it; resolves once `_NET_ACTIVE_WINDOW` names it. */
  activate(): Promise<void>;
  /** Unmaps and destroys it. */
  destroy(): Promise<void>;
}

export interface TestWindows {
  /** Maps a new window, which the window manager focuses; resolves once `_NET_ACTIVE_WINDOW` names it. */
  open(options: TestWindowOptions): Promise<TestWindow>;
  /**
   * Makes `text` the PRIMARY selection, owned by a window of this connection (answered from
   * here). With `incrChunkBytes`, sent in pieces of that size (ICCCM's INCR), announcing
   * `announcedBytes` (default: the true size) as the lower bound.
   */
  ownSelection(text: Buffer | string, options?: { incrChunkBytes?: number; announcedBytes?: number }): Promise<void>;
  /** PRIMARY requests this connection answered (a selection owner that stops answering: `answerSelection(false)`). */
  answerSelection(answer: boolean): void;
  close(): Promise<void>;
}

/** A raw connection for test code: the client, the root, atoms by name, a round trip, event listeners. */
interface TestConnection {
  client: XClient;
  root: number;
  atom(name: string): Promise<number>;
  sync(): Promise<void>;
  listen(listener: (event: XEvent) => void): () => void;
  close(): Promise<void>;
}

async function connect(display: string): Promise<TestConnection> {
  const { client, root } = await new Promise<{ client: XClient; root: number }>((resolve, reject) => {
    const client = x11.createClient({ display, shm: false, disableBigRequests: true }, (error, opened) => (error ? reject(error) : resolve({ client, root: opened.screen[0]!.root })));
  });
  // Requests about windows that went away (a requestor destroyed mid-transfer) are of no interest.
  client.on('error', () => undefined);
  const listeners = new Set<(event: XEvent) => void>();
  client.on('event', (event) => {
    for (const listener of [...listeners]) listener(event);
  });
  return {
    client,
    root,
    atom: (name) => new Promise<number>((resolve, reject) => client.InternAtom(false, name, (error, value) => (error ? reject(error) : resolve(value), true))),
    sync: () => new Promise<void>((resolve) => client.sync(() => resolve())),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () =>
      new Promise<void>((resolve) => {
        client.stream.on('close', () => resolve());
        client.stream.destroy();
      }),
  };
}

export async function openTestWindows(display: string): Promise<TestWindows> {
  const connection = await connect(display);
  const { client, root } = connection;
  const [activeWindow, netName, wmName, utf8, wmClass, pid] = await Promise.all(['_NET_ACTIVE_WINDOW', '_NET_WM_NAME', 'WM_NAME', 'UTF8_STRING', 'WM_CLASS', '_NET_WM_PID'].map(connection.atom));
  const activeIs = (id: number) =>
    new Promise<boolean>((resolve) => client.GetProperty(0, root, activeWindow!, 0, 0, 1, (error, property) => (resolve(!error && property.data.length >= 4 && property.data.readUInt32LE(0) === id), true)));
  client.ChangeWindowAttributes(root, { eventMask: x11.eventMask.PropertyChange });
  /** Resolves once the root says `id` is active (checked now and after each change of `_NET_ACTIVE_WINDOW`). */
  const untilActive = (id: number) =>
    new Promise<void>((resolve) => {
      const check = async () => {
        if (!(await activeIs(id))) return;
        stop();
        resolve();
      };
      const stop = connection.listen((event) => {
        if (event.name === 'PropertyNotify' && event.wid === root && event.atom === activeWindow) void check();
      });
      void check();
    });
  const setTitle = (id: number, title: string, titleIn: 'both' | 'WM_NAME') => {
    if (titleIn === 'both') client.ChangeProperty(0, id, netName!, utf8!, 8, Buffer.from(title, 'utf8'));
    client.ChangeProperty(0, id, wmName!, 31, 8, Buffer.from(title, 'latin1'));
    return connection.sync();
  };
  const windows = new Set<number>();
  const owner = await selectionOwner(connection);

  return {
    async open(options) {
      const id = client.AllocID();
      client.CreateWindow(id, root, 10 + windows.size * 40, 10 + windows.size * 40, 400, 200, 0, 0, 1, 0, {});
      windows.add(id);
      client.ChangeProperty(0, id, wmClass!, 31, 8, Buffer.from(`flint-test\0${options.windowClass ?? 'FlintTest'}\0`, 'latin1'));
      if (options.processId !== undefined) client.ChangeProperty(0, id, pid!, 6, 32, [options.processId]);
      await setTitle(id, options.title, options.titleIn ?? 'both');
      const focused = untilActive(id);
      client.MapWindow(id);
      await focused;
      return {
        id,
        setTitle: (title) => setTitle(id, title, options.titleIn ?? 'both'),
        async activate() {
          const focused = untilActive(id);
          // Source 2: a pager or taskbar, whose requests openbox always follows.
          client.SendClientMessage(root, id, activeWindow!, 32, [2, 0, 0, 0, 0]);
          await focused;
        },
        async destroy() {
          windows.delete(id);
          client.DestroyWindow(id);
          await connection.sync();
        },
      };
    },
    ownSelection: (text, options) => owner.own(text, options),
    answerSelection: (answer) => owner.answer(answer),
    async close() {
      for (const id of windows) client.DestroyWindow(id);
      owner.dispose();
      await connection.sync();
      await connection.close();
    },
  };
}

/**
 * PRIMARY owned by a window of `connection`, answered as ICCCM says: UTF8_STRING into the
 * requestor's property, TARGETS; in pieces (INCR) when asked to, each piece written once
 * the requestor deleted the last.
 */
async function selectionOwner(connection: TestConnection) {
  const { client, root } = connection;
  const [utf8, targets, incr] = await Promise.all(['UTF8_STRING', 'TARGETS', 'INCR'].map(connection.atom));
  let window = 0;
  let selection: { text: Buffer; incrChunkBytes: number; announcedBytes: number } = { text: Buffer.alloc(0), incrChunkBytes: 0, announcedBytes: 0 };
  let answering = true;
  /** INCR transfers under way, by the requestor's window and property: what is left to send. */
  const transfers = new Map<string, Buffer>();
  const stopRequests = connection.listen((event) => {
    if (event.name !== 'SelectionRequest' || !answering) return;
    const request = event as XEvent & { requestor: number; target: number; property: number };
    let property = request.property;
    if (request.target === utf8 && selection.incrChunkBytes > 0) {
      // The lower bound first; each deletion of the property by the requestor asks for the next piece.
      client.ChangeWindowAttributes(request.requestor, { eventMask: x11.eventMask.PropertyChange });
      client.ChangeProperty(0, request.requestor, property, incr!, 32, [selection.announcedBytes]);
      transfers.set(`${request.requestor}:${property}`, selection.text);
    } else if (request.target === utf8) client.ChangeProperty(0, request.requestor, property, utf8!, 8, selection.text);
    else if (request.target === targets) client.ChangeProperty(0, request.requestor, property, 4, 32, [targets!, utf8!]);
    else property = 0;
    client.SendEvent(request.requestor, 0, 0, { name: 'SelectionNotify', time: 0, requestor: request.requestor, selection: request.selection, target: request.target, property });
  });
  const stopPieces = connection.listen((event) => {
    if (event.name !== 'PropertyNotify' || event.state !== 1) return;
    const key = `${event.wid}:${event.atom}`;
    const left = transfers.get(key);
    if (left === undefined) return;
    const piece = left.subarray(0, selection.incrChunkBytes);
    // The empty piece ends the transfer.
    if (piece.length === 0) transfers.delete(key);
    else transfers.set(key, left.subarray(piece.length));
    client.ChangeProperty(0, event.wid!, event.atom!, utf8!, 8, piece);
  });
  return {
    async own(text: Buffer | string, options: { incrChunkBytes?: number; announcedBytes?: number } = {}) {
      if (window === 0) {
        window = client.AllocID();
        client.CreateWindow(window, root, 0, 0, 1, 1, 0, 0, 2, 0, {});
      }
      const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
      selection = { text: bytes, incrChunkBytes: options.incrChunkBytes ?? 0, announcedBytes: options.announcedBytes ?? bytes.length };
      client.SetSelectionOwner(window, 1, 0);
      await connection.sync();
    },
    answer(answer: boolean) {
      answering = answer;
    },
    dispose() {
      stopRequests();
      stopPieces();
      if (window !== 0) client.DestroyWindow(window);
    },
  };
}

/**
 * Activates the window of process `processId` (an xterm's, by its `_NET_WM_PID`), as a
 * taskbar does; waits for the window to be managed (in `_NET_CLIENT_LIST`) first.
 */
export async function activateWindowOf(display: string, processId: number): Promise<void> {
  const connection = await connect(display);
  const { client, root } = connection;
  try {
    const [clientList, pid, activeWindow] = await Promise.all(['_NET_CLIENT_LIST', '_NET_WM_PID', '_NET_ACTIVE_WINDOW'].map(connection.atom));
    const property = (window: number, name: number) =>
      new Promise<Buffer>((resolve) => client.GetProperty(0, window, name, 0, 0, 4096, (error, value) => (resolve(error ? Buffer.alloc(0) : value.data), true)));
    const words = (data: Buffer) => Array.from({ length: Math.floor(data.length / 4) }, (_, index) => data.readUInt32LE(index * 4));
    const deadline = Date.now() + 20_000;
    for (;;) {
      for (const window of words(await property(root, clientList!))) {
        if (words(await property(window, pid!))[0] !== processId) continue;
        client.SendClientMessage(root, window, activeWindow!, 32, [2, 0, 0, 0, 0]);
        await connection.sync();
        return;
      }
      if (Date.now() > deadline) throw new Error(`no window of process ${processId} on ${display}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    await connection.close();
  }
}
