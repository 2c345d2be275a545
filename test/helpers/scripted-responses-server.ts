/**
 * Test support: tiny Responses endpoints that send exactly what a test scripts, for the
 * malformed, hostile or key-echoing servers the simulator does not play, and for tests
 * of the connection lifecycle (how many sockets are open, what happens when they drop).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { createMemoryLogger } from '../../src/main/logger';
import { ResponsesProvider } from '../../src/main/inference/responses/responses-provider';

/** A running test endpoint: its base URL for the provider, and how to stop it. */
export interface ScriptedServer {
  baseUrl: string;
  close: () => Promise<void>;
}

/** A scripted endpoint that also says what happened to its connections. */
export interface ScriptedSocketServer extends ScriptedServer {
  /** WebSocket connections accepted so far. */
  connectionCount: () => number;
  /** WebSocket connections open now (the server has not seen them close). */
  openConnections: () => number;
  /** Drops every open connection from the server's side, as a network change or restart would. */
  dropConnections: () => void;
}

/** Sends one server event as a JSON text frame (a test names any shape, valid or not). */
export function send(client: WebSocket, event: Record<string, unknown>): void {
  client.send(JSON.stringify(event));
}

/** A Responses endpoint that answers every `response.create` with `answer`, so tests script the events. */
export async function scriptedServer(answer: (client: WebSocket) => void): Promise<ScriptedSocketServer> {
  const sockets = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  let accepted = 0;
  sockets.on('connection', (client) => {
    accepted += 1;
    client.on('message', () => answer(client));
  });
  await new Promise<void>((resolve) => sockets.once('listening', () => resolve()));
  const { port } = sockets.address() as AddressInfo;
  const dropConnections = (): void => {
    for (const client of sockets.clients) client.terminate();
  };
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    connectionCount: () => accepted,
    openConnections: () => sockets.clients.size,
    dropConnections,
    close: async () => {
      dropConnections();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
    },
  };
}

/** An endpoint that refuses every WebSocket upgrade with `status` and `body`, so tests script the refusal. */
export async function rejectingServer(status: number, body: string): Promise<ScriptedServer> {
  return upgradeServer((socket) => {
    socket.end(`HTTP/1.1 ${status} Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  });
}

/** An endpoint that takes the connection and never answers the upgrade (a wedged proxy). */
export async function silentServer(): Promise<ScriptedServer> {
  return upgradeServer(() => undefined);
}

async function upgradeServer(onUpgrade: (socket: Socket) => void): Promise<ScriptedServer> {
  const server: Server = createServer();
  // Upgrade requests leave HTTP's bookkeeping: closeAllConnections does not see them.
  const upgrading = new Set<Socket>();
  server.on('upgrade', (_request, socket: Socket) => {
    upgrading.add(socket);
    socket.once('close', () => upgrading.delete(socket));
    onUpgrade(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: async () => {
      for (const socket of upgrading) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A provider for `baseUrl` with short timeouts and a memory log, as these tests use it. */
export function testProvider(baseUrl: string, apiKey: string): { provider: ResponsesProvider; logger: ReturnType<typeof createMemoryLogger> } {
  const logger = createMemoryLogger();
  const provider = new ResponsesProvider({ baseUrl, apiKey, model: 'gpt-5.3-codex-spark', logger, handshakeTimeoutMs: 1000, idleTimeoutMs: 1000, pool: { backoffInitialMs: 20 } });
  return { provider, logger };
}
