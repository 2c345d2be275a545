import { describe, expect, it } from 'vitest';
import { checkRequest, tokenCookieName, type IncomingRequestFacts } from './request-guard';

const PORT = 41234;
const TOKEN = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v';
const config = { port: PORT, token: TOKEN };

/** A request from the page Flint served, minus the token, with `overrides` applied. */
function facts(overrides: Partial<IncomingRequestFacts> = {}): IncomingRequestFacts {
  return { host: `127.0.0.1:${PORT}`, origin: undefined, url: '/', cookie: undefined, ...overrides };
}

describe('tokenCookieName', () => {
  it('names one cookie per port', () => {
    expect(tokenCookieName(PORT)).toBe(`flint_token_${PORT}`);
    expect(tokenCookieName(1)).not.toBe(tokenCookieName(2));
  });
});

describe('checkRequest', () => {
  it('allows the right token in the query and says it came from the query', () => {
    expect(checkRequest(facts({ url: `/?token=${TOKEN}` }), config)).toEqual({ allowed: true, fromQuery: true });
  });

  it('allows the right token in the query of a nested asset URL', () => {
    expect(checkRequest(facts({ url: `/assets/app.js?x=1&token=${TOKEN}` }), config)).toEqual({
      allowed: true,
      fromQuery: true,
    });
  });

  it("allows the right token in this port's cookie", () => {
    const verdict = checkRequest(facts({ url: '/assets/app.js', cookie: `flint_token_${PORT}=${TOKEN}` }), config);
    expect(verdict).toEqual({ allowed: true, fromQuery: false });
  });

  it('finds the token cookie among other cookies', () => {
    const cookie = `theme=dark; flint_token_${PORT}=${TOKEN}; other=1`;
    expect(checkRequest(facts({ cookie }), config)).toEqual({ allowed: true, fromQuery: false });
  });

  it('falls back to a right cookie when the query token is wrong', () => {
    const verdict = checkRequest(facts({ url: '/?token=wrong', cookie: `flint_token_${PORT}=${TOKEN}` }), config);
    expect(verdict).toEqual({ allowed: true, fromQuery: false });
  });

  it('refuses a request without any token with 403', () => {
    expect(checkRequest(facts(), config)).toMatchObject({ allowed: false, status: 403 });
  });

  it('refuses a wrong token in the query with 403', () => {
    expect(checkRequest(facts({ url: '/?token=not-the-token' }), config)).toMatchObject({ allowed: false, status: 403 });
  });

  it('refuses a token that is only a prefix of the right one', () => {
    expect(checkRequest(facts({ url: `/?token=${TOKEN.slice(0, -1)}` }), config)).toMatchObject({ allowed: false });
  });

  it('refuses an empty token', () => {
    expect(checkRequest(facts({ url: '/?token=' }), config)).toMatchObject({ allowed: false, status: 403 });
  });

  it('refuses a wrong token in the cookie with 403', () => {
    expect(checkRequest(facts({ cookie: `flint_token_${PORT}=nope` }), config)).toMatchObject({ allowed: false, status: 403 });
  });

  it("refuses the right token in another port's cookie", () => {
    expect(checkRequest(facts({ cookie: `flint_token_${PORT + 1}=${TOKEN}` }), config)).toMatchObject({
      allowed: false,
      status: 403,
    });
  });

  it('refuses a foreign Host even with the right token (DNS rebinding)', () => {
    const verdict = checkRequest(facts({ host: `evil.com:${PORT}`, url: `/?token=${TOKEN}` }), config);
    expect(verdict).toMatchObject({ allowed: false, status: 403 });
  });

  it('refuses the loopback address on another port', () => {
    const verdict = checkRequest(facts({ host: `127.0.0.1:${PORT + 1}`, url: `/?token=${TOKEN}` }), config);
    expect(verdict).toMatchObject({ allowed: false, status: 403 });
  });

  it('refuses a Host without a port, and a missing Host', () => {
    expect(checkRequest(facts({ host: '127.0.0.1', url: `/?token=${TOKEN}` }), config)).toMatchObject({ allowed: false });
    expect(checkRequest(facts({ host: undefined, url: `/?token=${TOKEN}` }), config)).toMatchObject({
      allowed: false,
      status: 403,
    });
  });

  it('allows localhost as the Host, in any letter case', () => {
    expect(checkRequest(facts({ host: `localhost:${PORT}`, url: `/?token=${TOKEN}` }), config)).toEqual({
      allowed: true,
      fromQuery: true,
    });
    expect(checkRequest(facts({ host: `LocalHost:${PORT}`, url: `/?token=${TOKEN}` }), config)).toMatchObject({
      allowed: true,
    });
  });

  it('refuses a foreign Origin even with the right token', () => {
    const verdict = checkRequest(facts({ origin: 'http://evil.com', url: `/?token=${TOKEN}` }), config);
    expect(verdict).toMatchObject({ allowed: false, status: 403 });
  });

  it('refuses an Origin on another port, over https, or the opaque null origin', () => {
    for (const origin of [`http://127.0.0.1:${PORT + 1}`, `https://127.0.0.1:${PORT}`, 'null']) {
      expect(checkRequest(facts({ origin, url: `/?token=${TOKEN}` }), config)).toMatchObject({ allowed: false, status: 403 });
    }
  });

  it("allows this server's own Origin with the token", () => {
    for (const origin of [`http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`]) {
      expect(checkRequest(facts({ origin, url: `/?token=${TOKEN}` }), config)).toMatchObject({ allowed: true });
    }
  });

  it('allows a request without an Origin when the token is right', () => {
    expect(checkRequest(facts({ origin: undefined, cookie: `flint_token_${PORT}=${TOKEN}` }), config)).toMatchObject({
      allowed: true,
    });
  });

  it('refuses a malformed request target with 400', () => {
    expect(checkRequest(facts({ url: 'http://[bad' }), config)).toMatchObject({ allowed: false, status: 400 });
  });
});
