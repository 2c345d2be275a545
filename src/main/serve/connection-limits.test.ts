import { Agent, request as httpRequest } from 'node:http';
import { createConnection, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServeServerMessage } from '../../shared/serve-protocol';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { createTestCore } from '../../../test/helpers/test-core';
import { createContractHost } from '../contract-host';
import type { FlintCore } from '../core/flint-core';
import type { Logger } from '../logger';
import type { LimitSettings } from './connection-limits';
import { startServeServer, type ServeServer } from './serve-server';

/** Far longer than any test runs: a connection closed under it was dropped for room, not for silence. */
const NEVER = 10 * 60_000;

/** A raw TCP client that has sent at most part of a request head. */
interface HalfOpen {
  /** Settles when the connection closes, with every byte the server sent. */
  closed: Promise<string>;
  /** Sends the rest of a `GET /flint-instance` head and resolves with the response's status line. */
  finish(): Promise<string>;
}

/**
 * Opens a connection and resolves once it is established. Even-numbered ones send nothing,
 * odd ones the start of a request head, so the flood has both kinds of half-open client.
 */
function halfOpen(port: number, index: number): Promise<HalfOpen> {
  const head = [`GET /flint-instance HTTP/1.1\r\n`, `Host: 127.0.0.1:${port}\r\n`, `Connection: close\r\n\r\n`].join('');
  const sent = index % 2 === 0 ? '' : head.slice(0, 20);
  return new Promise((resolve, reject) => {
    const connection = createConnection(port, '127.0.0.1');
    const closed = collect(connection);
    const finish = async (): Promise<string> => {
      connection.write(head.slice(sent.length));
      return (await closed).split('\r\n')[0]!;
    };
    connection.once('connect', () => {
      if (sent) connection.write(sent);
      resolve({ closed, finish });
    });
    connection.once('error', reject);
  });
}

/** Opens `count` half-open connections one after another, so the server accepts them in this order. */
async function flood(port: number, count: number): Promise<HalfOpen[]> {
  const opened: HalfOpen[] = [];
  for (let index = 0; index < count; index++) opened.push(await halfOpen(port, index));
  return opened;
}

/** Opens a socket as the page does (protocol name and token) and resolves once it is open. */
function connect(port: number, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/flint-socket`, ['flint', `flint.token.${token}`], {
      headers: { Origin: `http://127.0.0.1:${port}` },
    });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

/** Sends `app:getInfo` as request `id` and resolves with its answer. */
function answerTo(socket: WebSocket, id: number): Promise<ServeServerMessage> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const message = JSON.parse(data.toString()) as ServeServerMessage;
      if (message.type !== 'response' || message.id !== id) return;
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ id, channel: 'app:getInfo', input: {} }));
  });
}

