/**
 * The key never reaches the page or the log through the chat-completions provider, even
 * from a server that echoes it: in the streamed answer or in an error.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../../../../test/helpers/collect-stream';
import { SimScriptSchema } from '../../../../test/sim/sim-script';
import { startSimulator, type Simulator } from '../../../../test/sim/simulator';
import { createMemoryLogger } from '../../logger';
import { KEY_HIDDEN, longestShownKeyStart } from '../key-redactor';
import { ChatCompletionsProvider } from './chat-completions-provider';

const KEY = 'csk-Echo4Key8Split2Every6Way0';
const MODEL = 'llama-4-scout';
/** Glued to the key, `pad` moves the simulator's 4-character token cuts across it: 0–3 covers every position. */
const echo = (pad: number) => `Your header was: Bearer ${'x'.repeat(pad)}${KEY} — keep it safe.`;

describe('ChatCompletionsProvider keeps the key out of what it shows', () => {
  let sim: Simulator | undefined;
  let close: (() => Promise<void>) | undefined;
  let provider: ChatCompletionsProvider | undefined;

  afterEach(async () => {
    provider?.dispose();
    await sim?.close();
    await close?.();
    sim = close = provider = undefined;
  });

  it('hides a key the answer echoes, split across deltas at every position', async () => {
    const rules = [0, 1, 2, 3].map((pad) => ({ match: { inputIncludes: `pad ${pad}` }, answer: { text: echo(pad) } }));
    sim = await startSimulator({ ttftMs: 1, tokensPerSecond: 20_000, chunkTokens: 1, apiKey: KEY, models: [MODEL], script: SimScriptSchema.parse({ rules }) });
    provider = new ChatCompletionsProvider({ baseUrl: sim.baseUrl, apiKey: KEY, logger: createMemoryLogger() });
    for (const pad of [0, 1, 2, 3]) {
      const answer = collect(provider, { model: MODEL, input: `pad ${pad}` });
      expect((await answer.end).outcome).toBe('completed');
      expect(answer.deltas).toBeGreaterThan(KEY.length / 4);
      // The simulator cuts the key after 4 − pad characters: a delta that ends in 3 or fewer
      // shows them at once, and the rest is hidden as the key goes on.
      expect(longestShownKeyStart(KEY.length)).toBe(3);
      expect(answer.text).toBe(echo(pad).replace(KEY, `${KEY.slice(0, pad === 0 ? 0 : 4 - pad)}${KEY_HIDDEN}`));
    }
  });

  it('shows a held-back key start when the answer ends on it (it was never the key)', async () => {
    sim = await startSimulator({ ttftMs: 1, tokensPerSecond: 20_000, chunkTokens: 1, apiKey: KEY, models: [MODEL], script: SimScriptSchema.parse({ defaultAnswer: 'Keys here start with csk-E' }) });
    provider = new ChatCompletionsProvider({ baseUrl: sim.baseUrl, apiKey: KEY, logger: createMemoryLogger() });
    const answer = collect(provider, { model: MODEL, input: 'x' });
    expect((await answer.end).outcome).toBe('completed');
    expect(answer.text).toBe('Keys here start with csk-E');
  });

  it('hides a key that an HTTP error echoes past the 300-character cut', async () => {
    const message = `${'.'.repeat(290)}${KEY}`;
    const server = createServer((_request, response) => {
      response.writeHead(401, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: { message, type: 'invalid_request_error', code: 'invalid_api_key' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
    const { port } = server.address() as AddressInfo;
    provider = new ChatCompletionsProvider({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: KEY, logger: createMemoryLogger() });
    const end = await collect(provider, { model: MODEL, input: 'x' }).end;
    expect(end.message).toContain('rejected the API key');
    expect(end.message).toContain(`${'.'.repeat(290)}${KEY_HIDDEN.slice(0, 10)}`);
    expect(end.message).not.toContain(KEY.slice(0, 4));
  });
});
