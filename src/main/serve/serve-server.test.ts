import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServeServerMessage } from '../../shared/serve-protocol';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { createContractHost } from '../contract-host';
import type { FlintCore } from '../core/flint-core';
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
function connect(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
    socket.once('error', reject);
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

describe('the serve shell', () => {
  let renderer: TempProject;
  let config: TempProject;
  let core: FlintCore;
  let server: ServeServer;
  let token: string;

  beforeEach(async () => {
    renderer = await createTempProject({ 'index.html': '<!doctype html><title>Flint</title>', 'assets/app.js': 'console.log(1)' });
    config = await createTempProject();
    const created = await createTestCore({ configDirectory: config.root });
    const logger = created.logger;
    core = created.core;
    server = await startServeServer({
      host: createContractHost(core.handlers, logger),
      events: core.onDidEmit,
      rendererFolder: renderer.root,
      logger,
    });
    token = new URL(server.url).searchParams.get('token')!;
  });

  afterEach(async () => {
    await server.close();
    await core.shutdown();
    await renderer.remove();
    await config.remove();
  });

  it('prints a loopback URL with a long random token', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{43}$/);
  });

  it('refuses HTTP requests without the token', async () => {
    expect((await get(server.port, '/')).status).toBe(403);
    expect((await get(server.port, '/assets/app.js')).status).toBe(403);
    expect((await get(server.port, '/?token=wrong')).status).toBe(403);
  });

  it('serves the page for the token, with a strict CSP, and sets the token cookie for its assets', async () => {
    const page = await get(server.port, `/?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toBe(`flint_token_${server.port}=${token}`);
    const asset = await get(server.port, '/assets/app.js', { Cookie: cookie });
    expect(asset).toMatchObject({ status: 200, body: 'console.log(1)' });
  });

  it('refuses foreign Host and Origin headers even with the token (DNS rebinding, other pages)', async () => {
    expect((await get(server.port, `/?token=${token}`, { Host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await get(server.port, `/?token=${token}`, { Origin: 'http://evil.example' })).status).toBe(403);
    expect((await get(server.port, `/?token=${token}`, { Host: `localhost:${server.port}` })).status).toBe(200);
  });

  it('refuses sockets without the token or from a foreign origin', async () => {
    const base = `ws://127.0.0.1:${server.port}/flint-socket`;
    await expect(connect(base)).rejects.toThrow('HTTP 403');
    await expect(connect(`${base}?token=${token}`, { Origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect(`ws://127.0.0.1:${server.port}/elsewhere?token=${token}`)).rejects.toThrow('HTTP 404');
  });

  it('answers contract requests over the socket and pushes events', async () => {
    const project = await createTempProject({ 'a.txt': 'a' });
    const socket = await connect(`ws://127.0.0.1:${server.port}/flint-socket?token=${token}`, {
      Origin: `http://127.0.0.1:${server.port}`,
    });
    try {
      const answer = nextMessage(socket, (message) => message.type === 'response' && message.id === 7);
      socket.send(JSON.stringify({ id: 7, channel: 'app:getInfo', input: {} }));
      expect(await answer).toEqual({
        type: 'response',
        id: 7,
        result: { ok: true, value: { shell: 'serve', canChooseFolder: false, version: 'test' } },
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

  it('closes a socket that sends something other than a request', async () => {
    const socket = await connect(`ws://127.0.0.1:${server.port}/flint-socket?token=${token}`);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('not json at all');
    expect(await closed).toBe(1008);
  });
});
