import { request as httpRequest } from 'node:http';
import { createConnection } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServeServerMessage } from '../../shared/serve-protocol';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { fail, ok } from '../../shared/result';
import { createContractHost, type ContractHost } from '../contract-host';
import type { FlintCore } from '../core/flint-core';
import { toDisposable } from '../lifecycle';
import type { Logger } from '../logger';
import { createTestCore } from '../../../test/helpers/test-core';
import { startServeServer, type ServeServer } from './serve-server';

interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** Opens a socket and resolves with it, or rejects with the HTTP status the upgrade got. */
function connect(url: string, protocols: string[] = [], headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, protocols, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.once('error', reject);
  });
}

/** Sends `text` as-is over TCP and resolves with the response's status line. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const connection = createConnection(port, '127.0.0.1', () => connection.write(text));
    let answer = '';
    connection.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    connection.on('close', () => resolve(answer.split('\r\n')[0]!));
    connection.on('error', reject);
  });
}

function nextMessage(socket: WebSocket, match: (message: ServeServerMessage) => boolean): Promise<ServeServerMessage> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData): void => {
      const message = JSON.parse(data.toString()) as ServeServerMessage;
      if (match(message)) {
        socket.off('message', onMessage);
        resolve(message);
      }
    };
    socket.on('message', onMessage);
  });
}

/** Sends `app:getInfo` as request `id` and resolves with its answer. */
function answerTo(socket: WebSocket, id: number): Promise<ServeServerMessage> {
  const answer = nextMessage(socket, (message) => message.type === 'response' && message.id === id);
  socket.send(JSON.stringify({ id, channel: 'app:getInfo', input: {} }));
  return answer;
}

