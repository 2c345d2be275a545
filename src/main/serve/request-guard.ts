/**
 * Who may talk to the serve shell: same machine, same page, right token.
 *
 * The server binds 127.0.0.1 only. Every request must name this server in exactly one
 * Host header and, if it has an Origin, that too: this defeats DNS rebinding and
 * cross-site pages. The static renderer files hold no secrets and need nothing more.
 * Data only flows over the WebSocket, which must offer the per-run token as a
 * subprotocol. The token is never in a cookie (cookies ignore ports, so every other
 * local server would receive it) nor in a request URL: the printed URL carries it in the
 * fragment, which browsers never send.
 */
import { timingSafeEqual } from 'node:crypto';
import { TOKEN_PROTOCOL_PREFIX } from '../../shared/serve-protocol';

/** This server's port (Host and Origin must name it) and its per-run token. */
export interface GuardConfig {
  port: number;
  token: string;
}

/** What the guard looks at, read from the raw headers so duplicates stay visible. */
export interface IncomingRequestFacts {
  /** Every Host header, in order: exactly one is allowed. */
  hosts: string[];
  /** Every Origin header: none (same-origin GETs, non-browser clients) or one. */
  origins: string[];
  /** The request target, e.g. `/assets/x.js`. */
  url: string;
}

/** Whether a request may proceed, and if not the HTTP status and a reason for the client. */
export type GuardVerdict =
  /** Let it in; `path` is the decoded-safe pathname of the target. */
  | { allowed: true; path: string }
  | { allowed: false; status: 400 | 403; reason: string };


/**
 * Collects the Host and Origin headers from Node's `rawHeaders`: `req.headers` keeps only
 * the first of two Host headers, which would hide a smuggled second one.
 */
export function requestFacts(rawHeaders: readonly string[], url: string | undefined): IncomingRequestFacts {
  const facts: IncomingRequestFacts = { hosts: [], origins: [], url: url ?? '/' };
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toLowerCase();
    if (name === 'host') facts.hosts.push(rawHeaders[index + 1]!);
    else if (name === 'origin') facts.origins.push(rawHeaders[index + 1]!);
  }
  return facts;
}

/** Decides whether a request (page, asset or socket upgrade) may reach this server at all. */
export function checkRequest(facts: IncomingRequestFacts, config: GuardConfig): GuardVerdict {
  if (facts.hosts.length !== 1) return { allowed: false, status: 400, reason: 'Exactly one Host header, please.' };
  if (facts.origins.length > 1) return { allowed: false, status: 400, reason: 'At most one Origin header, please.' };
  const allowedHosts = [`127.0.0.1:${config.port}`, `localhost:${config.port}`];
  if (!allowedHosts.includes(facts.hosts[0]!.toLowerCase())) {
    return { allowed: false, status: 403, reason: 'Foreign Host header.' };
  }
  const origin = facts.origins[0];
  if (origin !== undefined && !allowedHosts.map((host) => `http://${host}`).includes(origin.toLowerCase())) {
    return { allowed: false, status: 403, reason: 'Foreign Origin header.' };
  }
  try {
    return { allowed: true, path: new URL(facts.url, `http://${allowedHosts[0]}`).pathname };
  } catch {
    return { allowed: false, status: 400, reason: 'Malformed request target.' };
  }
}

/**
 * True when the `Sec-WebSocket-Protocol` header offers `flint.token.<token>` with the
 * right token (compared in constant time). Node joins repeated headers with commas.
 */
export function offersToken(protocolHeader: string | undefined, token: string): boolean {
  if (!protocolHeader) return false;
  const expected = Buffer.from(token);
  let found = false;
  for (const offered of protocolHeader.split(',')) {
    const protocol = offered.trim();
    if (!protocol.startsWith(TOKEN_PROTOCOL_PREFIX)) continue;
    const given = Buffer.from(protocol.slice(TOKEN_PROTOCOL_PREFIX.length));
    if (given.length === expected.length && timingSafeEqual(given, expected)) found = true;
  }
  return found;
}
