import { describe, expect, it } from 'vitest';
import {
  checkRequest,
  offersToken,
  requestFacts,
  type IncomingRequestFacts,
} from './request-guard';

const PORT = 41234;
const TOKEN = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v';
const config = { port: PORT, token: TOKEN };

/** A request from the page Flint served, with `overrides` applied. */
function facts(overrides: Partial<IncomingRequestFacts> = {}): IncomingRequestFacts {
  return { hosts: [`127.0.0.1:${PORT}`], origins: [], url: '/', ...overrides };
}

describe('requestFacts', () => {
  it('keeps every Host and Origin header from the raw headers, whatever their case', () => {
    const raw = ['Host', '127.0.0.1:1', 'Accept', '*/*', 'host', 'evil.example', 'ORIGIN', 'http://a', 'Origin', 'http://b'];
    expect(requestFacts(raw, '/x')).toEqual({ hosts: ['127.0.0.1:1', 'evil.example'], origins: ['http://a', 'http://b'], url: '/x' });
  });

  it('reads a missing target as /', () => {
    expect(requestFacts([], undefined)).toEqual({ hosts: [], origins: [], url: '/' });
  });
});

describe('checkRequest', () => {
  it('allows a request naming this server, with no token at all, and gives its path', () => {
    expect(checkRequest(facts({ url: '/assets/app.js?x=1' }), config)).toEqual({ allowed: true, path: '/assets/app.js' });
  });

  it('refuses two Host headers with 400, even when the first one is right', () => {
    const verdict = checkRequest(facts({ hosts: [`127.0.0.1:${PORT}`, 'evil.example'] }), config);
    expect(verdict).toMatchObject({ allowed: false, status: 400 });
    expect(checkRequest(facts({ hosts: [`127.0.0.1:${PORT}`, `127.0.0.1:${PORT}`] }), config)).toMatchObject({ status: 400 });
  });

  it('refuses a missing Host with 400, and two Origin headers with 400', () => {
    expect(checkRequest(facts({ hosts: [] }), config)).toMatchObject({ allowed: false, status: 400 });
    const origin = `http://127.0.0.1:${PORT}`;
    expect(checkRequest(facts({ origins: [origin, origin] }), config)).toMatchObject({ allowed: false, status: 400 });
  });

  it('refuses a foreign Host (DNS rebinding), another port, or a Host without a port', () => {
    for (const host of [`evil.com:${PORT}`, `127.0.0.1:${PORT + 1}`, '127.0.0.1']) {
      expect(checkRequest(facts({ hosts: [host] }), config)).toMatchObject({ allowed: false, status: 403 });
    }
  });

  it('allows localhost as the Host, in any letter case', () => {
    expect(checkRequest(facts({ hosts: [`localhost:${PORT}`] }), config)).toMatchObject({ allowed: true });
    expect(checkRequest(facts({ hosts: [`LocalHost:${PORT}`] }), config)).toMatchObject({ allowed: true });
  });

  it('refuses a foreign Origin, another port, https, or the opaque null origin', () => {
    for (const origin of ['http://evil.com', `http://127.0.0.1:${PORT + 1}`, `https://127.0.0.1:${PORT}`, 'null']) {
      expect(checkRequest(facts({ origins: [origin] }), config)).toMatchObject({ allowed: false, status: 403 });
    }
  });

  it("allows this server's own Origin", () => {
    for (const origin of [`http://127.0.0.1:${PORT}`, `http://localhost:${PORT}`]) {
      expect(checkRequest(facts({ origins: [origin] }), config)).toMatchObject({ allowed: true });
    }
  });

  it('refuses a malformed request target with 400', () => {
    expect(checkRequest(facts({ url: 'http://[bad' }), config)).toMatchObject({ allowed: false, status: 400 });
  });
});

describe('offersToken', () => {
  it('accepts the token subprotocol among others', () => {
    expect(offersToken(`flint, flint.token.${TOKEN}`, TOKEN)).toBe(true);
    expect(offersToken(`flint.token.${TOKEN}`, TOKEN)).toBe(true);
  });

  it('refuses no header, no token protocol, a wrong, shortened or empty token', () => {
    expect(offersToken(undefined, TOKEN)).toBe(false);
    expect(offersToken('flint', TOKEN)).toBe(false);
    expect(offersToken('flint, flint.token.wrong', TOKEN)).toBe(false);
    expect(offersToken(`flint.token.${TOKEN.slice(0, -1)}`, TOKEN)).toBe(false);
    expect(offersToken('flint.token.', TOKEN)).toBe(false);
  });

  it('refuses the bare token or the token under another prefix', () => {
    expect(offersToken(TOKEN, TOKEN)).toBe(false);
    expect(offersToken(`other.token.${TOKEN}`, TOKEN)).toBe(false);
  });
});
