/**
 * One connection to the X server, with the few requests Flint makes, as promises: atoms,
 * properties, event selection, a requestor window for the selection, a round-trip barrier.
 * Built on the `x11` package (node-x11: the X protocol in plain JavaScript, no child
 * process, no native code). Once the connection closes, every request still waiting is
 * rejected and `onDidClose` fires once: the owner decides whether to open another.
 */
import type { XClient, XError, XEvent, XProperty } from 'x11';
import { Emitter, type Disposable, type Event } from '../../lifecycle';

export type { XEvent, XProperty } from 'x11';

/** Core protocol numbers Flint uses (X11 protocol, "Encoding"). */
export const X = {
  /** AnyPropertyType, None, CurrentTime. */
  anyType: 0,
  none: 0,
  currentTime: 0,
  /** Predefined atoms. */
  atomPrimary: 1,
  atomString: 31,
  /** The core error a request about a window that is gone gets. */
  badWindow: 3,
  /** InputOnly window class. */
  inputOnly: 2,
  /** PropertyNotify state: a new value (0) or deleted (1). */
  newValue: 0,
  /** Event masks. */
  propertyChangeMask: 0x00400000,
} as const;

/** Opening gives up after this: a display that accepts the socket but never answers the setup. */
const CONNECT_TIMEOUT_MS = 5_000;

export class XConnection implements Disposable {
  private readonly _onDidClose = new Emitter<string>();
  /** Fires once, with why, when the connection is gone (the server quit, the socket broke, or `dispose`). */
  readonly onDidClose: Event<string> = this._onDidClose.event;
  private readonly _onEvent = new Emitter<XEvent>();
  /** Every core event the server sends this connection. */
  readonly onEvent: Event<XEvent> = this._onEvent.event;
  private readonly atoms = new Map<string, Promise<number>>();
  private readonly waiting = new Set<(reason: Error) => void>();
  private closedBecause: string | null = null;

  private constructor(
    private readonly client: XClient,
    /** The first screen's root window. */
    readonly root: number,
    /** The display, as DISPLAY names it (`:0`). */
    readonly display: string,
  ) {
    client.on('event', (event) => this._onEvent.fire(event));
    // Errors of requests that said they handle them never get here; the rest are not fatal to the connection.
    client.on('error', (error) => {
      if (error.error === undefined) this.closed(`the connection failed: ${error.message}`);
    });
    client.on('end', () => this.closed('the X server closed the connection'));
    client.stream.on('close', () => this.closed('the connection to the X server closed'));
  }

  /** Connects to `display` (`:0`, `host:0`); rejects with why it could not. */
  static async open(display: string): Promise<XConnection> {
    const { default: x11 } = await import('x11');
    return new Promise((resolve, reject) => {
      let settled = false;
      let client: XClient | null = null;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        client?.stream?.destroy();
        reject(new Error(`${display} did not answer within ${CONNECT_TIMEOUT_MS / 1000} s`));
      }, CONNECT_TIMEOUT_MS);
      timer.unref();
      const done = (error: XError | undefined, root: number): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error || !client) reject(new Error(`could not connect to ${display}: ${error?.message ?? 'no client'}`));
        else resolve(new XConnection(client, root, display));
      };
      try {
        client = x11.createClient({ display, shm: false, disableBigRequests: true }, (error, opened) => done(error, opened?.screen[0]?.root ?? 0));
        // Until setup ends, a failing socket reports through the callback; this keeps a late one from being unhandled.
        client.on('error', () => undefined);
      } catch (error) {
        // A DISPLAY the package cannot parse.
        done(error instanceof Error ? error : new Error(String(error)), 0);
      }
    });
  }

  get isClosed(): boolean {
    return this.closedBecause !== null;
  }

  /** The atom named `name`, created if need be; asked once per connection. */
  atom(name: string): Promise<number> {
    let atom = this.atoms.get(name);
    if (!atom) {
      atom = this.request<number>((callback) => this.client.InternAtom(false, name, callback));
      this.atoms.set(name, atom);
    }
    return atom;
  }

  /**
   * Reads at most `maxBytes` of a property (`remove`: delete it once read whole); null when
   * the window is gone. `type` X.anyType takes whatever type it has.
   */
  getProperty(window: number, property: number, options: { maxBytes: number; remove?: boolean; type?: number }): Promise<XProperty | null> {
    const words = Math.ceil(options.maxBytes / 4);
    return this.request<XProperty>((callback) => this.client.GetProperty(options.remove ? 1 : 0, window, property, options.type ?? X.anyType, 0, words, callback)).catch(
      (error: unknown) => {
        if ((error as XError).error === X.badWindow) return null;
        throw error;
      },
    );
  }

  /** Asks for `mask`'s events of `window` (0: none); false when the window is gone. */
  selectEvents(window: number, mask: number): Promise<boolean> {
    return this.request<void>((callback) => this.client.ChangeWindowAttributes(window, { eventMask: mask }, callback)).then(
      () => true,
      (error: unknown) => {
        if ((error as XError).error === X.badWindow) return false;
        throw error;
      },
    );
  }

  /** A new unmapped InputOnly window of Flint's, reporting its property changes (a selection's requestor). */
  createRequestorWindow(): number {
    const id = this.client.AllocID();
    this.client.CreateWindow(id, this.root, 0, 0, 1, 1, 0, 0, X.inputOnly, 0, { eventMask: X.propertyChangeMask });
    return id;
  }

  destroyWindow(window: number): void {
    if (this.isClosed) return;
    this.client.DestroyWindow(window, () => true);
    this.client.ReleaseID(window);
  }

  deleteProperty(window: number, property: number): void {
    if (!this.isClosed) this.client.DeleteProperty(window, property);
  }

  /** Asks `selection`'s owner to put it, as `target`, into `property` of `requestor` (a SelectionNotify follows). */
  convertSelection(requestor: number, selection: number, target: number, property: number): void {
    if (!this.isClosed) this.client.ConvertSelection(requestor, selection, target, property, X.currentTime);
  }

  /** A round trip: resolves once the server has handled every request sent before, and its events before it arrived. */
  sync(): Promise<void> {
    return this.request<void>((callback) => this.client.sync((error) => callback(error, undefined)));
  }

  dispose(): void {
    if (this.isClosed) return;
    this.closed('closed by Flint');
    // At once, not after a round trip: a server that stopped answering must not keep the socket (and the process) alive.
    this.client.stream.destroy();
  }

  private closed(reason: string): void {
    if (this.closedBecause !== null) return;
    this.closedBecause = reason;
    const error = new Error(`X connection to ${this.display} closed: ${reason}`);
    for (const reject of [...this.waiting]) reject(error);
    this.waiting.clear();
    this._onDidClose.fire(reason);
    this._onDidClose.dispose();
    this._onEvent.dispose();
  }

  /** Sends one request; its reply (or error) settles the promise, and so does the connection closing. */
  private request<T>(send: (callback: (error: XError | null | undefined, value: T) => boolean) => void): Promise<T> {
    if (this.closedBecause !== null) return Promise.reject(new Error(`X connection to ${this.display} closed: ${this.closedBecause}`));
    return new Promise<T>((resolve, reject) => {
      const fail = (reason: Error): void => reject(reason);
      this.waiting.add(fail);
      send((error, value) => {
        this.waiting.delete(fail);
        if (error) reject(error);
        else resolve(value);
        // Handled: the client does not emit it as 'error' too.
        return true;
      });
    });
  }
}
