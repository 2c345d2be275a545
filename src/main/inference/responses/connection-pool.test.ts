/**
 * The pool of Responses sockets, on real WebSockets to a real local server: warm reuse,
 * the hot spare, pre-loads that never starve a request, its limits, and disposal.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { rejectingServer, scriptedServer, silentServer, type ScriptedServer, type ScriptedSocketServer } from '../../../../test/helpers/scripted-responses-server';
import { waitFor } from '../../../../test/helpers/temp-project';
import { createMemoryLogger } from '../../logger';
import { ConnectionPool, type ConnectionPoolOptions } from './connection-pool';
import { responsesUrl } from './responses-provider';
import { ResponsesSocket } from './responses-socket';

/** Counts how often `socket` is disposed from now on (a second dispose would cut its closing handshake short). */
function countDisposals(socket: ResponsesSocket): () => number {
  let count = 0;
  const dispose = socket.dispose.bind(socket);
  socket.dispose = () => {
    count += 1;
    dispose();
  };
  return () => count;
}

describe('ConnectionPool', () => {
  let server: ScriptedServer | undefined;
  let pool: ConnectionPool | undefined;
  /** Every socket the pool opened, in order. */
  let opened: ResponsesSocket[];

  afterEach(async () => {
    pool?.dispose();
    await server?.close();
    server = pool = undefined;
  });

  const poolFor = (baseUrl: string, options: Partial<Omit<ConnectionPoolOptions, 'connect'>> = {}, handshakeTimeoutMs = 2000): ConnectionPool => {
    opened = [];
    const connect = (): ResponsesSocket => {
      const socket = new ResponsesSocket({ url: responsesUrl(baseUrl), apiKey: null, handshakeTimeoutMs, maxFrameBytes: 1024 * 1024, logger: createMemoryLogger() });
      opened.push(socket);
      return socket;
    };
    pool = new ConnectionPool({ backoffInitialMs: 20, backoffMaxMs: 100, acquireTimeoutMs: 5000, ...options, connect });
    return pool;
  };

  /** A server that takes connections and answers nothing, and a pool warmed against it. */
  const warmPool = async (options: Partial<Omit<ConnectionPoolOptions, 'connect'>> = {}): Promise<{ sockets: ScriptedSocketServer; pool: ConnectionPool }> => {
    const sockets = await scriptedServer(() => undefined);
    server = sockets;
    const warmed = poolFor(sockets.baseUrl, options);
    warmed.warm();
    await waitFor(() => warmed.idleCount === 2, 'two warm sockets');
    return { sockets, pool: warmed };
  };

  it('opens one socket to use and a hot spare when warmed, and hands the same warm socket out again after release', async () => {
    const { sockets, pool } = await warmPool();
    const first = await pool.acquire();
    pool.release(first);
    expect(await pool.acquire()).toBe(first);
    expect(opened).toHaveLength(2);
    expect(sockets.connectionCount()).toBe(2);
  });

  it('keeps one spare beside the sockets in use, opening another when the spare is taken', async () => {
    const { pool } = await warmPool();
    const first = await pool.acquire();
    expect(opened).toHaveLength(2);
    expect(pool.idleCount).toBe(1);
    const second = await pool.acquire();
    expect(second).not.toBe(first);
    expect(opened).toHaveLength(3);
    await waitFor(() => pool.idleCount === 1, 'a new spare');
  });

  it('lets pre-loads reserve idle sockets without opening more', async () => {
    const { pool } = await warmPool();
    const [one, two] = pool.idleSockets();
    expect(pool.reserve(one!)).toBe(true);
    expect(pool.reserve(two!)).toBe(true);
    expect(pool.reserve(one!)).toBe(false);
    expect(pool.idleCount).toBe(0);
    expect(opened).toHaveLength(2);
  });

  it('gives a waiting request the first socket a pre-load releases, and refuses pre-loads until the request has one', async () => {
    const { pool } = await warmPool();
    const [one, two] = pool.idleSockets();
    pool.reserve(one!);
    pool.reserve(two!);
    const waiting = pool.acquire();
    pool.release(one!);
    // A pre-load of newer context would take the socket back before the request woke.
    expect(pool.reserve(one!)).toBe(false);
    expect(await waiting).toBe(one);
    pool.release(one!);
    expect(pool.reserve(one!)).toBe(true);
    expect(opened).toHaveLength(2);
  });

  it('stops a cancelled request’s wait at once, so the next free socket goes to a pre-load or a live request', async () => {
    const { pool } = await warmPool();
    const [one, two] = pool.idleSockets();
    pool.reserve(one!);
    pool.reserve(two!);
    const cancel = new AbortController();
    const cancelled = pool.acquire(cancel.signal);
    cancel.abort();
    await expect(cancelled).rejects.toMatchObject({ code: 'connection-lost' });
    pool.release(one!);
    expect(pool.reserve(one!)).toBe(true);
    const live = pool.acquire();
    pool.release(two!);
    expect(await live).toBe(two);
  });

  it('discards a socket once: one already dropped is left to finish closing', async () => {
    const { pool } = await warmPool();
    const socket = await pool.acquire();
    const disposals = countDisposals(socket);
    pool.discard(socket);
    pool.discard(socket);
    expect(disposals()).toBe(1);
    await waitFor(() => socket.state === 'closed', 'the socket to close');
  });

  it('fails a request that waits longer than its limit for a socket still opening', async () => {
    server = await silentServer();
    const pool = poolFor(server.baseUrl, { acquireTimeoutMs: 200 }, 10_000);
    await expect(pool.acquire()).rejects.toMatchObject({ code: 'unreachable', message: 'The provider did not accept a connection in time.' });
  });

  it('stops reconnecting after a refused key, and each request tries once more and gets the refusal', async () => {
    server = await rejectingServer(401, JSON.stringify({ error: { message: 'Incorrect API key provided.', code: 'invalid_api_key' } }));
    const pool = poolFor(server.baseUrl);
    const states: string[] = [];
    pool.onDidChangeState(({ state }) => states.push(state));
    await expect(pool.acquire()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(states.at(-1)).toBe('offline');
    const tried = opened.length;
    await expect(pool.acquire()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(opened).toHaveLength(tried + 2);
  });

  it('replaces idle sockets the server drops', async () => {
    const { sockets, pool } = await warmPool();
    const before = [...opened];
    sockets.dropConnections();
    await waitFor(() => opened.length === 4 && pool.idleCount === 2, 'two fresh sockets');
    await waitFor(() => before.every((socket) => socket.state === 'closed'), 'the dropped sockets to close');
    expect(pool.idleSockets().some((socket) => before.includes(socket))).toBe(false);
  });

  it('retires sockets at their age limit, but a socket in use only once it is released', async () => {
    const { pool } = await warmPool({ maxAgeMs: 200 });
    const inUse = await pool.acquire();
    await waitFor(() => opened.length >= 3, 'a replacement for the aged spare');
    expect(inUse.state).toBe('open');
    pool.release(inUse);
    await waitFor(() => inUse.state === 'closed', 'the aged socket to close');
    expect(pool.idleSockets()).not.toContain(inUse);
  });

  it('closes every socket on dispose, and fails the request waiting and any made afterwards', async () => {
    const { sockets, pool } = await warmPool();
    for (const socket of pool.idleSockets()) pool.reserve(socket);
    const waiting = pool.acquire();
    pool.dispose();
    await expect(waiting).rejects.toMatchObject({ code: 'connection-lost' });
    await expect(pool.acquire()).rejects.toThrow('shutting down');
    await waitFor(() => sockets.openConnections() === 0, 'the server to see every socket close');
    await waitFor(() => opened.every((socket) => socket.state === 'closed'), 'every socket to close');
    expect(opened).toHaveLength(2);
  });
});
