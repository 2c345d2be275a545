/**
 * The inference simulator: OpenAI Responses over WebSocket and chat completions over
 * SSE, on 127.0.0.1, with scripted answers, pacing and injectable faults.
 *
 * Used by the tests, the end-to-end runs and the bench (`npm run sim` runs it alone).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { pace, type PaceOptions } from './pacer';
import { StreamHolds } from './stream-holds';

export { requestChain } from './request-chain';
import {
  closingEvents,
  deltaEvent,
  errorEvent,
  EventSequence,
  newResponseDraft,
  openingEvents,
  prewarmEvents,
  type ServerEvent,
} from './responses-events';
import { findRule, simulatedTokens, SimScriptSchema, type Fault, type SimRule, type SimScript } from './sim-script';

export interface SimulatorOptions extends Partial<PaceOptions> {
  port?: number;
  script?: SimScript;
  /** When set, requests must carry `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** When set, other models get `model_not_found`. */
  models?: string[];
  /** The server's connection age limit (the real one is 60 minutes). */
  maxConnectionAgeMs?: number;
  /** Repeat the presented key in 401 messages, as some proxies do (tests redaction). */
  echoKeyInErrors?: boolean;
  /**
   * `GET /v1/models`: which ids it lists (default: `models`, else a few well-known ones),
   * or that the server has no such route (404, as some compatible servers), or that it
   * answers only after `delayMs` (a slow provider).
   */
  modelList?: { ids?: string[]; status?: number; delayMs?: number };
  /**
   * How an unknown model is refused (default 404 `model_not_found`): real providers also
   * answer 403 ("does not have access to model") or 400 ("model not supported").
   */
  modelRefusal?: { status: number; code: string; message: string };
  /** The name an answer reports for a requested model (providers resolve aliases to dated names). */
  aliases?: Record<string, string>;
  /** Called with each delta of text as it is written to the client (benches time what follows from there). */
  onDelta?: (text: string) => void;
}

/** One request as the simulator saw it, for tests to inspect. */
export interface SimRequest {
  protocol: 'responses' | 'chat';
  body: Record<string, unknown>;
  connectionId: number;
  at: number;
  /** The id of the response it created (Responses only), which a later `previous_response_id` names. */
  responseId?: string;
}

export interface Simulator {
  port: number;
  /** `http://127.0.0.1:PORT/v1`, the base URL for both protocols. */
  baseUrl: string;
  requests: SimRequest[];
  /** WebSocket connections accepted so far. */
  connectionCount(): number;
  /** WebSocket upgrade requests received so far, accepted or not. */
  upgradeAttempts(): number;
  /** Applies a fault to the next request (or upgrade, for upgrade faults). */
  injectFault(fault: Fault): void;
  /** Resolves when an answer reaches its rule's `holdAfter`; `release` lets it go on. */
  whenHeld(): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

/** What `GET /v1/models` lists when a test says nothing. */
const DEFAULT_MODEL_LIST = ['gpt-5.3-codex-spark', 'gpt-5.3-codex', 'gpt-oss-120b'];

const DEFAULT_PACE: PaceOptions = { ttftMs: 120, tokensPerSecond: 1000, chunkTokens: 4 };
const UPGRADE_FAULTS: ReadonlySet<Fault> = new Set(['unauthorized', 'no-upgrade-response']);

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const script = options.script ?? SimScriptSchema.parse({});
  const requests: SimRequest[] = [];
  const pendingFaults: Fault[] = [];
  /** How often each rule with `times` has answered. */
  const ruleUses = new Map<SimRule, number>();
  const openSockets = new Set<Socket>();
  const holds = new StreamHolds();
  let connections = 0;
  let upgrades = 0;

  const takeFault = (upgrade: boolean): Fault | undefined => {
    const index = pendingFaults.findIndex((fault) => UPGRADE_FAULTS.has(fault) === upgrade);
    return index === -1 ? undefined : pendingFaults.splice(index, 1)[0];
  };

  const paceFor = (rule: ReturnType<typeof findRule>): PaceOptions => ({
    ttftMs: rule?.ttftMs ?? options.ttftMs ?? DEFAULT_PACE.ttftMs,
    tokensPerSecond: rule?.tokensPerSecond ?? options.tokensPerSecond ?? DEFAULT_PACE.tokensPerSecond,
    chunkTokens: options.chunkTokens ?? DEFAULT_PACE.chunkTokens,
  });

