/**
 * The official `openai` SDK parses the simulator's streams, for both protocols:
 * proof that what Flint is tested against is what providers send.
 */
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/chromium';
import { SimScriptSchema } from './sim-script';
import { requestChain, startSimulator, type Simulator } from './simulator';

const PATCH = '*** Begin Patch\n*** Update File: src/app.ts\n@@\n-old\n+new\n*** End Patch\n';

describe('the simulator, read by the openai SDK', () => {
  let sim: Simulator;
  let client: OpenAI;

  beforeEach(async () => {
    sim = await startSimulator({
      ttftMs: 5,
      tokensPerSecond: 20_000,
      chunkTokens: 3,
      apiKey: 'sk-sim',
      models: ['gpt-5.3-codex-spark', 'gpt-5.3-codex'],
      script: SimScriptSchema.parse({
        defaultAnswer: 'The quick brown fox jumps over the lazy dog.',
        rules: [
          { match: { inputIncludes: 'patch please' }, answer: { toolInput: PATCH } },
          { match: { inputIncludes: 'hold please' }, answer: { text: 'First part. Second part.' }, holdAfter: 'First part.' },
        ],
      }),
    });
    client = new OpenAI({ baseURL: sim.baseUrl, apiKey: 'sk-sim', maxRetries: 0 });
  });

  afterEach(async () => {
    await sim.close();
  });

  /** Sends one response.create and collects every server event until a terminal one. */
  async function converse(socket: ResponsesWS, body: Record<string, unknown>) {
    const events: Array<Record<string, unknown> & { type: string }> = [];
    const errors: unknown[] = [];
    return new Promise<{ events: typeof events; errors: unknown[] }>((resolve) => {
      const onEvent = (event: { type: string }) => {
        events.push(event as (typeof events)[number]);
        if (['response.completed', 'response.failed', 'response.incomplete', 'error'].includes(event.type)) {
          socket.off('event', onEvent);
          resolve({ events, errors });
        }
      };
      socket.on('event', onEvent);
      socket.on('error', (error) => errors.push(error));
      socket.send({ type: 'response.create', model: 'gpt-5.3-codex-spark', store: false, ...body } as never);
    });
  }

  it('streams a Responses answer over WebSocket in the real event order, numbered from 0', async () => {
    const socket = new ResponsesWS(client);
    try {
      const { events } = await converse(socket, { input: 'hello' });
      const types = events.map((event) => event.type);
      expect(types.slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
      expect(types.slice(-4)).toEqual(['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
      expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
      const text = events.filter((event) => event.type === 'response.output_text.delta').map((event) => event.delta).join('');
      expect(text).toBe('The quick brown fox jumps over the lazy dog.');
      const completed = events.at(-1) as unknown as { response: { usage: { output_tokens: number }; output: unknown[] } };
      expect(completed.response.usage.output_tokens).toBeGreaterThan(0);
      expect(completed.response.output).toHaveLength(1);
    } finally {
      socket.close();
    }
  });

  it('streams a free-form custom tool call through custom_tool_call_input deltas', async () => {
    const socket = new ResponsesWS(client);
    try {
      const { events } = await converse(socket, { input: 'patch please' });
      expect(events.find((event) => event.type === 'response.output_item.added')).toMatchObject({ item: { type: 'custom_tool_call', name: 'apply_patch' } });
      const input = events.filter((event) => event.type === 'response.custom_tool_call_input.delta').map((event) => event.delta).join('');
      expect(input).toBe(PATCH);
      expect(events.find((event) => event.type === 'response.custom_tool_call_input.done')).toMatchObject({ input: PATCH });
    } finally {
      socket.close();
    }
  });

  it('pre-warms with generate:false, chains with previous_response_id, and refuses an unknown one', async () => {
    const socket = new ResponsesWS(client);
    try {
      const warm = await converse(socket, { input: 'context', generate: false });
      expect(warm.events.map((event) => event.type)).toEqual(['response.created', 'response.completed']);
      const id = (warm.events[0] as unknown as { response: { id: string } }).response.id;
      const next = await converse(socket, { input: 'question', previous_response_id: id });
      expect(next.events.at(-1)!.type).toBe('response.completed');
      // What the model saw for the question: the pre-load it continues, then the question.
      expect(requestChain(sim.requests, sim.requests.at(-1)!).map((request) => request.body.input)).toEqual(['context', 'question']);
      const unknown = await converse(socket, { input: 'question', previous_response_id: 'resp_nope' });
      expect(unknown.events.at(-1)).toMatchObject({ type: 'error', status: 400, error: { code: 'previous_response_not_found' } });
    } finally {
      socket.close();
    }
  });

  it('refuses a bad key at the upgrade with 401', async () => {
    const bad = new ResponsesWS(new OpenAI({ baseURL: sim.baseUrl, apiKey: 'sk-wrong', maxRetries: 0 }));
    const error = await new Promise<Error>((resolve) => bad.on('error', resolve));
    expect(error.message).toContain('401');
    bad.close();
  });

  it('streams a chat completion over SSE that the SDK assembles, with usage and [DONE]', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-5.3-codex-spark',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish ??= chunk.choices[0]?.finish_reason;
      usage ??= chunk.usage;
    }
    expect(text).toBe('The quick brown fox jumps over the lazy dog.');
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it('holds an answer after its holdAfter text until released, then sends the rest', async () => {
    const stream = await client.chat.completions.create({ model: 'gpt-5.3-codex-spark', messages: [{ role: 'user', content: 'hold please' }], stream: true });
    let text = '';
    const read = (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })();
    await sim.whenHeld();
    // Everything before the hold arrives, and nothing after it while held.
    await eventually(async () => text, (now) => now.includes('First part.'), 'the part before the hold');
    expect(text).toBe('First part.');
    sim.release();
    await read;
    expect(text).toBe('First part. Second part.');
  });

  it('answers chat errors the SDK maps to its typed errors', async () => {
    const ask = (model = 'gpt-5.3-codex-spark', apiKey = 'sk-sim') =>
      new OpenAI({ baseURL: sim.baseUrl, apiKey, maxRetries: 0 }).chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }], stream: true });
    await expect(ask('gpt-5.3-codex-spark', 'sk-wrong')).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(ask('no-such-model')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
    sim.injectFault('rate-limited');
    await expect(ask()).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    sim.injectFault('server-error');
    await expect(ask()).rejects.toBeInstanceOf(OpenAI.InternalServerError);
  });
});
