import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collect } from '../../../../test/helpers/collect-stream';
import { SimScriptSchema } from '../../../../test/sim/sim-script';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../../../test/sim/simulator';
import { waitFor } from '../../../../test/helpers/temp-project';
import { createMemoryLogger } from '../../logger';
import { ResponsesProvider, responsesUrl, type ResponsesProviderOptions } from './responses-provider';

const ANSWER = 'One two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen.';
const MODEL = 'gpt-5.3-codex-spark';

describe('ResponsesProvider against the simulator', () => {
  let sim: Simulator;
  let provider: ResponsesProvider;
  let logger: ReturnType<typeof createMemoryLogger>;

  async function setUp(simOptions: SimulatorOptions = {}, providerOptions: Partial<ResponsesProviderOptions> = {}) {
    sim = await startSimulator({
      ttftMs: 5,
      tokensPerSecond: 4000,
      chunkTokens: 2,
      apiKey: 'sk-test',
      models: [MODEL, 'gpt-5.3-codex'],
      script: SimScriptSchema.parse({ defaultAnswer: ANSWER }),
      ...simOptions,
    });
    logger = createMemoryLogger();
    provider = new ResponsesProvider({
      baseUrl: sim.baseUrl,
      apiKey: 'sk-test',
      model: MODEL,
      logger,
      handshakeTimeoutMs: 1000,
      idleTimeoutMs: 1000,
      pool: { backoffInitialMs: 20, backoffMaxMs: 100, acquireTimeoutMs: 2000 },
      ...providerOptions,
    });
  }

  beforeEach(() => undefined);
  afterEach(async () => {
    provider?.dispose();
    await sim?.close();
  });

  const ask = (input = 'hello', extra: Partial<Parameters<ResponsesProvider['stream']>[0]> = {}) =>
    collect(provider, { model: MODEL, input, ...extra });

  it('streams an answer and records Flint overhead, time to first delta and tokens per second', async () => {
    await setUp();
    const answer = ask();
    const end = await answer.end;
    expect(end.outcome).toBe('completed');
    expect(answer.text).toBe(ANSWER);
    expect(end.latency.keypressToWriteMs).toBeGreaterThanOrEqual(0);
    expect(end.latency.requestToFirstDeltaMs).toBeGreaterThan(0);
    expect(end.latency.tokensPerSecond).toBeGreaterThan(0);
    expect(end.latency.outputTokens).toBeGreaterThan(10);
  });

  it('opens a warm connection and a hot spare before the first request, and reuses them', async () => {
    await setUp();
    provider.warm();
    await waitFor(() => sim.connectionCount() === 2, 'two warm connections');
    await ask().end;
    await ask().end;
    expect(sim.connectionCount()).toBe(2);
    expect(new Set(sim.requests.map((request) => request.connectionId)).size).toBe(1);
  });

  it('cancels at once by closing the socket, and the next request goes out on the warm spare', async () => {
    await setUp({ tokensPerSecond: 200 });
    provider.warm();
    await waitFor(() => sim.connectionCount() === 2, 'two warm connections');
    const first = ask();
    await waitFor(() => first.deltas > 0, 'the first delta');
    first.stream.cancel();
    const end = await first.end;
    expect(end.outcome).toBe('cancelled');
    const deltasAtCancel = first.deltas;
    const second = ask('again');
    await waitFor(() => second.deltas > 0, 'the second answer');
    // The second request used the spare, opened before the cancel.
    expect(sim.requests[1]!.connectionId).toBe(2);
    second.stream.cancel();
    expect(first.deltas).toBe(deltasAtCancel);
  });

  it('pre-loads instructions with generate:false and then sends only the question', async () => {
    await setUp();
    provider.preload('You are Flint. Context: src/app.ts …');
    await waitFor(() => sim.requests.filter((request) => request.body.generate === false).length === 2, 'both sockets pre-loaded');
    const answer = ask('what does app.ts do?', { instructions: 'You are Flint. Context: src/app.ts …' });
    expect((await answer.end).outcome).toBe('completed');
    const sent = sim.requests.at(-1)!.body;
    expect(sent.previous_response_id).toMatch(/^resp_/);
    expect(sent.instructions).toBeUndefined();
    expect(JSON.stringify(sent.input)).toContain('what does app.ts do?');
  });

  it('resends the full context when the pre-loaded response is gone', async () => {
    await setUp();
    provider.preload('Context A');
    await waitFor(() => sim.requests.filter((request) => request.body.generate === false).length === 2, 'pre-loaded');
    sim.injectFault('previous-response-not-found');
    const answer = ask('question', { instructions: 'Context A' });
    expect((await answer.end).outcome).toBe('completed');
    expect(answer.text).toBe(ANSWER);
    expect(sim.requests.at(-1)!.body).toMatchObject({ instructions: 'Context A' });
    expect(sim.requests.at(-1)!.body.previous_response_id).toBeUndefined();
  });

  it('retries once, cleanly, when the connection drops before any output', async () => {
    await setUp();
    sim.injectFault('drop-before-output');
    const answer = ask();
    const end = await answer.end;
    expect(end.outcome).toBe('completed');
    expect(answer.text).toBe(ANSWER);
    expect(sim.requests.filter((request) => request.protocol === 'responses')).toHaveLength(2);
  });

  it('never replays partial text: a drop mid-answer fails clearly, and the next request works', async () => {
    await setUp();
    sim.injectFault('drop-mid-stream');
    const broken = ask();
    const end = await broken.end;
    expect(end.outcome).toBe('failed');
    // In words: no "(code 1006)".
    expect(end.message).toBe(`The connection to 127.0.0.1:${sim.port} dropped in the middle of the answer.`);
    expect(ANSWER.startsWith(broken.text)).toBe(true);
    expect(broken.text.length).toBeLessThan(ANSWER.length);
    expect(sim.requests).toHaveLength(1);
    const next = ask();
    expect((await next.end).outcome).toBe('completed');
  });

  it('gives up on a stalled stream after the idle timeout and recovers', async () => {
    await setUp({}, { idleTimeoutMs: 300 });
    sim.injectFault('stall');
    const stalled = ask();
    const end = await stalled.end;
    expect(end).toMatchObject({ outcome: 'failed', message: expect.stringContaining('stopped sending') });
    expect((await ask().end).outcome).toBe('completed');
  });

  it('explains a rejected key (401 at the upgrade) and reports the connection offline', async () => {
    await setUp({}, { apiKey: 'sk-wrong' });
    const states: string[] = [];
    provider.onDidChangeState(({ state }) => states.push(state));
    const end = await ask().end;
    expect(end.outcome).toBe('failed');
    expect(end.message).toContain('rejected the API key');
    expect(end.message).not.toContain('sk-wrong');
    expect(states).toContain('offline');
  });

  it('explains rate limits with the wait, server errors, and unknown models, keeping the socket', async () => {
    await setUp();
    sim.injectFault('rate-limited');
    expect((await ask().end).message).toBe('Rate-limited by the provider. Try again in 2 s.');
    sim.injectFault('server-error');
    expect((await ask().end).message).toContain('The provider had an error (500)');
    const unknown = await collect(provider, { model: 'gpt-nope', input: 'x' }).end;
    expect(unknown.failure?.code).toBe('model-unavailable');
    expect(unknown.message).toContain('not available with this key');
    expect((await ask().end).outcome).toBe('completed');
    expect(sim.connectionCount()).toBe(2);
  });

  it('ignores (and logs) malformed frames and unknown event types', async () => {
    await setUp();
    sim.injectFault('malformed-frame');
    const first = ask();
    expect((await first.end).outcome).toBe('completed');
    expect(first.text).toBe(ANSWER);
    sim.injectFault('unknown-event');
    expect((await ask().end).outcome).toBe('completed');
    expect(logger.lines.some((line) => line.includes('not a JSON event'))).toBe(true);
  });

  it('moves to a fresh connection when the server closes at its connection-age limit', async () => {
    await setUp();
    provider.warm();
    await waitFor(() => sim.connectionCount() === 2, 'two warm connections');
    sim.injectFault('connection-age-limit');
    const answer = ask();
    expect((await answer.end).outcome).toBe('completed');
    expect(answer.text).toBe(ANSWER);
  });

  it('rolls connections over before they reach the age limit', async () => {
    await setUp({}, { pool: { maxAgeMs: 200, backoffInitialMs: 20 } });
    provider.warm();
    await waitFor(() => sim.connectionCount() === 2, 'two warm connections');
    await waitFor(() => sim.connectionCount() >= 4, 'replacements for aged connections', 5000);
    expect((await ask().end).outcome).toBe('completed');
  });

  it('closes the connection on an oversized frame, says why, and recovers', async () => {
    await setUp({}, { maxFrameBytes: 1024 * 1024 });
    sim.injectFault('oversized-frame');
    const end = await ask().end;
    expect(end).toMatchObject({ outcome: 'failed', message: expect.stringContaining('larger than Flint accepts') });
    expect((await ask().end).outcome).toBe('completed');
  });

  it('bounds a server that never answers the upgrade', async () => {
    await setUp({}, { handshakeTimeoutMs: 200, pool: { acquireTimeoutMs: 3000, backoffInitialMs: 5000 } });
    // Both warm sockets, and both sockets of the immediate attempt a waiting request makes, hang.
    for (let attempt = 0; attempt < 4; attempt += 1) sim.injectFault('no-upgrade-response');
    const end = await ask().end;
    expect(end).toMatchObject({ outcome: 'failed', message: expect.stringContaining('did not answer in time') });
  });

  it('fails fast with a clear message when the provider is unreachable: on the refusal itself, not a timer', async () => {
    // Every timer an hour long: the request can end only on the refused connection.
    const hour = 3_600_000;
    await setUp({}, { handshakeTimeoutMs: hour, idleTimeoutMs: hour, pool: { backoffInitialMs: hour, backoffMaxMs: hour, acquireTimeoutMs: hour } });
    await sim.close();
    const end = await ask().end;
    expect(end.outcome).toBe('failed');
    expect(end.message).toContain('Could not reach');
  });
});

