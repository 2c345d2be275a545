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
 * Whether an origin is this machine: `localhost` (and `*.localhost`, which resolvers must
 * keep on loopback, RFC 6761), 127.0.0.0/8, or ::1. A key sent there never crosses a network.
 */
export function isLoopbackOrigin(origin: string): boolean {
  let hostname: string;
  try {
    hostname = new URL(origin).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (hostname === 'localhost' || hostname.endsWith('.localhost') || hostname === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
