/**
 * ResponsesProvider where its sockets and Flint's own code misbehave rather than the
 * server's answers: a sink that throws, and a warm socket that died unseen. Against real
 * local WebSocket servers.
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer, type WebSocket } from 'ws';
import { collect } from '../../../../test/helpers/collect-stream';
import { scriptedServer, send, testProvider, type ScriptedServer } from '../../../../test/helpers/scripted-responses-server';
import { waitFor } from '../../../../test/helpers/temp-project';
import { createMemoryLogger } from '../../logger';
import type { StreamEnd } from '../model-stream';
import { INTERNAL_ERROR_MESSAGE } from '../run-model-stream';
import { ResponsesProvider } from './responses-provider';

const MODEL = 'gpt-5.3-codex-spark';

/** Answers with `pieces` as deltas, then completes. */
const answer =
  (...pieces: string[]) =>
  (client: WebSocket): void => {
    for (const delta of pieces) send(client, { type: 'response.output_text.delta', delta });
    send(client, { type: 'response.completed', response: {} });
  };

/**
 * A Responses endpoint whose first connection it starts to close and never finishes: its
 * close frame goes out, the client's reply comes back, and the TCP connection stays up.
 * The client's WebSocket is then closing underneath while ws has not yet reported a close,
 * so Flint still holds the socket as warm and open — and a write on it fails. Every later
 * connection is a plain endpoint answered by `answerLater`.
 */
async function halfClosingServer(answerLater: (client: WebSocket) => void): Promise<ScriptedServer & { clientIsClosing: () => boolean; requests: () => number }> {
  const http = createServer();
  const sockets = new WebSocketServer({ noServer: true });
  const raw = new Set<Socket>();
  let upgrades = 0;
  let requests = 0;
  let clientIsClosing = false;
  http.on('upgrade', (request, socket: Socket, head: Buffer) => {
    upgrades += 1;
    if (upgrades > 1) {
      sockets.handleUpgrade(request, socket, head, (client) => client.on('message', () => ((requests += 1), answerLater(client))));
      return;
    }
    raw.add(socket);
    // RFC 6455: the accept key is the client's key and a fixed GUID, hashed.
    const accept = createHash('sha1').update(`${request.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    // A server close frame (opcode 8, unmasked) with code 1000.
    socket.write(Buffer.from([0x88, 0x02, 0x03, 0xe8]));
    // The client's frames are masked: 0x88 is its close frame's first byte, the reply.
    socket.on('data', (data: Buffer) => (clientIsClosing ||= data[0] === 0x88));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  const { port } = http.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    clientIsClosing: () => clientIsClosing,
    requests: () => requests,
    close: async () => {
      for (const socket of raw) socket.destroy();
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

describe('ResponsesProvider when a socket or Flint itself misbehaves', () => {
  let server: ScriptedServer | undefined;
  let provider: ResponsesProvider | undefined;

  afterEach(async () => {
    provider?.dispose();
    await server?.close();
    server = provider = undefined;
  });

  it('ends with an internal error, logged, when the sink throws on a delta, instead of throwing into the socket and stalling', async () => {
    server = await scriptedServer(answer('Hel', 'lo'));
    const opened = testProvider(server.baseUrl, 'sk-test');
    provider = opened.provider;
    const ends: StreamEnd[] = [];
    const stream = provider.stream(
      { model: MODEL, input: 'hello' },
      {
        onDelta: () => {
          throw new Error('sink bug');
        },
        onEnd: (end) => ends.push(end),
      },
    );
    expect(await stream.done).toMatchObject({ outcome: 'failed', message: INTERNAL_ERROR_MESSAGE });
    expect(ends).toHaveLength(1);
    expect(opened.logger.lines.some((line) => line.startsWith('error: responses stream failed: Error: sink bug'))).toBe(true);
  });

  it('retries on a fresh socket when the warm one died unseen and the request could not be written', async () => {
    const halfClosing = await halfClosingServer(answer('fresh'));
    server = halfClosing;
    const logger = createMemoryLogger();
    // One socket, so the request must take the dead one first.
    provider = new ResponsesProvider({ baseUrl: halfClosing.baseUrl, apiKey: 'sk-test', model: MODEL, logger, handshakeTimeoutMs: 1000, idleTimeoutMs: 5000, pool: { size: 1, backoffInitialMs: 20 } });
    provider.warm();
    await waitFor(() => halfClosing.clientIsClosing(), 'the warm socket to start closing underneath');
    const asked = collect(provider, { model: MODEL, input: 'hello' });
    expect((await asked.end).outcome).toBe('completed');
    expect(asked.text).toBe('fresh');
    expect(halfClosing.requests()).toBe(1);
    expect(logger.lines).toContain('info: responses: retrying after connection-lost');
    expect(logger.lines.some((line) => line.includes('the request could not be written'))).toBe(true);
  });
});
