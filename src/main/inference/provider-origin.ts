/**
 * A provider's origin (scheme, host and port of its base URL): what a key is bound to.
 */

/** `https://api.openai.com` for `https://api.openai.com/v1`; the text itself if it is no URL (validated configs always are). */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Whether an origin is this machine: `localhost`, 127.0.0.0/8, or ::1. A key sent there never
 * crosses a network. (Not `*.localhost`: RFC 6761 asks resolvers to keep it on loopback, but
 * without nss-myhostname or resolved it goes to DNS, which may send it anywhere.)
 */
export function isLoopbackOrigin(origin: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(origin).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** Whether what is sent to an origin travels unencrypted: plain http, or a plain WebSocket (FLINT_BASE_URL may be `ws://`). */
export function isUnencrypted(origin: string): boolean {
  return origin.startsWith('http:') || origin.startsWith('ws:');
}