/** The page's first request: its HTML, fetched without any token over a kept-alive connection, as a browser does. */
function getPage(port: number, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path: '/', agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('the serve shell under a flood of unauthenticated connections', () => {
  let renderer: TempProject;
  let config: TempProject;
  let core: FlintCore;
  let logger: Logger;
  let server: ServeServer | undefined;
  let token: string;

  beforeEach(async () => {
    renderer = await createTempProject({ 'index.html': '<!doctype html><title>Flint</title>' });
    config = await createTempProject();
    const created = await createTestCore({ configDirectory: config.root });
    logger = created.logger;
    core = created.core;
  });

  afterEach(async () => {
    await server?.close();
    server = undefined;
    await core.shutdown();
    await renderer.remove();
    await config.remove();
  });

  async function start(limits: Partial<LimitSettings>): Promise<number> {
    server = await startServeServer({
      host: createContractHost(core.handlers, logger),
      events: core.onDidEmit,
      rendererFolder: renderer.root,
      logger,
      // Node's own request timeout off: only the header deadline or a drop for room closes a connection.
      limits: { requestTimeoutMs: 0, ...limits },
    });
    token = /token=([A-Za-z0-9_-]+)/.exec(server.url)![1]!;
    return server.port;
  }

  it('lets the page load and connect after 300 half-open connections, by dropping the oldest ones', async () => {
    // No connection here can time out, so the page can only get in by eviction.
    const port = await start({ unauthenticated: 32, headerDeadlineMs: NEVER });
    const idle = await flood(port, 300);
    // Each connection past the 32nd dropped the oldest: all but the newest 32 are gone, in order.
    expect(await Promise.all(idle.slice(0, 268).map(({ closed }) => closed))).toEqual(Array(268).fill(''));

    // The page's kept-alive connection stays open, so the socket's connection needs room of its own.
    const browser = new Agent({ keepAlive: true });
    expect(await getPage(port, browser)).toBe(200);
    const socket = await connect(port, token);
    try {
      expect(await answerTo(socket, 1)).toMatchObject({ type: 'response', id: 1, result: { ok: true } });
      // The page's two connections dropped the two oldest left, and no other.
      expect(await Promise.all(idle.slice(268, 270).map(({ closed }) => closed))).toEqual(['', '']);
      const survivors = await Promise.all(idle.slice(270).map((client) => client.finish()));
      expect(survivors).toEqual(Array(30).fill('HTTP/1.1 200 OK'));
    } finally {
      socket.close();
      browser.destroy();
    }
  });

  it('never drops an authenticated socket for later unauthenticated connections, nor for its silence', async () => {
    const port = await start({ unauthenticated: 32, headerDeadlineMs: 250 });
    const socket = await connect(port, token);
    const socketClosed = new Promise<'closed'>((resolve) => socket.once('close', () => resolve('closed')));
    try {
      const idle = await flood(port, 300);
      // The first 268 were dropped for room; the newest 32 could only go when their deadline passed,
      // which started after the socket's connection would have had its own deadline.
      await Promise.all(idle.map(({ closed }) => closed));
      expect(await Promise.race([answerTo(socket, 2), socketClosed])).toMatchObject({ type: 'response', id: 2, result: { ok: true } });
    } finally {
      socket.close();
    }
  });

  it('closes a connection that sends nothing once its header deadline passes, without a word', async () => {
    const port = await start({ headerDeadlineMs: 50 });
    const [silent] = await flood(port, 1);
    // Dropped without a word: nothing is owed to a client that sent no request.
    expect(await silent!.closed).toBe('');
  });

  it('closes a connection that trickles its request head byte by byte once the deadline passes', async () => {
    const port = await start({ headerDeadlineMs: 100 });
    const connection = createConnection(port, '127.0.0.1');
    const received = collect(connection);
    connection.once('connect', () => trickle(connection, `GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `));
    expect(await received).toBe('');
  });

  it('answers a request head that arrived while main was busy past the deadline (a late timer does not win over it)', async () => {
    const port = await start({ headerDeadlineMs: 50 });
    const connection = createConnection(port, '127.0.0.1');
    const received = collect(connection);
    await new Promise<void>((resolve) => connection.once('connect', () => resolve()));
    await new Promise<void>((resolve) => connection.write(`GET /flint-instance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`, () => resolve()));
    // Main stalls (a long task) with the head already in the socket: the deadline is long past when it wakes.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
    expect((await received).split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  });

  it('makes room by dropping the oldest connection that owes a request head, never one being answered', async () => {
    await renderer.write({ 'big.js': Buffer.alloc(32 * 1024 * 1024, 'x') });
    const port = await start({ unauthenticated: 3, headerDeadlineMs: NEVER });
    // A page asset being sent to a client that is slow to read it: its response is still going.
    const answering = createConnection(port, '127.0.0.1');
    let bytes = 0;
    const started = new Promise<void>((resolve) => answering.once('data', () => resolve()));
    answering.on('data', (chunk: Buffer) => (bytes += chunk.length));
    const answered = new Promise<number>((resolve) => answering.once('close', () => resolve(bytes)));
    await new Promise<void>((resolve) => answering.once('connect', () => resolve()));
    answering.write(`GET /big.js HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n\r\n`);
    // The server is sending the asset; the client stops reading, so the response cannot end.
    await started;
    answering.pause();
    const [first, second] = await flood(port, 2);
    await flood(port, 1);
    expect(await first!.closed).toBe('');
    answering.resume();
    expect(await answered).toBeGreaterThan(32 * 1024 * 1024);
    expect(await second!.finish()).toBe('HTTP/1.1 200 OK');
  });

  it('gives a kept-alive connection a new deadline after each response, so it cannot trickle the next head', async () => {
    const port = await start({ headerDeadlineMs: 100 });
    const connection = createConnection(port, '127.0.0.1');
    const received = collect(connection);
    connection.once('connect', () => connection.write(`GET /flint-instance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`));
    connection.once('data', () => trickle(connection, `GET /flint-instance HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: `));
    // One answer, then the connection dropped while the next head was still arriving.
    const answers = (await received).match(/^HTTP\/1\.1 \d+/gm);
    expect(answers).toEqual(['HTTP/1.1 200']);
  });
});

/** Resolves with everything `connection` received once it closes. */
function collect(connection: Socket): Promise<string> {
  let received = '';
  connection.on('data', (chunk: Buffer) => (received += chunk.toString()));
  // A write racing the server's drop may end in a reset: the close that follows is what counts.
  connection.on('error', () => {});
  return new Promise((resolve) => connection.once('close', () => resolve(received)));
}

/** Writes `start`, then one more header byte every few milliseconds, never ending the head, until the connection closes. */
function trickle(connection: Socket, start: string): void {
  connection.write(start);
  // Every byte arrives well inside any idle timeout.
  const timer = setInterval(() => connection.write('a'), 5);
  connection.once('close', () => clearInterval(timer));
}
