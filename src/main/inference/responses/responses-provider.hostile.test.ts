/**
 * A malformed or hostile Responses server gets a clear ending and a bounded log, never a
 * throw inside an event handler: every field of its JSON is checked before use.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { collect } from '../../../../test/helpers/collect-stream';
import { createMemoryLogger } from '../../logger';
import { KEY_HIDDEN } from '../key-redactor';
import { MAX_LOGGED_UNKNOWN_TYPES, ResponsesProvider } from './responses-provider';
import { rejectingServer, scriptedServer, send, type ScriptedServer, testProvider } from '../../../../test/helpers/scripted-responses-server';

/** An underscore in the key: re-spelling "_" as " " before hiding would miss it. */
const KEY = 'sk-proj_Hostile4Key_8Server2';
const MODEL = 'gpt-5.3-codex-spark';

describe('ResponsesProvider against a malformed or hostile server', () => {
  let server: ScriptedServer | undefined;
  let provider: ResponsesProvider | undefined;
  let logger: ReturnType<typeof createMemoryLogger>;

  const open = (baseUrl: string) => {
    ({ provider, logger } = testProvider(baseUrl, KEY));
    return provider;
  };
  /** Answers the n-th `response.create` with `answers[n]`. */
  const answering = async (answers: ((client: WebSocket) => void)[]) => {
    let request = 0;
    server = await scriptedServer((client) => answers[request++]?.(client));
    open(server.baseUrl);
  };
  const ask = () => collect(provider!, { model: MODEL, input: 'x' });

  afterEach(async () => {
    provider?.dispose();
    await server?.close();
    server = provider = undefined;
  });

  it('ends a malformed incomplete event as "stopped early", without a reason and without a throw', async () => {
    const malformed: unknown[] = [{ incomplete_details: { reason: 42 } }, { incomplete_details: { reason: { a: 1 } } }, { incomplete_details: { reason: null } }, { incomplete_details: 'max_output_tokens' }, null, 7, { incomplete_details: { reason: '' } }];
    await answering(
      malformed.map((response) => (client) => {
        send(client, { type: 'response.output_text.delta', delta: 'Part of it' });
        send(client, { type: 'response.incomplete', response });
      }),
    );
    for (const response of malformed) {
      const answer = ask();
      const end = await answer.end;
      expect(end, JSON.stringify(response)).toMatchObject({ outcome: 'incomplete', message: 'The answer stopped early.' });
      expect(answer.text).toBe('Part of it');
    }
  });

  it('gives an incomplete event’s string reason in words, key hidden before underscores become spaces', async () => {
    await answering([
      (client) => send(client, { type: 'response.incomplete', response: { incomplete_details: { reason: 'max_output_tokens' } } }),
      (client) => send(client, { type: 'response.incomplete', response: { incomplete_details: { reason: `echo_${KEY}` } } }),
    ]);
    expect((await ask().end).message).toBe('The answer stopped early (max output tokens).');
    expect((await ask().end).message).toBe(`The answer stopped early (echo ${KEY_HIDDEN}).`);
  });

  it(`logs the first ${MAX_LOGGED_UNKNOWN_TYPES} unknown event types once each, then says once that it stops`, async () => {
    const unknown = (from: number, count: number) => Array.from({ length: count }, (_, index) => `hostile.type.${from + index}`);
    await answering(
      [unknown(0, 150), unknown(150, 20)].map((types) => (client) => {
        for (const type of [...types, types[0]!]) send(client, { type });
        send(client, { type: 'response.output_text.delta', delta: 'fine' });
        send(client, { type: 'response.completed', response: {} });
      }),
    );
    for (let request = 0; request < 2; request += 1) expect((await ask().end).outcome).toBe('completed');
    const logged = logger.lines.filter((line) => line.includes('ignored unknown event type'));
    expect(logged).toHaveLength(MAX_LOGGED_UNKNOWN_TYPES);
    expect(logged[0]).toContain('"hostile.type.0"');
    expect(logged.at(-1)).toContain(`"hostile.type.${MAX_LOGGED_UNKNOWN_TYPES - 1}"`);
    expect(logger.lines.filter((line) => line.includes('further unknown event types are not logged'))).toHaveLength(1);
  });

  it('keeps a token count that is not a finite count out of the figures, counting deltas instead', async () => {
    const counts = ['1e999', '"lots"', '-3', 'null'];
    await answering(
      counts.map((tokens) => (client) => {
        send(client, { type: 'response.output_text.delta', delta: 'one' });
        // Raw JSON: JSON.stringify cannot write 1e999, which parses to Infinity.
        client.send(`{"type": "response.completed", "response": {"usage": {"output_tokens": ${tokens}}}}`);
      }),
    );
    for (const tokens of counts) expect((await ask().end).latency.outputTokens, tokens).toBe(1);
  });

  it('reads a refused upgrade whose JSON error holds no strings as a plain refusal', async () => {
    server = await rejectingServer(401, JSON.stringify({ error: { message: 42, code: { nested: true } } }));
    open(server.baseUrl);
    expect((await ask().end).message).toBe('The provider rejected the API key. Check or replace the key in Settings.');
  });
});
