/**
 * The key never reaches the page or the log through the Responses provider, even from a
 * server that echoes it: in the answer, errors, close reasons, event types (and tool-call
 * input, which Flint never asks for, is never shown).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collect } from '../../../../test/helpers/collect-stream';
import { SimScriptSchema } from '../../../../test/sim/sim-script';
import { startSimulator, type Simulator } from '../../../../test/sim/simulator';
import { createMemoryLogger } from '../../logger';
import { KEY_HIDDEN, longestShownKeyStart, shortestHiddenKeyStart } from '../key-redactor';
import { ResponsesProvider } from './responses-provider';
import { rejectingServer, scriptedServer, send, testProvider } from '../../../../test/helpers/scripted-responses-server';

const KEY = 'sk-proj-Echo4Key8Split2Every6Way0';
const MODEL = 'gpt-5.3-codex-spark';
/** Glued to the key, `pad` moves the simulator's 4-character token cuts across it: 0–3 covers every position. */
const echo = (pad: number) => `Your header was: Bearer ${'x'.repeat(pad)}${KEY} — keep it safe.`;

describe('ResponsesProvider keeps the key out of what it shows', () => {
  let sim: Simulator | undefined;
  let server: { baseUrl: string; close: () => Promise<void> } | undefined;
  let provider: ResponsesProvider | undefined;
  let logger: ReturnType<typeof createMemoryLogger>;

  const open = (baseUrl: string) => {
    ({ provider, logger } = testProvider(baseUrl, KEY));
    return provider;
  };

  afterEach(async () => {
    provider?.dispose();
    await sim?.close();
    await server?.close();
    sim = server = provider = undefined;
  });

  it('hides a key the answer echoes, split across deltas at every position', async () => {
    const rules = [0, 1, 2, 3].map((pad) => ({ match: { inputIncludes: `pad ${pad}` }, answer: { text: echo(pad) } }));
    sim = await startSimulator({ ttftMs: 1, tokensPerSecond: 20_000, chunkTokens: 1, apiKey: KEY, models: [MODEL], script: SimScriptSchema.parse({ rules }) });
    open(sim.baseUrl);
    for (const pad of [0, 1, 2, 3]) {
      const answer = collect(provider!, { model: MODEL, input: `pad ${pad}` });
      expect((await answer.end).outcome).toBe('completed');
      expect(answer.deltas).toBeGreaterThan(KEY.length / 4);
      // The simulator cuts the key after 4 − pad characters: a delta that ends in 3 or fewer
      // shows them at once, and the rest is hidden as the key goes on.
      expect(longestShownKeyStart(KEY.length)).toBe(3);
      expect(answer.text).toBe(echo(pad).replace(KEY, `${KEY.slice(0, pad === 0 ? 0 : 4 - pad)}${KEY_HIDDEN}`));
    }
  });

  it('passes on at once a delta that ends in the key’s first characters, while the model pauses', async () => {
    const rules = [{ match: {}, answer: { text: 'Keys look like sk- and then the rest.' }, holdAfter: 'like sk-' }];
    sim = await startSimulator({ ttftMs: 1, tokensPerSecond: 20_000, chunkTokens: 1, apiKey: KEY, models: [MODEL], script: SimScriptSchema.parse({ rules }) });
    // A pause this long is no stall here: the stall's ending would show the held characters too.
    provider = new ResponsesProvider({ baseUrl: sim.baseUrl, apiKey: KEY, model: MODEL, logger: createMemoryLogger(), idleTimeoutMs: 120_000 });
    const answer = collect(provider, { model: MODEL, input: 'keys' });
    await sim.whenHeld();
    // The model paused after "sk-", which starts the key: what it sent is shown, not kept for a next delta that may be seconds away.
    await vi.waitFor(() => expect(answer.text).toBe('Keys look like sk-'), { timeout: 10_000 });
    sim.release();
    expect((await answer.end).outcome).toBe('completed');
    expect(answer.text).toBe('Keys look like sk- and then the rest.');
  });

  it('shows nothing of a tool call’s input, which Flint never asks for, so a key in it never reaches the page', async () => {
    const patch = `*** Begin Patch\n*** Update File: a.ts\n@@\n-const k = '';\n+const k = '${KEY}';\n*** End Patch\n`;
    const rules = [{ match: {}, answer: { toolInput: patch } }];
    sim = await startSimulator({ ttftMs: 1, tokensPerSecond: 20_000, chunkTokens: 1, apiKey: KEY, models: [MODEL], script: SimScriptSchema.parse({ rules }) });
    open(sim.baseUrl);
    const answer = collect(provider!, { model: MODEL, input: 'patch it' });
    expect((await answer.end).outcome).toBe('completed');
    expect(answer.deltas).toBe(0);
    expect(logger.lines.join('\n')).not.toContain(KEY);
  });

  it('hides a key in an unknown event type before logging it, even one that straddles the log’s cut', async () => {
    const type = `x-${'t'.repeat(60)}-Bearer ${KEY}`;
    server = await scriptedServer((client) => {
      send(client, { type });
      send(client, { type: 'response.output_text.delta', delta: 'fine' });
      send(client, { type: 'response.completed', response: {} });
    });
    open(server.baseUrl);
    expect((await collect(provider!, { model: MODEL, input: 'x' }).end).outcome).toBe('completed');
    const line = logger.lines.find((entry) => entry.includes('unknown event type'));
    expect(line).toContain(`x-${'t'.repeat(60)}-Bearer [key`);
    expect(line).not.toContain(KEY.slice(0, 4));
  });

  it('hides a start of the key that the log’s 80-character cut leaves at the end of an unknown event type', async () => {
    // 17 characters of the key fall before the cut; what follows them is not the key.
    const type = `x-${'t'.repeat(61)}${KEY.slice(0, 25)}-and-more`;
    server = await scriptedServer((client) => {
      send(client, { type });
      send(client, { type: 'response.completed', response: {} });
    });
    open(server.baseUrl);
    expect((await collect(provider!, { model: MODEL, input: 'x' }).end).outcome).toBe('completed');
    const line = logger.lines.find((entry) => entry.includes('unknown event type'));
    expect(line).toContain(`"x-${'t'.repeat(61)}${KEY_HIDDEN}"`);
    expect(line).not.toContain(KEY.slice(0, shortestHiddenKeyStart(KEY.length)));
  });

  it('hides a key that an in-band error or a failed response echoes past the 300-character cut', async () => {
    const echoed = `${'.'.repeat(290)}${KEY}`;
    let request = 0;
    server = await scriptedServer((client) => {
      request += 1;
      if (request === 1) send(client, { type: 'error', status: 400, error: { code: 'bad_request', message: echoed } });
      else send(client, { type: 'response.failed', response: { error: { code: 'server_error', message: echoed } } });
    });
    open(server.baseUrl);
    for (const expected of ['The provider refused the request (400)', 'The provider had an error (500)']) {
      const end = await collect(provider!, { model: MODEL, input: 'x' }).end;
      expect(end.message).toContain(expected);
      expect(end.message).toContain(`${'.'.repeat(290)}${KEY_HIDDEN.slice(0, 10)}`);
      expect(end.message).not.toContain(KEY.slice(0, 4));
    }
  });

  it('hides a key in a rejected upgrade’s plain-text body, wherever it falls', async () => {
    // The key starts at 191: Flint used to cut such a body at 200, then look for the key.
    const body = `${'-'.repeat(170)} your header: Bearer ${KEY}`;
    server = await rejectingServer(401, body);
    open(server.baseUrl);
    const end = await collect(provider!, { model: MODEL, input: 'x' }).end;
    expect(end.message).toContain('rejected the API key');
    expect(end.message).toContain(`Bearer ${KEY_HIDDEN}`);
    expect(end.message).not.toContain(KEY.slice(0, 4));
  });

  it('says in words that the connection dropped mid-answer, hiding a key in the close reason', async () => {
    server = await scriptedServer((client) => {
      send(client, { type: 'response.output_text.delta', delta: 'Half an ans' });
      setTimeout(() => client.close(1011, `sorry ${KEY}`), 20);
    });
    open(server.baseUrl);
    const answer = collect(provider!, { model: MODEL, input: 'x' });
    const end = await answer.end;
    expect(answer.text).toBe('Half an ans');
    expect(end.message).toBe(`The connection to ${new URL(server.baseUrl).host} dropped in the middle of the answer (the provider said: sorry ${KEY_HIDDEN}).`);
    expect(logger.lines.join('\n')).not.toContain(KEY);
  });
});
