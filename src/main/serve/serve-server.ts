/**
 * The serve shell: the renderer build and the contract over HTTP + WebSocket on loopback.
 *
 * A generic binding: requests go to the same `ContractHost` Electron's IPC uses,
 * events come from the same core. See request-guard.ts for who may connect.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONTENT_SECURITY_POLICY } from '../../shared/content-security-policy';
import type { EventEnvelope } from '../../shared/contract';
import { SERVE_SOCKET_PATH, SERVE_TOKEN_PARAMETER, type ServeRequestMessage, type ServeServerMessage } from '../../shared/serve-protocol';
import type { ContractHost } from '../contract-host';
import type { Event } from '../lifecycle';
import type { Logger } from '../logger';
import { checkRequest, tokenCookieName } from './request-guard';
import { readStaticFile } from './static-files';

export interface ServeServerOptions {
  host: ContractHost;
  events: Event<EventEnvelope>;
  /** The built renderer (out/renderer). */
  rendererFolder: string;
  logger: Logger;
  /** 0 (default) picks a free port. */
  port?: number;
}

export interface ServeServer {
  /** `http://127.0.0.1:PORT/?token=…` — the one URL to open. */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Requests are small JSON objects; anything bigger is refused by the socket. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

export async function startServeServer(options: ServeServerOptions): Promise<ServeServer> {
  const token = randomBytes(32).toString('base64url');
  const guard = { port: 0, token };
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  const server = createServer((request, response) => {
    handleHttp(request, response).catch((error: unknown) => {
      options.logger.error('serve request failed', error);
      if (!response.headersSent) response.writeHead(500).end('Internal error');
    });
  });

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const verdict = checkRequest(factsOf(request), guard);
    if (!verdict.allowed) {
      response.writeHead(verdict.status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(verdict.reason);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    const headers: Record<string, string> = {
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
    };
    if (verdict.fromQuery) {
      headers['Set-Cookie'] = `${tokenCookieName(guard.port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
    }
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (path === '/favicon.ico') {
      response.writeHead(204, headers).end();
      return;
    }
    const file = await readStaticFile(options.rendererFolder, path);
    if (!file) {
      response.writeHead(404, { ...headers, 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    if (file.contentType.startsWith('text/html')) {
      headers['Content-Security-Policy'] = CONTENT_SECURITY_POLICY;
      headers['X-Frame-Options'] = 'DENY';
    }
    response.writeHead(200, { ...headers, 'Content-Type': file.contentType, 'Content-Length': String(file.body.length) });
    response.end(request.method === 'HEAD' ? undefined : file.body);
  }

  server.on('upgrade', (request, socket, head) => {
    const verdict = checkRequest(factsOf(request), guard);
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (!verdict.allowed || path !== SERVE_SOCKET_PATH) {
      const status = !verdict.allowed ? `${verdict.status} Forbidden` : '404 Not Found';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (client) => sockets.emit('connection', client, request));
  });

  sockets.on('connection', (client: WebSocket) => {
    client.on('message', (data, isBinary) => {
      const message = isBinary ? null : parseRequest(data.toString());
      if (!message) {
        client.close(1008, 'Malformed request');
        return;
      }
      void options.host.invoke(message.channel, message.input).then((result) => {
        send(client, JSON.stringify({ type: 'response', id: message.id, result } satisfies ServeServerMessage));
      });
    });
    client.on('error', (error) => options.logger.warn('serve socket error', error));
  });

  const subscription = options.events((envelope) => {
    // Serialized once, sent to every open page.
    const frame = JSON.stringify({ type: 'event', envelope } satisfies ServeServerMessage);
    for (const client of sockets.clients) send(client, frame);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  guard.port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${guard.port}/?${SERVE_TOKEN_PARAMETER}=${token}`,
    port: guard.port,
    close: async () => {
      subscription.dispose();
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function factsOf(request: IncomingMessage) {
  return {
    host: request.headers.host,
    origin: request.headers.origin,
    url: request.url ?? '/',
    cookie: request.headers.cookie,
  };
}

function send(client: WebSocket, frame: string): void {
  if (client.readyState === client.OPEN) client.send(frame);
}

function parseRequest(text: string): ServeRequestMessage | null {
  try {
    const value: unknown = JSON.parse(text);
    if (
      typeof value === 'object' &&
      value !== null &&
      'id' in value &&
      Number.isSafeInteger(value.id) &&
      'channel' in value &&
      typeof value.channel === 'string'
    ) {
      return { id: value.id as number, channel: value.channel, input: 'input' in value ? value.input : undefined };
    }
  } catch {
    // Fall through: not JSON.
  }
  return null;
}