describe('the serve shell', () => {
  let renderer: TempProject;
  let config: TempProject;
  let core: FlintCore;
  let logger: Logger & { lines: string[] };
  let server: ServeServer;
  let token: string;
  let socketUrl: string;
  /** What the page offers: the fixed protocol name and the token. */
  let tokenProtocols: string[];

  beforeEach(async () => {
    renderer = await createTempProject({ 'index.html': '<!doctype html><title>Flint</title>', 'assets/app.js': 'console.log(1)' });
    config = await createTempProject();
    const created = await createTestCore({ configDirectory: config.root });
    logger = created.logger;
    core = created.core;
    server = await startServeServer({
      host: createContractHost(core.handlers, logger),
      events: core.onDidEmit,
      rendererFolder: renderer.root,
      logger,
    });
    // Read wherever the URL carries it, so these tests also judge a server that put it elsewhere.
    token = /token=([A-Za-z0-9_-]+)/.exec(server.url)![1]!;
    socketUrl = `ws://127.0.0.1:${server.port}/flint-socket`;
    tokenProtocols = ['flint', `flint.token.${token}`];
  });

  afterEach(async () => {
    await server.close();
    await core.shutdown();
    await renderer.remove();
    await config.remove();
  });


  it('prints a loopback URL with a long random token in the fragment, never in the query', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
  });

  it('serves the static page and assets without any token, with a strict CSP and no cookie', async () => {
    const page = await get(server.port, '/');
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(await get(server.port, '/assets/app.js')).toMatchObject({ status: 200, body: 'console.log(1)' });
    expect(page.headers['set-cookie']).toBeUndefined();
  });

  it('gives the old token cookie and query nothing: no cookie set, no socket opened', async () => {
    const cookie = `flint_token_${server.port}=${token}`;
    expect((await get(server.port, `/?token=${token}`, { Cookie: cookie })).headers['set-cookie']).toBeUndefined();
    await expect(connect(`${socketUrl}?token=${token}`, [], { Cookie: cookie })).rejects.toThrow('HTTP 403');
  });

  it('tells anyone on this origin its instance id at /flint-instance: JSON, never cached, nothing of the token', async () => {
    const answer = await get(server.port, '/flint-instance', { Origin: `http://127.0.0.1:${server.port}` });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['set-cookie']).toBeUndefined();
    expect(JSON.parse(answer.body)).toEqual({ instance: server.instance });
    expect(server.instance).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.body).not.toContain(token);
  });

  it('gives another run of the server another instance id', async () => {
    const other = await startServeServer({
      host: createContractHost(core.handlers, logger),
      events: core.onDidEmit,
      rendererFolder: renderer.root,
      logger,
    });
    try {
      const [mine, theirs] = await Promise.all([get(server.port, '/flint-instance'), get(other.port, '/flint-instance')]);
      expect(JSON.parse(theirs.body)).toEqual({ instance: other.instance });
      expect(JSON.parse(theirs.body)).not.toEqual(JSON.parse(mine.body));
    } finally {
      await other.close();
    }
  });

  it('keeps /flint-instance behind the Host and Origin checks, like every other path', async () => {
    expect((await get(server.port, '/flint-instance', { Host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await get(server.port, '/flint-instance', { Origin: 'http://evil.example' })).status).toBe(403);
  });

  it('refuses a socket without the token subprotocol (the token in the query no longer counts), or a wrong token', async () => {
    await expect(connect(socketUrl)).rejects.toThrow('HTTP 403');
    await expect(connect(`${socketUrl}?token=${token}`, ['flint'])).rejects.toThrow('HTTP 403');
    await expect(connect(socketUrl, ['flint'])).rejects.toThrow('HTTP 403');
    await expect(connect(socketUrl, ['flint', 'flint.token.wrong'])).rejects.toThrow('HTTP 403');
    await expect(connect(socketUrl, ['flint', `flint.token.${token.slice(0, -1)}`])).rejects.toThrow('HTTP 403');
  });

  it('accepts a socket offering the token, and echoes the fixed protocol name, never the token', async () => {
    const socket = await connect(socketUrl, tokenProtocols, { Origin: `http://127.0.0.1:${server.port}` });
    expect(socket.protocol).toBe('flint');
    socket.close();
  });

  it('refuses foreign Host and Origin headers (DNS rebinding, other pages), for pages and sockets', async () => {
    expect((await get(server.port, '/', { Host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await get(server.port, '/', { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(server.port, '/', { Host: `localhost:${server.port}` })).status).toBe(200);
    await expect(connect(socketUrl, tokenProtocols, { Origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect(`ws://127.0.0.1:${server.port}/elsewhere`, tokenProtocols)).rejects.toThrow('HTTP 404');
  });

  it('refuses a request or an upgrade with two Host headers', async () => {
    const hosts = `Host: 127.0.0.1:${server.port}\r\nHost: evil.example\r\n`;
    expect(await rawRequest(server.port, `GET /?token=${token} HTTP/1.1\r\n${hosts}Connection: close\r\n\r\n`)).toBe(
      'HTTP/1.1 400 Bad Request',
    );
    const upgrade =
      `GET /flint-socket HTTP/1.1\r\n${hosts}Connection: Upgrade\r\nUpgrade: websocket\r\n` +
      `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n` +
      `Sec-WebSocket-Protocol: flint, flint.token.${token}\r\n\r\n`;
    expect(await rawRequest(server.port, upgrade)).toBe('HTTP/1.1 400 Bad Request');
  });

  it('caps open sockets at 16 and closes the next one with 1013 and a reason', async () => {
    const open = await Promise.all(Array.from({ length: 16 }, () => connect(socketUrl, tokenProtocols)));
    try {
      const extra = await connect(socketUrl, tokenProtocols);
      const [code, reason] = await new Promise<[number, string]>((resolve) =>
        extra.once('close', (closeCode, closeReason) => resolve([closeCode, closeReason.toString()])),
      );
      expect(code).toBe(1013);
      expect(reason).toContain('Too many Flint pages');

      const closed = new Promise((resolve) => open[0]!.once('close', resolve));
      open[0]!.close();
      await closed;
      const again = await connect(socketUrl, tokenProtocols);
      expect(await answerTo(again, 1)).toMatchObject({ type: 'response', id: 1 });
      again.close();
    } finally {
      for (const socket of open) socket.close();
    }
  });

  it('answers contract requests over the socket and pushes events', async () => {
    const project = await createTempProject({ 'a.txt': 'a' });
    const socket = await connect(socketUrl, tokenProtocols, { Origin: `http://127.0.0.1:${server.port}` });
    try {
      expect(await answerTo(socket, 7)).toEqual({
        type: 'response',
        id: 7,
        result: { ok: true, value: { shell: 'serve', canChooseFolder: false, version: 'test', askCommand: 'flint --ask' } },
      });

      const opened = nextMessage(socket, (message) => message.type === 'event' && message.envelope.channel === 'project:opened');
      socket.send(JSON.stringify({ id: 8, channel: 'project:open', input: { path: project.root } }));
      expect(await opened).toMatchObject({ envelope: { payload: { root: project.root } } });

      const refused = nextMessage(socket, (message) => message.type === 'response' && message.id === 9);
      socket.send(JSON.stringify({ id: 9, channel: 'file:read', input: { path: '../../etc/passwd' } }));
      expect(await refused).toMatchObject({ result: { ok: false, error: { code: 'outside-project' } } });
    } finally {
      socket.close();
      await core.closeProject('closed', 'test over');
      await project.remove();
    }
  });

  it('delivers a one-way request (no id) without answering it, and logs a refusal once per socket, channel and reason', async () => {
    const invoked: Array<{ channel: string; input: unknown }> = [];
    const host: ContractHost = {
      invoke: async (channel, input) => {
        invoked.push({ channel, input });
        // As the contract host does with an id that is not a string.
        return typeof (input as { sessionId?: unknown }).sessionId === 'string' ? ok(null) : fail('invalid-input', 'Invalid input.');
      },
    };
    const recording = await startServeServer({ host, events: () => toDisposable(() => undefined), rendererFolder: renderer.root, logger });
    const socket = await connect(`ws://127.0.0.1:${recording.port}/flint-socket`, ['flint', `flint.token.${/token=([A-Za-z0-9_-]+)/.exec(recording.url)![1]!}`]);
    const answered: ServeServerMessage[] = [];
    socket.on('message', (data) => answered.push(JSON.parse(data.toString()) as ServeServerMessage));
    try {
      for (const sessionId of ['s1', 42, 42]) socket.send(JSON.stringify({ channel: 'ask:ack', input: { sessionId } }));
      // Two round trips after them: each was taken (in order) and its handling done by then.
      await answerTo(socket, 1);
      await answerTo(socket, 2);
      expect(invoked.filter((call) => call.channel === 'ask:ack').map((call) => call.input)).toEqual([{ sessionId: 's1' }, { sessionId: 42 }, { sessionId: 42 }]);
      expect(answered.map((message) => message.type === 'response' && message.id)).toEqual([1, 2]);
      expect(logger.lines.filter((line) => line.includes('ask:ack'))).toEqual(['warning: one-way request ask:ack refused: invalid-input']);
    } finally {
      socket.close();
      await recording.close();
    }
  });

  it('closes a socket that sends a request without an id, or a one-way request with one', async () => {
    for (const frame of [{ channel: 'app:getInfo', input: {} }, { id: 3, channel: 'ask:ack', input: { sessionId: 's1' } }]) {
      const socket = await connect(socketUrl, tokenProtocols);
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      socket.send(JSON.stringify(frame));
      expect(await closed).toBe(1008);
    }
  });

  it('closes a socket that sends something other than a request', async () => {
    const socket = await connect(socketUrl, tokenProtocols);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('not json at all');
    expect(await closed).toBe(1008);
  });
});
