/**
 * Test support: a tiny chat completions endpoint that streams exactly the SSE events a
 * test scripts, for the malformed servers the simulator does not play.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running scripted chat endpoint. */
export interface ScriptedChatServer {
  /** The base URL for the provider (`…/v1`). */
  baseUrl: string;
  /** Chat completion requests received so far. */
  requestCount: () => number;
  close: () => Promise<void>;
}

/**
 * One chunk as a server writes it: a value is sent as JSON; a string is sent as it stands,
 * for JSON that `JSON.stringify` cannot write (`1e999`).
 */
export type ScriptedChunk = unknown;

/** A well-formed chunk with one choice, which a test then breaks as it needs. */
export function chatChunk(content: string | null, finishReason: string | null = null): Record<string, unknown> {
  return { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: finishReason }] };
}

/**
 * Answers every chat completion request with `chunks` (the same script each time), then
 * `[DONE]`. Every request is counted, so a test can tell a retry from none.
 */
export async function scriptedChatServer(chunks: ScriptedChunk[]): Promise<ScriptedChatServer> {
  let requests = 0;
  const server = createServer((request, response) => {
    request.resume();
    if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
      response.writeHead(404).end();
      return;
    }
    requests += 1;
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const chunk of chunks) response.write(`data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`);
    response.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requestCount: () => requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