describe('ResponsesProvider regressions', () => {
  let sim: Simulator;
  let provider: ResponsesProvider;

  afterEach(async () => {
    provider?.dispose();
    await sim?.close();
  });

  it('does not retry a rejected key in a loop: one attempt per request', async () => {
    sim = await startSimulator({ apiKey: 'sk-right' });
    provider = new ResponsesProvider({ baseUrl: sim.baseUrl, apiKey: 'sk-wrong', model: MODEL, logger: createMemoryLogger(), pool: { backoffInitialMs: 5, backoffMaxMs: 10 } });
    const end = await collect(provider, { model: MODEL, input: 'x' }).end;
    expect(end.message).toContain('rejected the API key');
    const attempts = sim.upgradeAttempts();
    // Left as a pause on purpose: a loop would be the pool's backoff timer (5–10 ms here), and
    // no later event of the pool follows "no timer was set" to wait for instead. 300 ms is
    // some thirty backoffs; on a busy machine the pause can only show fewer, never invent one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sim.upgradeAttempts()).toBe(attempts);
  });

  it('never mixes an answer with a pre-load running on the same socket', async () => {
    sim = await startSimulator({ ttftMs: 30, tokensPerSecond: 2000, script: SimScriptSchema.parse({ defaultAnswer: 'the real answer' }) });
    provider = new ResponsesProvider({ baseUrl: sim.baseUrl, apiKey: null, model: MODEL, logger: createMemoryLogger() });
    provider.preload('Context that takes a moment.');
    const first = collect(provider, { model: MODEL, input: 'one' });
    const second = collect(provider, { model: MODEL, input: 'two', instructions: 'other' });
    expect((await first.end).outcome).toBe('completed');
    expect((await second.end).outcome).toBe('completed');
    expect(first.text).toBe('the real answer');
    expect(second.text).toBe('the real answer');
  });

  it('keeps the key out of messages even when the server echoes it', async () => {
    sim = await startSimulator({ apiKey: 'sk-right', echoKeyInErrors: true });
    provider = new ResponsesProvider({ baseUrl: sim.baseUrl, apiKey: 'sk-echoed-secret', model: MODEL, logger: createMemoryLogger() });
    const end = await collect(provider, { model: MODEL, input: 'x' }).end;
    expect(end.message).toContain('[key hidden]');
    expect(end.message).not.toContain('sk-echoed-secret');
  });
});

describe('responsesUrl', () => {
  it('derives the WebSocket endpoint from the base URL', () => {
    expect(responsesUrl('https://api.openai.com/v1')).toBe('wss://api.openai.com/v1/responses');
    expect(responsesUrl('http://127.0.0.1:8080/v1/')).toBe('ws://127.0.0.1:8080/v1/responses');
  });

  it('refuses a base URL with the wrong scheme', () => {
    expect(() => responsesUrl('ftp://example.com/v1')).toThrow('must start with https://');
    expect(() => responsesUrl('not a url')).toThrow('is not a URL');
  });
});
