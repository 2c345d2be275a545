/**
 * Caps on what one serve shell accepts, so a runaway or hostile local client cannot
 * exhaust it: at most so many open sockets (each one gets every event), and at most so
 * many connections that have not authenticated a socket (plain page loads and handshakes
 * in progress). Without them, 400 sockets opened in a quarter of a second.
 */
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/** The defaults: a few tabs of Flint, with room to spare; tests can lower them. */
export const DEFAULT_LIMITS = { sockets: 16, unauthenticated: 32 };

/** Close code for a socket over the cap: 1013 is "Try Again Later" (RFC 6455 registry). */
export const TOO_MANY_SOCKETS_CODE = 1013;

/** How the server applies the caps; see `limitConnections`. */
export interface ConnectionLimits {
  /** A connection whose socket upgrade carried the token no longer counts as unauthenticated. */
  authenticated(connection: Duplex): void;
  /** Counts `client` against the socket cap until it closes, or closes it if the cap is reached. */
  admit(client: WebSocket): boolean;
}

/**
 * Starts counting `server`'s connections: one past the unauthenticated cap is dropped at
 * once (before a byte is parsed); one socket past the socket cap is closed with 1013 and
 * a reason the page can show.
 */
export function limitConnections(server: Server, limits = DEFAULT_LIMITS): ConnectionLimits {
  const release = new WeakMap<Duplex, () => void>();
  let unauthenticated = 0;
  let sockets = 0;

  server.on('connection', (connection: Duplex) => {
    if (unauthenticated >= limits.unauthenticated) {
      connection.destroy();
      return;
    }
    unauthenticated++;
    let counted = true;
    const done = (): void => {
      if (!counted) return;
      counted = false;
      unauthenticated--;
    };
    release.set(connection, done);
    connection.once('close', done);
  });

  return {
    authenticated: (connection) => release.get(connection)?.(),
    admit: (client) => {
      if (sockets >= limits.sockets) {
        client.close(TOO_MANY_SOCKETS_CODE, `Too many Flint pages are connected (${limits.sockets}); close one and reload.`);
        return false;
      }
      sockets++;
      client.once('close', () => sockets--);
      return true;
    },
  };
}
