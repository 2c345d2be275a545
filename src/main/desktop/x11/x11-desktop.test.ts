/**
 * An X server that accepts Flint's connection and then stops answering (a stalled forwarded
 * display, a server grabbed by another client): presses never wait on it, and the connection
 * is given up. The server is a scripted connection whose requests are never answered; the
 * real server's cases are in x11-desktop.x11.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { Emitter } from '../../lifecycle';
import type { FocusedWindow } from '../focused-window';
import type { SelectionRead } from '../primary-selection';
import type { FollowerState } from './follower-state';
import type { XConnection } from './x-connection';
import { X11Desktop } from './x11-desktop';

const FALLBACK_WINDOW: FocusedWindow = { kind: 'window', title: 'app.ts - VIM', ownerName: 'XTerm', processId: 7 };
const FALLBACK_SELECTION: SelectionRead = { kind: 'none' };

/** A connection whose every request waits forever, until it is closed. */
function stalledConnection(): XConnection & { disposed: boolean } {
  const closed = new Emitter<string>();
  const never = () => new Promise<never>(() => undefined);
  const connection = {
    root: 1,
    disposed: false,
    get isClosed() {
      return connection.disposed;
    },
    onDidClose: closed.event,
    onEvent: () => ({ dispose: () => undefined }),
    atom: never,
    getProperty: never,
    selectEvents: never,
    sync: never,
    dispose: () => {
      connection.disposed = true;
      closed.fire('closed by Flint');
    },
  };
  return connection as unknown as XConnection & { disposed: boolean };
}

describe('X11Desktop with a server that stops answering', () => {
  it('answers presses the old way while the connection is set up, then gives it up and says why', async () => {
    const stalled = stalledConnection();
    const states: FollowerState[] = [];
    const desktop = new X11Desktop({
      display: ':99',
      connect: async () => stalled,
      fallback: { focusedWindow: async () => FALLBACK_WINDOW, selection: async () => FALLBACK_SELECTION },
    });
    const lost = new Promise<FollowerState>((resolve) =>
      desktop.onDidChangeState((state) => {
        states.push(state);
        if (state.kind === 'lost') resolve(state);
      }),
    );
    try {
      expect(desktop.state.kind).toBe('connecting');
      expect(await desktop.focusedWindow()).toEqual(FALLBACK_WINDOW);
      expect(await desktop.selection()).toEqual(FALLBACK_SELECTION);
      expect(await lost).toMatchObject({ kind: 'lost', reason: expect.stringMatching(/did not answer within/) });
      expect(stalled.disposed).toBe(true);
    } finally {
      desktop.dispose();
    }
  });
});
