/**
 * Caps on what one serve shell accepts, so a runaway or hostile local client can neither
 * exhaust it nor lock its user out: at most so many open sockets (each one gets every
 * event), and at most so many connections that have not authenticated a socket (plain
 * page loads, handshakes in progress, idle keep-alives, and whatever else connects).
 * Without the caps, 400 sockets opened in a quarter of a second.
 *
 * Any local process can connect, so the unauthenticated cap must never refuse the user:
 * at the cap a new connection drops the oldest unauthenticated one, and an
 * unauthenticated connection that has not sent a whole request head within
 * `headerDeadlineMs` is dropped, so a flood holds no slot for long and the page's own
 * connection always gets in. A socket that carried the token is the user's: it leaves
 * the unauthenticated count and is never dropped to make room.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

/** The numbers the caps use; `startServeServer`'s `limits` overrides any of them (tests). */
export interface LimitSettings {
  /** Open authenticated sockets. */
  sockets: number;
  /** Connections that have not authenticated a socket; past it, the oldest is dropped. */
  unauthenticated: number;
  /**
   * How long an unauthenticated connection may take to deliver a complete request head,
   * counted from its connect, or from the end of its last response when it is kept alive.
   * Bytes trickling in do not extend it.
   */
  headerDeadlineMs: number;
  /**
   * Node's own bound on receiving a whole request, body included, checked only every few
   * seconds: the backstop for a slow body. 0 turns it off (tests, so that nothing but the
   * header deadline or a drop for room can close a connection).
   */
  requestTimeoutMs: number;
}

/** The defaults. */
export const DEFAULT_LIMITS: LimitSettings = {
  // A few tabs of Flint, with room to spare.
  sockets: 16,
  // A page load uses about six connections at once: room for several. Past it the oldest
  // goes, so a flood costs the user at most a retried asset request, never the socket.
  unauthenticated: 32,
  // The page is on this machine and sends its request head in one write, within a
  // millisecond; a second leaves room for a loaded machine. Node's own header timeout is
  // checked only every few seconds, and data would not restart a socket idle timeout.
  headerDeadlineMs: 1_000,
  // Requests carry no body worth waiting for; a client sending one this slowly is stuck.
  requestTimeoutMs: 30_000,
};

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
 * Starts counting `server`'s connections: one past the unauthenticated cap drops the
 * oldest unauthenticated connection (before a byte of the new one is parsed); an
 * unauthenticated one that misses its header deadline is dropped; one socket past the
 * socket cap is closed with 1013 and a reason the page can show.
 */
export function limitConnections(server: Server, limits: LimitSettings = DEFAULT_LIMITS): ConnectionLimits {
  // Oldest first: a Map iterates in insertion order.
  const unauthenticated = new Map<Duplex, HeaderDeadline>();
  let sockets = 0;

  const forget = (connection: Duplex): void => {
    unauthenticated.get(connection)?.cancel();
    unauthenticated.delete(connection);
  };

  // An idle kept-alive connection is bounded by the same deadline: this makes Node's Keep-Alive
  // header say so, and keeps Node's own idle close (5 s by default) from undercutting a longer one.
  server.keepAliveTimeout = limits.headerDeadlineMs;

  server.on('connection', (connection: Duplex) => {
    if (unauthenticated.size >= limits.unauthenticated) {
      // The oldest that owes a request head goes first; one being answered (the page's own
      // assets) only when every slot is being answered.
      const victim = [...unauthenticated].find(([, deadline]) => !deadline.isAnswering)?.[0] ?? unauthenticated.keys().next().value;
      if (victim) {
        forget(victim);
        victim.destroy();
      }
    }
    unauthenticated.set(connection, startHeaderDeadline(connection, limits.headerDeadlineMs));
    connection.once('close', () => forget(connection));
  });

  // Ahead of the request handler, so the deadline stops before any work for the request.
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    unauthenticated.get(request.socket)?.requestArrived(response);
  });

  return {
    authenticated: forget,
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

/** One unauthenticated connection's deadline for its next request head. */
interface HeaderDeadline {
  /** A request of it is being answered (no head is owed now). */
  readonly isAnswering: boolean;
  /** A whole request head arrived: no deadline until its response has ended. */
  requestArrived(response: ServerResponse): void;
  /** The connection closed or authenticated: no deadline ever again. */
  cancel(): void;
}

/** Destroys `connection` unless each request head it sends arrives within `ms` of it being idle. */
function startHeaderDeadline(connection: Duplex, ms: number): HeaderDeadline {
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  // Requests whose response has not ended (pipelined requests can overlap).
  let pending = 0;
  // Which deadline is running: a late check of an earlier one never closes the connection.
  let generation = 0;
  const arm = (): void => {
    if (cancelled) return;
    const armed = (generation += 1);
    timer = setTimeout(() => {
      // A timer can fire late, after a long task on main, ahead of the socket reads that
      // piled up meanwhile: a head already received gets its turn first (its 'request'
      // clears this), then one that truly never came is destroyed, without a 408: nothing is
      // owed to a client that sent no request.
      setImmediate(() => {
        if (!cancelled && pending === 0 && generation === armed) connection.destroy();
      });
    }, ms);
    timer.unref();
  };
  arm();
  return {
    get isAnswering() {
      return pending > 0;
    },
    requestArrived: (response) => {
      pending++;
      generation += 1;
      clearTimeout(timer);
      response.once('close', () => {
        pending--;
        if (pending === 0) arm();
      });
    },
    cancel: () => {
      cancelled = true;
      clearTimeout(timer);
    },
  };
}
