/**
 * A chat completions server that sends chunks of the wrong shape gets a clear ending, one
 * request, and a line in the log; a sink that throws is Flint's bug, not a dropped
 * connection. Against a real local SSE server that streams exactly what each test scripts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { collect } from '../../../../test/helpers/collect-stream';
import { chatChunk, scriptedChatServer, type ScriptedChatServer, type ScriptedChunk } from '../../../../test/helpers/scripted-chat-server';
import { createMemoryLogger } from '../../logger';
import type { StreamEnd } from '../model-stream';
import { INTERNAL_ERROR_MESSAGE } from '../run-model-stream';
import { ChatCompletionsProvider } from './chat-completions-provider';

const MODEL = 'llama-4-scout';
const UNREADABLE = 'The provider sent a stream Flint cannot read.';

describe('ChatCompletionsProvider against a server that sends chunks of the wrong shape', () => {
  let server: ScriptedChatServer | undefined;
  let provider: ChatCompletionsProvider | undefined;
  let logger: ReturnType<typeof createMemoryLogger>;

  afterEach(async () => {
    provider?.dispose();
    await server?.close();
    server = provider = undefined;
  });

  const serve = async (chunks: ScriptedChunk[]) => {
    server = await scriptedChatServer(chunks);
    logger = createMemoryLogger();
    provider = new ChatCompletionsProvider({ baseUrl: server.baseUrl, apiKey: 'csk-test', logger, idleTimeoutMs: 5000 });
  };
  const ask = () => collect(provider!, { model: MODEL, input: 'hello' });

  it('reads a chunk without choices as no choice, and answers in one request', async () => {
    await serve([{ id: 'x', object: 'chat.completion.chunk' }, chatChunk('Hel'), chatChunk('lo', 'stop'), { usage: { completion_tokens: 2 } }]);
    const answer = ask();
    expect(await answer.end).toMatchObject({ outcome: 'completed', latency: { outputTokens: 2 } });
    expect(answer.text).toBe('Hello');
    expect(server!.requestCount()).toBe(1);
  });

  it('ends content that is not text as a protocol error: nothing of it shown, not retried, and logged', async () => {
    await serve([chatChunk('Part '), { ...chatChunk(null), choices: [{ index: 0, delta: { content: 42 }, finish_reason: null }] }, chatChunk('never', 'stop')]);
    const answer = ask();
    expect(await answer.end).toMatchObject({ outcome: 'failed', message: UNREADABLE });
    expect(answer.text).toBe('Part ');
    expect(server!.requestCount()).toBe(1);
    expect(logger.lines).toContain('warning: chat: the provider sent content that is not text (a number)');
  });

  const malformed: [string, ScriptedChunk, string][] = [
    ['a chunk that is null', 'null', 'a chunk that is not a JSON object'],
    ['a chunk that is a number', '42', 'a chunk that is not a JSON object'],
    ['a chunk that is a list', [chatChunk('x')], 'a chunk that is not a JSON object'],
    ['choices that are not a list', { ...chatChunk('x'), choices: { 0: { delta: { content: 'x' } } } }, '"choices" that is not a list'],
    ['a delta that is text', { ...chatChunk('x'), choices: [{ index: 0, delta: 'x', finish_reason: null }] }, 'a delta that is not a JSON object'],
    ['a finish reason that is an object', chatChunk('x', { why: 'stop' } as unknown as string), 'a finish reason that is not text (an object)'],
  ];
  for (const [what, chunk, logged] of malformed) {
    it(`ends ${what} as a protocol error, in one request, and says why in the log`, async () => {
      await serve([chunk, chatChunk('never', 'stop')]);
      const answer = ask();
      expect(await answer.end).toMatchObject({ outcome: 'failed', message: UNREADABLE });
      expect(answer.text).toBe('');
      expect(server!.requestCount()).toBe(1);
      expect(logger.lines).toContain(`warning: chat: the provider sent ${logged}`);
    });
  }

  it('keeps a token count that is not a finite count out of the figures, counting deltas instead', async () => {
    for (const tokens of ['"lots"', '1e999', '-3', '{"n": 2}']) {
      await serve([chatChunk('one '), chatChunk('two', 'stop'), `{"choices": [], "usage": {"completion_tokens": ${tokens}}}`]);
      const end = await ask().end;
      expect(end.outcome, tokens).toBe('completed');
      expect(end.latency.outputTokens, tokens).toBe(2);
      provider!.dispose();
      await server!.close();
    }
    server = provider = undefined;
  });

  it('ends with an internal error, logged, when the sink throws on a delta, and does not call it a dropped connection', async () => {
    await serve([chatChunk('Hel'), chatChunk('lo', 'stop')]);
    const ends: StreamEnd[] = [];
    const stream = provider!.stream(
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
    expect(server!.requestCount()).toBe(1);
    expect(logger.lines.some((line) => line.startsWith('error: chat stream failed: Error: sink bug'))).toBe(true);
  });
});
