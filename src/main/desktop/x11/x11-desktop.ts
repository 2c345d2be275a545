/**
 * The desktop on X11, through one connection opened when Flint starts: the focused window
 * followed from the server's events (active-window.ts), so a press of the shortcut reads
 * memory, not xprop; and the PRIMARY selection read on the same connection
 * (x-selection.ts). The connection's life is follower-state.ts's machine: it is reopened
 * when the server goes away and comes back; while there is none, presses use the readers
 * Flint had before (get-windows through xprop, xclip), and the log says why.
 */
import type { Logger } from '../../logger';
import { Emitter, type Disposable, type Event } from '../../lifecycle';
import { withTimeout, type FocusedWindow, type FocusedWindowReader } from '../focused-window';
import { MAX_SELECTION_BYTES, type SelectionRead, type SelectionReader } from '../primary-selection';
import { ActiveWindowFollower } from './active-window';
import { INITIAL_STATE, nextState, type FollowerInput, type FollowerState } from './follower-state';
import { XConnection } from './x-connection';
import { readPrimarySelection } from './x-selection';

/** The selection's owner sends it within milliseconds (1 MB at most); one slower than this, in all, is not waited for. */
const SELECTION_TIMEOUT_MS = 400;
/** The whole read of the selection, the server's own answers included (a server that stalls). */
const SELECTION_READ_WITHIN_MS = SELECTION_TIMEOUT_MS + 100;
/** A press waits this long at most for a connection being set up, then reads the old way. */
const PRESS_WAITS_FOR_SETUP_MS = 100;
/** A connection whose setup (its atoms, the first read of the focused window) takes longer is given up, and tried again later. */
const SETUP_WITHIN_MS = 2_000;

export interface X11DesktopOptions {
  /** DISPLAY (`:0`). */
  display: string;
  /** What answers while there is no connection: the per-press readers (xprop, xclip). */
  fallback: { focusedWindow: FocusedWindowReader; selection: SelectionReader };
  logger?: Logger;
  /** Opens the connection (a test seam). */
  connect?: (display: string) => Promise<XConnection>;
}

export class X11Desktop implements Disposable {
  private _state: FollowerState = INITIAL_STATE;
  private readonly _onDidChangeState = new Emitter<FollowerState>();
  /** Fires on every change of state (connected, lost, retrying, disposed). */
  readonly onDidChangeState: Event<FollowerState> = this._onDidChangeState.event;
  private readonly _onDidChangeWindow = new Emitter<FocusedWindow>();
  /** Fires when the focused window or its title changed, as soon as the server's event is read. */
  readonly onDidChangeWindow: Event<FocusedWindow> = this._onDidChangeWindow.event;
  private connection: XConnection | null = null;
  private follower: ActiveWindowFollower | null = null;
  private following: Disposable | null = null;
  private attempt: Promise<void> | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private readonly connect: (display: string) => Promise<XConnection>;

  constructor(private readonly options: X11DesktopOptions) {
    this.connect = options.connect ?? ((display) => XConnection.open(display));
    this.openConnection();
  }

  get state(): FollowerState {
    return this._state;
  }

  /** The focused window: from memory while following; during a (re)connect, once it settles; else read now the old way. */
  readonly focusedWindow: FocusedWindowReader = async () => {
    await this.settingUp();
    if (this._state.kind === 'following' && this.follower) return this.follower.current();
    return this.options.fallback.focusedWindow();
  };

  /** PRIMARY, on the connection (1 MB at most); else through xclip. */
  readonly selection: SelectionReader = async (): Promise<SelectionRead> => {
    await this.settingUp();
    if (this._state.kind === 'following' && this.connection) {
      const read = readPrimarySelection(this.connection, { maxBytes: MAX_SELECTION_BYTES, timeoutMs: SELECTION_TIMEOUT_MS });
      return withTimeout(read, SELECTION_READ_WITHIN_MS, { kind: 'unavailable', reason: `The X server did not answer within ${SELECTION_READ_WITHIN_MS} ms.` });
    }
    return this.options.fallback.selection();
  };

  /** While a connection is being set up: waits for it, a short while at most (a server that accepts and then stalls never holds a press). */
  private async settingUp(): Promise<void> {
    if (this._state.kind === 'connecting' && this.attempt) await withTimeout(this.attempt, PRESS_WAITS_FOR_SETUP_MS, undefined);
  }

  dispose(): void {
    this.apply({ kind: 'dispose' });
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.dropConnection();
    this._onDidChangeState.dispose();
    this._onDidChangeWindow.dispose();
  }

  private openConnection(): void {
    const attempt = this.connectAndFollow().finally(() => {
      if (this.attempt === attempt) this.attempt = null;
    });
    this.attempt = attempt;
  }

  private async connectAndFollow(): Promise<void> {
    let connection: XConnection | null = null;
    try {
      connection = await this.connect(this.options.display);
      const opened = connection;
      opened.onDidClose((reason) => {
        if (this.connection !== opened) return;
        this.dropConnection();
        this.apply({ kind: 'closed', reason });
      });
      const starting = ActiveWindowFollower.start(opened);
      const follower = await withTimeout(starting, SETUP_WITHIN_MS, null);
      if (follower === null) {
        // Its requests fail once the connection is closed (below); one that answered late is let go.
        void starting.then((late) => late.dispose(), () => undefined);
        throw new Error(`the X server did not answer within ${SETUP_WITHIN_MS} ms`);
      }
      if (this._state.kind !== 'connecting' || opened.isClosed) {
        follower.dispose();
        opened.dispose();
        if (this._state.kind === 'connecting') this.apply({ kind: 'failed', reason: 'the connection closed while it was set up' });
        return;
      }
      this.connection = opened;
      this.follower = follower;
      this.following = follower.onDidChange((window) => this._onDidChangeWindow.fire(window));
      this.apply({ kind: 'connected' });
    } catch (error) {
      connection?.dispose();
      this.apply({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
    }
  }

  private dropConnection(): void {
    this.following?.dispose();
    this.follower?.dispose();
    this.connection?.dispose();
    this.following = null;
    this.follower = null;
    this.connection = null;
  }

  /** Moves the machine, then does what the new state asks: log it, schedule a retry, or connect. */
  private apply(input: FollowerInput): void {
    const before = this._state;
    const after = nextState(before, input);
    if (after === before) return;
    this._state = after;
    const { display, logger } = this.options;
    switch (after.kind) {
      case 'following':
        logger?.info(`focused window: following it on ${display} through one X connection`);
        break;
      case 'lost':
        // Once per loss, not once per retry of a server that stays away.
        if (after.attempt === 0) logger?.info(`focused window: no X connection to ${display} (${after.reason}); it is read with xprop at each press until the connection is back`);
        this.retryTimer = setTimeout(() => {
          this.retryTimer = null;
          this.apply({ kind: 'retry' });
        }, after.retryInMs);
        this.retryTimer.unref();
        break;
      case 'connecting':
        this.openConnection();
        break;
      case 'disposed':
        break;
    }
    this._onDidChangeState.fire(after);
  }
}
