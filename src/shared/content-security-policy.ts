/**
 * The renderer's Content-Security-Policy, the same in both shells.
 *
 * Scripts and styles only from the app itself, no eval, no inline script, no
 * plugins, no framing; `connect-src 'self'` admits the serve shell's same-origin
 * WebSocket. Electron gets it as a <meta> tag in the built index.html, the serve
 * shell also as a header.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join('; ');
