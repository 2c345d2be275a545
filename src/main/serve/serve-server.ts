/**
 * The serve shell: the renderer build and the contract over HTTP + WebSocket on loopback.
 *
 * A generic binding: requests go to the same `ContractHost` Electron's IPC uses,
 * events come from the same core. See request-guard.ts for who may connect and
 * connection-limits.ts for how many.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { CONTENT_SECURITY_POLICY } from '../../shared/content-security-policy';
import { isOneWayChannel, type EventEnvelope } from '../../shared/contract';
import {
  SERVE_INSTANCE_PATH,
  SERVE_SOCKET_PATH,
  SERVE_TOKEN_PARAMETER,
  SOCKET_PROTOCOL,
  type ServeInstance,
  type ServeRequestMessage,
  type ServeServerMessage,
} from '../../shared/serve-protocol';
import type { ContractHost } from '../contract-host';
import type { Event } from '../lifecycle';
import type { Logger } from '../logger';
import { DEFAULT_LIMITS, limitConnections, type LimitSettings } from './connection-limits';
import { checkRequest, offersToken, requestFacts, type GuardConfig } from './request-guard';
import { readStaticFile } from './static-files';

/** What the serve server binds together: the contract, its events and the renderer build. */
export interface ServeServerOptions {
  host: ContractHost;
  events: Event<EventEnvelope>;
  /** The built renderer (out/renderer). */
  rendererFolder: string;
  logger: Logger;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Overrides of the caps on sockets and unauthenticated connections (tests change them). */
  limits?: Partial<LimitSettings>;
}

/** A running serve server: the URL to print, its port, and a clean stop. */
export interface ServeServer {
  /** `http://127.0.0.1:PORT/#token=…` — the one URL to open; the token is in the fragment, never sent. */
  url: string;
  port: number;
  /** This run's id, as `GET /flint-instance` tells any page: not a secret. */
  instance: string;
  close(): Promise<void>;
}

/** Requests are small JSON objects; anything bigger is refused by the socket. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Starts the server on 127.0.0.1 with a fresh token; the URL it returns is the only way in. */
export async function startServeServer(options: ServeServerOptions): Promise<ServeServer> {
  const token = randomBytes(32).toString('base64url');
  // Unrelated to the token (never derived from it), so telling it to anyone gives nothing away.
  const instance = randomUUID();
  const guard: GuardConfig = { port: 0, token };
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    // Echo the fixed name, never the token the page offered alongside it.
    handleProtocols: (offered) => (offered.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false),
  });

  const settings = { ...DEFAULT_LIMITS, ...options.limits };
  // Node's header timeout is no tighter than its request timeout: connection-limits.ts gives
  // each request head its own, far shorter deadline.
  const timeouts = { headersTimeout: settings.requestTimeoutMs, requestTimeout: settings.requestTimeoutMs, connectionsCheckingInterval: 2_000 };
  const server = createServer(timeouts, (request, response) => {
    handleHttp(request, response, guard, { rendererFolder: options.rendererFolder, instance }).catch((error: unknown) => {
      options.logger.error('serve request failed', error);
      if (!response.headersSent) response.writeHead(500).end('Internal error');
    });
  });
  const limits = limitConnections(server, settings);

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refusal = upgradeRefusal(request, guard);
    if (refusal) {
      // Still unauthenticated: if the client never closes its side, its header deadline does.
      socket.end(`HTTP/1.1 ${refusal}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    limits.authenticated(socket);
    sockets.handleUpgrade(request, socket, head, (client) => {
      client.on('error', (error) => options.logger.warn('serve socket error', error));
      if (limits.admit(client)) sockets.emit('connection', client, request);
    });
  });

  sockets.on('connection', (client: WebSocket) => answerRequests(client, options.host, options.logger));

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
    url: `http://127.0.0.1:${guard.port}/#${SERVE_TOKEN_PARAMETER}=${token}`,
    port: guard.port,
    instance,
    close: async () => {
      subscription.dispose();
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** What plain HTTP requests get: the renderer build and this run's instance id. */
interface HttpContent {
  rendererFolder: string;
  instance: string;
}

/** Answers a plain HTTP request: the renderer's static files and the instance id, the same for everyone. */
async function handleHttp(request: IncomingMessage, response: ServerResponse, guard: GuardConfig, content: HttpContent): Promise<void> {
  const verdict = checkRequest(requestFacts(request.rawHeaders, request.url), guard);
  if (!verdict.allowed) {
    response.writeHead(verdict.status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(verdict.reason);
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  // No token needed: these files and the instance id hold no secrets, and all data goes over the socket.
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
  if (verdict.path === '/favicon.ico') {
    response.writeHead(204, headers).end();
    return;
  }
  if (verdict.path === SERVE_INSTANCE_PATH) {
    const body = JSON.stringify({ instance: content.instance } satisfies ServeInstance);
    response.writeHead(200, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) });
    response.end(request.method === 'HEAD' ? undefined : body);
    return;
  }
  const file = await readStaticFile(content.rendererFolder, verdict.path);
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

/**
 * Hands each request the page sends to the contract host, and sends back its answer; a
 * one-way request gets none. A malformed message closes the socket.
 */
function answerRequests(client: WebSocket, host: ContractHost, logger: Logger): void {
  /** The one-way channels and reasons whose refusal this socket's log already has. */
  const refused = new Set<string>();
  client.on('message', (data, isBinary) => {
    const message = isBinary ? null : parseRequest(data.toString());
    if (!message) {
      client.close(1008, 'Malformed request');
      return;
    }
    const { id, channel, input } = message;
    void host.invoke(channel, input).then((result) => {
      if (id !== undefined) send(client, JSON.stringify({ type: 'response', id, result } satisfies ServeServerMessage));
      // Nobody waits for a one-way request's answer: a refusal is logged, once per socket, channel and reason (a page could send thousands).
      else if (!result.ok && !refused.has(`${channel} ${result.error.code}`)) {
        refused.add(`${channel} ${result.error.code}`);
        logger.warn(`one-way request ${channel} refused: ${result.error.code}`);
      }
    });
  });
}

/** Why a socket upgrade is refused, as an HTTP status line, or null to accept it. */
function upgradeRefusal(request: IncomingMessage, guard: GuardConfig): string | null {
  const verdict = checkRequest(requestFacts(request.rawHeaders, request.url), guard);
  if (!verdict.allowed) return verdict.status === 400 ? '400 Bad Request' : '403 Forbidden';
  if (verdict.path !== SERVE_SOCKET_PATH) return '404 Not Found';
  if (!offersToken(request.headers['sec-websocket-protocol'], guard.token)) return '403 Forbidden';
  return null;
}

function send(client: WebSocket, frame: string): void {
  if (client.readyState === client.OPEN) client.send(frame);
}

/** A request (with an id), or a one-way request on a one-way channel (without); anything else is malformed. */
function parseRequest(text: string): ServeRequestMessage | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || !('channel' in value) || typeof value.channel !== 'string') return null;
    const input = 'input' in value ? value.input : undefined;
    // As in Electron, where a one-way channel has no handler to answer an invoke.
    if (isOneWayChannel(value.channel)) return 'id' in value ? null : { channel: value.channel, input };
    if ('id' in value && Number.isSafeInteger(value.id)) return { id: value.id as number, channel: value.channel, input };
  } catch {
    // Fall through: not JSON.
  }
  return null;
}
