/**
 * Who may talk to the serve shell: same machine, same page, right token.
 *
 * The server binds 127.0.0.1 only; on top of that, every HTTP request and socket
 * must carry the per-run token (query or cookie), and Host/Origin must name this
 * server, which defeats DNS rebinding and cross-site pages on the same machine.
 */
import { timingSafeEqual } from 'node:crypto';
import { SERVE_TOKEN_PARAMETER } from '../../shared/serve-protocol';

export interface GuardConfig {
  port: number;
  token: string;
}

export interface IncomingRequestFacts {
  host: string | undefined;
  origin: string | undefined;
  /** The request target, e.g. `/assets/x.js?token=…`. */
  url: string;
  cookie: string | undefined;
}

export type GuardVerdict =
  /** Let it in; `fromQuery` means the token came in the URL, so the server sets the cookie. */
  | { allowed: true; fromQuery: boolean }
  | { allowed: false; status: 400 | 403; reason: string };

/** The cookie that carries the token after the first page load; one per port. */
export function tokenCookieName(port: number): string {
  return `flint_token_${port}`;
}

export function checkRequest(facts: IncomingRequestFacts, config: GuardConfig): GuardVerdict {
  const allowedHosts = [`127.0.0.1:${config.port}`, `localhost:${config.port}`];
  if (!facts.host || !allowedHosts.includes(facts.host.toLowerCase())) {
    return { allowed: false, status: 403, reason: 'Foreign Host header.' };
  }
  if (facts.origin !== undefined && !allowedHosts.map((host) => `http://${host}`).includes(facts.origin.toLowerCase())) {
    return { allowed: false, status: 403, reason: 'Foreign Origin header.' };
  }
  let url: URL;
  try {
    url = new URL(facts.url, `http://${allowedHosts[0]}`);
  } catch {
    return { allowed: false, status: 400, reason: 'Malformed request target.' };
  }
  const fromQuery = url.searchParams.get(SERVE_TOKEN_PARAMETER);
  if (fromQuery !== null && tokensMatch(fromQuery, config.token)) return { allowed: true, fromQuery: true };
  const fromCookie = readCookie(facts.cookie, tokenCookieName(config.port));
  if (fromCookie !== null && tokensMatch(fromCookie, config.token)) return { allowed: true, fromQuery: false };
  return { allowed: false, status: 403, reason: 'Missing or wrong token. Open the URL Flint printed.' };
}

function tokensMatch(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}
