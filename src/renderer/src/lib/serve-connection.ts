/**
 * The serve shell page's link to its Flint server, as a pure state machine.
 *
 * The bridge (serve-bridge.ts) feeds it what happened: a socket was admitted, a socket
 * closed or never opened, and what `GET /flint-instance` said after a failed attempt.
 * The state says what the user should know, and whether the bridge should keep trying:
 *
 * - the same instance answers but sockets keep failing → this page's token is refused;
 * - another instance answers → Flint was restarted and this page's token is dead;
 * - nothing answers for a while → Flint is not running (maybe on another port now).
 *
 * A browser cannot see why a WebSocket failed (a refused upgrade and a dead server
 * both close with 1006), hence the instance probe.
 */

/** What the page shows about its connection to Flint. */
export type ServeConnection =
  /** The first socket is on its way: nothing to say yet. */
  | { state: 'connecting' }
  /** A socket is open and admitted. */
  | { state: 'connected' }
  /** Lost, and retrying; Flint may still answer soon. */
  | { state: 'reconnecting'; message: string }
  /** Lost for a while and nothing answers: still retrying, but the user should act. */
  | { state: 'not-answering'; message: string }
  /** Retrying cannot help: only a new URL (a new token) can; the bridge stops. */
  | { state: 'ended'; reason: EndReason; message: string };

/** Why the page stopped trying. */
export type EndReason =
  /** Another instance of Flint answers on this port: the one this page knew is gone. */
  | 'restarted'
  /** The Flint that answers keeps refusing this page's socket: the token does not match. */
  | 'refused'
  /** The page has no token at all. */
  | 'no-token';

/** The machine's whole state: what to show, and what it remembers to decide. */
export interface ServeLink {
  connection: ServeConnection;
  /** The instance id of the server this page was last connected to; null until known. */
  instance: string | null;
  /** When the connection was lost (clock ms); null while connected or not yet tried. */
  lostAt: number | null;
  /** Failed attempts in a row while a server this page may use answered the probe. */
  refusals: number;
}

/** What the bridge reports. */
export type ServeLinkEvent =
  /** A socket was admitted; `instance` is what the server said it is (null if that fetch failed). */
  | { type: 'connected'; instance: string | null }
  /** An open socket closed; `reason` is the server's close reason, if it gave one. */
  | { type: 'lost'; at: number; reason: string }
  /** An attempt failed before the socket opened. */
  | { type: 'failed'; at: number }
  /** The answer of `GET /flint-instance` after a failed attempt: an id, or null for no answer. */
  | { type: 'probed'; at: number; instance: string | null }
  /** A new token arrived (a new URL in this tab): start over. */
  | { type: 'token' };

/** After this long without an answer, the page says plainly that Flint is not running. */
export const NOT_ANSWERING_AFTER_MS = 20_000;

/**
 * Failed attempts in a row against a server that answers before the page gives up: a
 * few, because one failure while the server is busy or just starting proves nothing.
 */
export const REFUSALS_BEFORE_GIVING_UP = 3;

export const RECONNECTING_MESSAGE = 'Lost the connection to Flint; reconnecting…';
export const UNREACHABLE_MESSAGE = 'Cannot reach Flint; retrying…';
export const NOT_ANSWERING_MESSAGE =
  'Flint is not answering. If it was stopped, start Flint again and open the URL it prints in its terminal. Still trying…';
export const RESTARTED_MESSAGE = 'This Flint session ended (Flint was restarted). Open the new URL Flint printed in its terminal.';
export const REFUSED_MESSAGE =
  "Flint does not accept this page's token (it may be from an earlier run of Flint). Open the exact URL Flint printed in its terminal.";
export const NO_TOKEN_MESSAGE = 'This page has no Flint token: open the exact URL Flint printed (it ends in #token=…).';

/**
 * The state of a page that has a token (and is about to connect), or none. `instance` is
 * the one that admitted the token before a reload, if the page remembers it.
 */
export function initialServeLink(hasToken: boolean, instance: string | null = null): ServeLink {
  const connection: ServeConnection = hasToken
    ? { state: 'connecting' }
    : { state: 'ended', reason: 'no-token', message: NO_TOKEN_MESSAGE };
  return { connection, instance, lostAt: null, refusals: 0 };
}

/** Whether the bridge should try again after a failure: not once the link has ended. */
export function shouldRetry(link: ServeLink): boolean {
  return link.connection.state !== 'ended';
}

/** The next state after `event`; every state takes every event. */
export function nextServeLink(link: ServeLink, event: ServeLinkEvent): ServeLink {
  if (event.type === 'token') return initialServeLink(true);
  // Ended is final until a new token: late socket events and probes change nothing.
  if (link.connection.state === 'ended') return link;
  switch (event.type) {
    case 'connected':
      return { connection: { state: 'connected' }, instance: event.instance ?? link.instance, lostAt: null, refusals: 0 };
    case 'lost': {
      const message = event.reason ? `Flint closed the connection: ${event.reason} Reconnecting…` : RECONNECTING_MESSAGE;
      // A server's reason (too many pages) says more than "not answering"; otherwise keep what is shown.
      const connection = link.connection.state === 'not-answering' && !event.reason ? link.connection : { state: 'reconnecting' as const, message };
      return { ...link, connection, lostAt: link.lostAt ?? event.at };
    }
    case 'failed':
      return { ...link, connection: disconnected(link.connection), lostAt: link.lostAt ?? event.at };
    case 'probed':
      return afterProbe(link, event.at, event.instance);
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

/** What a failed attempt shows: a link that was up (or about to be) is now reconnecting; a lost one stays as it is. */
function disconnected(connection: ServeConnection): ServeConnection {
  if (connection.state === 'connected') return { state: 'reconnecting', message: RECONNECTING_MESSAGE };
  if (connection.state === 'connecting') return { state: 'reconnecting', message: UNREACHABLE_MESSAGE };
  return connection;
}

/** Judges the probe that followed a failed attempt. */
function afterProbe(link: ServeLink, at: number, instance: string | null): ServeLink {
  // A probe that lost the race with a successful reconnect is old news.
  if (link.connection.state === 'connected') return link;
  if (instance === null) {
    const lostFor = at - (link.lostAt ?? at);
    const connection: ServeConnection =
      lostFor >= NOT_ANSWERING_AFTER_MS ? { state: 'not-answering', message: NOT_ANSWERING_MESSAGE } : link.connection;
    return { ...link, connection, refusals: 0 };
  }
  if (link.instance !== null && instance !== link.instance) {
    return { ...link, connection: { state: 'ended', reason: 'restarted', message: RESTARTED_MESSAGE } };
  }
  // The server this page may use (or, before the first connection, whatever answers) is up, yet the socket failed.
  const refusals = link.refusals + 1;
  if (refusals >= REFUSALS_BEFORE_GIVING_UP) {
    return { ...link, connection: { state: 'ended', reason: 'refused', message: REFUSED_MESSAGE }, refusals };
  }
  // It answers, so "not answering" is no longer true; a server's own reason stays.
  const connection = link.connection.state === 'reconnecting' ? link.connection : { state: 'reconnecting' as const, message: RECONNECTING_MESSAGE };
  return { ...link, connection, refusals };
}

/** True when two states would look the same to the user, so a repeat need not be shown again. */
export function sameServeConnection(a: ServeConnection | null, b: ServeConnection | null): boolean {
  if (a === null || b === null) return a === b;
  return a.state === b.state && ('message' in a ? a.message : '') === ('message' in b ? b.message : '');
}