  const authorized = (header: string | undefined): boolean => !options.apiKey || header === `Bearer ${options.apiKey}`;
  const knownModel = (model: unknown): boolean => !options.models || options.models.includes(String(model));

  const answeredBy = (model: unknown): string => options.aliases?.[String(model)] ?? String(model);
  const modelRefusal = (model: unknown): { status: number; code: string; message: string } =>
    options.modelRefusal
      ? { ...options.modelRefusal, message: options.modelRefusal.message.replaceAll('{model}', String(model)) }
      : { status: 404, code: 'model_not_found', message: `The model \`${String(model)}\` does not exist or you do not have access to it.` };

  /** `GET /v1/models` in OpenAI's shape (`{object: 'list', data: [{id, object: 'model', …}]}`). */
  async function listModels(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const list = options.modelList ?? {};
    if (list.delayMs) await answerAfter(list.delayMs, response);
    if (response.destroyed) return;
    if (!authorized(request.headers.authorization)) {
      const presented = options.echoKeyInErrors ? ` You sent: ${request.headers.authorization ?? 'nothing'}.` : '';
      return sendJsonError(response, 401, 'invalid_api_key', `Incorrect API key provided.${presented}`, 'invalid_request_error');
    }
    if (list.status !== undefined && list.status !== 200) return sendJsonError(response, list.status, 'not_found', 'No route GET /v1/models');
    const ids = list.ids ?? options.models ?? DEFAULT_MODEL_LIST;
    const data = ids.map((id) => ({ id, object: 'model', created: 1_764_000_000, owned_by: 'flint-simulator' }));
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ object: 'list', data }));
  }

  // ---- chat completions over SSE ----
  const server = createServer((request, response) => {
    handleHttp(request, response).catch(() => response.destroy());
  });
  server.on('connection', (socket) => {
    openSockets.add(socket);
    socket.once('close', () => openSockets.delete(socket));
  });

  async function handleHttp(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://sim').pathname;
    if (request.method === 'GET' && path === '/v1/models') return listModels(request, response);
    if (request.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendJsonError(response, 404, 'not_found', `No route ${request.method} ${path}`);
    }
    if (!authorized(request.headers.authorization)) {
      return sendJsonError(response, 401, 'invalid_api_key', 'Incorrect API key provided.', 'invalid_request_error');
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(request)) as Record<string, unknown>;
    } catch {
      return sendJsonError(response, 400, 'invalid_json', 'We could not parse the JSON body of your request.', 'invalid_request_error');
    }
    requests.push({ protocol: 'chat', body, connectionId: 0, at: Date.now() });
    if (!knownModel(body.model)) {
      const refusal = modelRefusal(body.model);
      return sendJsonError(response, refusal.status, refusal.code, refusal.message, 'invalid_request_error');
    }
    const requestText = JSON.stringify(body.messages ?? '');
    const rule = findRule(script, body, requestText, ruleUses);
    const fault = takeFault(false) ?? rule?.fault;
    if (fault === 'unauthorized') return sendJsonError(response, 401, 'invalid_api_key', 'Incorrect API key provided.', 'invalid_request_error');
    if (fault === 'rate-limited') {
      response.setHeader('retry-after', '2');
      return sendJsonError(response, 429, 'rate_limit_exceeded', 'Rate limit reached. Please try again in 2s.', 'requests');
    }
    if (fault === 'server-error') return sendJsonError(response, 500, 'server_error', 'The server had an error while processing your request.', 'server_error');

    const text = rule?.answer?.text ?? rule?.answer?.toolInput ?? script.defaultAnswer;
    const tokens = simulatedTokens(text);
    const id = `chatcmpl-${randomBytes(12).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, unknown>, finishReason: string | null, usage: unknown = null) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: answeredBy(body.model), system_fingerprint: null, choices: usage && finishReason === null ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finishReason }], usage })}\n\n`;

    response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    response.flushHeaders();
    response.write(chunk({ role: 'assistant', content: '' }, null));
    const cut = Math.floor(tokens.length / 2);
    const stream = pace(tokens, { ...paceFor(rule), hold: holds.holdFor(rule, tokens) }, (piece, index) => {
      if (fault === 'drop-mid-stream' && index >= cut / paceFor(rule).chunkTokens) {
        stream.stop();
        // Drop after what was written reached the client: destroy() alone discards buffered
        // chunks, and a drop before any text is (rightly) retried, which is another fault.
        const socket = response.socket;
        if (socket) socket.write('', () => socket.destroy());
        return;
      }
      if (fault === 'malformed-frame' && index === 1) response.write('data: {this is not json\n\n');
      response.write(chunk({ content: piece }, null));
      options.onDelta?.(piece);
      if (fault === 'stall') stream.stop();
    });
    request.once('close', () => stream.stop());
    if ((await stream.done) !== 'finished') return;
    response.write(chunk({}, 'stop'));
    const stream_options = body.stream_options as { include_usage?: boolean } | undefined;
    if (stream_options?.include_usage) {
      response.write(chunk({}, null, { prompt_tokens: simulatedTokens(requestText).length, completion_tokens: tokens.length, total_tokens: simulatedTokens(requestText).length + tokens.length }));
    }
    response.end('data: [DONE]\n\n');
  }

  // ---- Responses over WebSocket ----
  const sockets = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request, socket, head) => {
    upgrades += 1;
    const path = new URL(request.url ?? '/', 'http://sim').pathname;
    const fault = takeFault(true);
    if (fault === 'no-upgrade-response') return; // Hold the socket; answer nothing.
    if (path !== '/v1/responses') return rejectUpgrade(socket, 404, { error: { message: `No route ${path}`, type: 'invalid_request_error', code: 'not_found' } });
    if (fault === 'unauthorized' || !authorized(request.headers.authorization)) {
      const presented = options.echoKeyInErrors ? ` You sent: ${request.headers.authorization ?? 'nothing'}.` : '';
      return rejectUpgrade(socket, 401, { error: { message: `Incorrect API key provided.${presented}`, type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    sockets.handleUpgrade(request, socket, head, (client) => serveConnection(client, ++connections));
  });

  function serveConnection(client: WebSocket, connectionId: number): void {
    const openedAt = Date.now();
    const known = new Set<string>();
    // One response at a time per connection; later creates wait their turn, as on the real server.
    let queue: Promise<void> = Promise.resolve();
    client.on('message', (data, isBinary) => {
      let event: Record<string, unknown>;
      try {
        event = JSON.parse(data.toString()) as Record<string, unknown>;
      } catch {
        return send(client, errorEvent(400, 'invalid_json', 'Could not parse the message as JSON.'));
      }
      if (isBinary || event.type !== 'response.create') {
        return send(client, errorEvent(400, 'unsupported_event', `Unsupported client event ${String(event.type)}.`, { param: 'type' }));
      }
      queue = queue.then(() => respond(client, connectionId, event, known, openedAt));
    });
  }

  async function respond(client: WebSocket, connectionId: number, body: Record<string, unknown>, known: Set<string>, openedAt: number): Promise<void> {
    if (client.readyState !== client.OPEN) return;
    const seen: SimRequest = { protocol: 'responses', body, connectionId, at: Date.now() };
    requests.push(seen);
    const requestText = JSON.stringify([body.instructions ?? '', body.input ?? '']);
    const rule = findRule(script, body, requestText, ruleUses);
    const fault = takeFault(false) ?? rule?.fault;
    const previous = typeof body.previous_response_id === 'string' ? body.previous_response_id : null;

    if (fault === 'connection-age-limit' || (options.maxConnectionAgeMs !== undefined && Date.now() - openedAt > options.maxConnectionAgeMs)) {
      send(client, errorEvent(400, 'websocket_connection_limit_reached', 'Responses websocket connection limit reached (60 minutes). Create a new websocket connection to continue.'));
      client.close(1000, 'connection limit reached');
      return;
    }
    if (fault === 'previous-response-not-found' || (previous !== null && !known.has(previous))) {
      send(client, errorEvent(400, 'previous_response_not_found', `Previous response with id '${previous ?? 'resp_unknown'}' not found.`, { param: 'previous_response_id' }));
      if (previous) known.delete(previous);
      return;
    }
    if (!knownModel(body.model)) {
      const refusal = modelRefusal(body.model);
      send(client, errorEvent(refusal.status, refusal.code, refusal.message, { param: 'model' }));
      return;
    }
    if (fault === 'unauthorized') {
      send(client, errorEvent(401, 'invalid_api_key', 'Incorrect API key provided.'));
      return;
    }
    if (fault === 'rate-limited') {
      send(client, errorEvent(429, 'rate_limit_exceeded', 'Rate limit reached. Please try again in 2s.', { headers: { 'retry-after': '2' } }));
      return;
    }
    if (fault === 'server-error') {
      send(client, errorEvent(500, 'server_error', 'The server had an error while processing your request.'));
      return;
    }

    const answer = rule?.answer;
    const isTool = answer?.toolInput !== undefined;
    const text = isTool ? answer!.toolInput! : (answer?.text ?? script.defaultAnswer);
    const draft = newResponseDraft(answeredBy(body.model ?? 'unknown'), previous, isTool ? { kind: 'tool', name: answer!.toolName, callId: `call_${randomBytes(8).toString('hex')}` } : { kind: 'text' });
    seen.responseId = draft.id;
    const sequence = new EventSequence();
    const inputTokens = simulatedTokens(requestText).length;

    if (body.generate === false) {
      for (const event of prewarmEvents(draft, sequence, inputTokens)) send(client, event);
      known.add(draft.id);
      return;
    }
    for (const event of openingEvents(draft, sequence)) send(client, event);
    if (fault === 'drop-before-output') {
      client.terminate();
      return;
    }
    if (fault === 'unknown-event') send(client, sequence.stamp({ type: 'response.flint_simulator_unknown', note: 'ignore me' }));

    const tokens = simulatedTokens(text);
    const rate = paceFor(rule);
    const cutChunk = Math.floor(tokens.length / 2 / rate.chunkTokens);
    const stream = pace(tokens, { ...rate, hold: holds.holdFor(rule, tokens) }, (piece, index) => {
      if (client.readyState !== client.OPEN) return stream.stop();
      if (fault === 'drop-mid-stream' && index >= Math.max(1, cutChunk)) {
        stream.stop();
        // Once what was sent is written (a ping is written after it): terminate() discards buffered frames.
        client.ping(undefined, undefined, () => client.terminate());
        return;
      }
      if (fault === 'malformed-frame' && index === 1) client.send('{"type": "response.output_text.delta", this is not json');
      if (fault === 'oversized-frame' && index === 1) client.send(JSON.stringify(deltaEvent(draft, sequence, 'x'.repeat(17 * 1024 * 1024))));
      send(client, deltaEvent(draft, sequence, piece));
      options.onDelta?.(piece);
      if (fault === 'stall') stream.stop();
    });
    const stopOnClose = (): void => stream.stop();
    client.once('close', stopOnClose);
    const how = await stream.done;
    client.off('close', stopOnClose);
    if (how !== 'finished') return;
    for (const event of closingEvents(draft, sequence, text, { inputTokens, outputTokens: tokens.length })) send(client, event);
    known.add(draft.id);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    connectionCount: () => connections,
    upgradeAttempts: () => upgrades,
    injectFault: (fault) => void pendingFaults.push(fault),
    whenHeld: () => holds.whenHeld(),
    release: () => holds.release(),
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      for (const socket of openSockets) socket.destroy();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(client: WebSocket, event: ServerEvent): void {
  if (client.readyState === client.OPEN) client.send(JSON.stringify(event));
}

function sendJsonError(response: ServerResponse, status: number, code: string, message: string, type = 'invalid_request_error'): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify({ error: { message, type, param: null, code } }));
}

function rejectUpgrade(socket: Socket | import('node:stream').Duplex, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  const reason = status === 401 ? 'Unauthorized' : 'Not Found';
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 8 * 1024 * 1024) request.destroy(new Error('body too large'));
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

/** Waits `ms` before answering, or until the client gives up on `response` (no timer is left behind). */
function answerAfter(ms: number, response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    response.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
