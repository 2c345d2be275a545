import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../../../../test/helpers/collect-stream';
import { waitFor } from '../../../../test/helpers/temp-project';
import { SimScriptSchema } from '../../../../test/sim/sim-script';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../../../test/sim/simulator';
import { createMemoryLogger } from '../../logger';
import { ChatCompletionsProvider, type ChatCompletionsProviderOptions } from './chat-completions-provider';

const ANSWER = 'Alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu.';
const MODEL = 'llama-4-scout';

describe('ChatCompletionsProvider against the simulator (SSE)', () => {
  let sim: Simulator;
  let provider: ChatCompletionsProvider;

  async function setUp(simOptions: SimulatorOptions = {}, options: Partial<ChatCompletionsProviderOptions> = {}) {
    sim = await startSimulator({
      ttftMs: 5,
      tokensPerSecond: 4000,
      chunkTokens: 2,
      apiKey: 'csk-test',
      models: [MODEL],
      script: SimScriptSchema.parse({ defaultAnswer: ANSWER }),
      ...simOptions,
    });
    provider = new ChatCompletionsProvider({ baseUrl: sim.baseUrl, apiKey: 'csk-test', logger: createMemoryLogger(), idleTimeoutMs: 1000, ...options });
  }

  afterEach(async () => {
    provider?.dispose();
    await sim?.close();
  });

  const ask = (model = MODEL) => collect(provider, { model, instructions: 'Be brief.', input: 'hello' });

  it('streams an answer with usage, and records the figures', async () => {
    await setUp();
    const answer = ask();
    const end = await answer.end;
    expect(end.outcome).toBe('completed');
    expect(answer.text).toBe(ANSWER);
    expect(end.latency.requestToFirstDeltaMs).toBeGreaterThan(0);
    expect(end.latency.outputTokens).toBeGreaterThan(5);
    expect(sim.requests[0]!.body).toMatchObject({ stream: true, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hello' }] });
  });

  it('cancels by aborting the request: nothing arrives afterwards', async () => {
    await setUp({ tokensPerSecond: 100 });
    const answer = ask();
    await waitFor(() => answer.deltas > 0, 'a first delta');
    answer.stream.cancel();
    expect((await answer.end).outcome).toBe('cancelled');
    const seen = answer.deltas;
    // A whole answer after it, from the same simulator (still sending at 100 tokens a second
    // until it sees the abort): what the cancelled stream would deliver would come before this ends.
    expect((await ask().end).outcome).toBe('completed');
    expect(answer.deltas).toBe(seen);
  });

  it('puts provider errors in plain words', async () => {
    await setUp();
    expect((await ask('no-such-model').end).failure?.code).toBe('model-unavailable');
    sim.injectFault('rate-limited');
    expect((await ask().end).message).toBe('Rate-limited by the provider. Try again in 2 s.');
    sim.injectFault('server-error');
    expect((await ask().end).message).toContain('(500)');
    provider.dispose();
    provider = new ChatCompletionsProvider({ baseUrl: sim.baseUrl, apiKey: 'csk-wrong', logger: createMemoryLogger() });
    const rejected = await ask().end;
    expect(rejected.message).toContain('rejected the API key');
    expect(rejected.message).not.toContain('csk-wrong');
  });

  it('fails a dropped stream without replaying what was shown, says so in words, then works again', async () => {
    await setUp();
    sim.injectFault('drop-mid-stream');
    const broken = ask();
    const end = await broken.end;
    expect(end.outcome).toBe('failed');
    // Not "Could not reach …: terminated": the server answered half.
    expect(end.message).toBe(`The connection to 127.0.0.1:${sim.port} dropped in the middle of the answer.`);
    expect(ANSWER.startsWith(broken.text)).toBe(true);
    expect((await ask().end).outcome).toBe('completed');
  });

  it('gives up on a stalled stream after the idle timeout', async () => {
    await setUp({}, { idleTimeoutMs: 300 });
    sim.injectFault('stall');
    expect(await ask().end).toMatchObject({ outcome: 'failed', message: expect.stringContaining('stopped sending') });
  });

  it('reports a malformed stream, and the SDK’s own complaint goes to Flint’s log', async () => {
    const logger = createMemoryLogger();
    await setUp({}, { logger });
    sim.injectFault('malformed-frame');
    expect(await ask().end).toMatchObject({ outcome: 'failed', message: 'The provider sent a malformed stream.' });
    expect(logger.lines).toContain('error: openai: Could not parse message into JSON:');
  });

  it('fails clearly when the server is unreachable, and refuses a wrong scheme', async () => {
    await setUp();
    await sim.close();
    expect((await ask().end).message).toContain('Could not reach');
    expect(() => new ChatCompletionsProvider({ baseUrl: 'ws://x/v1', apiKey: null, logger: createMemoryLogger() })).toThrow('must start with https://');
  });
});
