/**
 * The stream lifecycle both providers share, driven by an attempt written as a provider
 * writes one — over a real WebSocket to a real local server — and, for the runner's own
 * failures (a throwing attempt, racing ends), by attempts that do exactly one thing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { scriptedServer, send, type ScriptedSocketServer } from '../../../test/helpers/scripted-responses-server';
import { waitFor } from '../../../test/helpers/temp-project';
import { createMemoryLogger } from '../logger';
import { InferenceFailure } from './inference-failure';
import type { StreamEnd, StreamSink } from './model-stream';
import { responsesUrl } from './responses/responses-provider';
import {
  INTERNAL_ERROR_MESSAGE,
  runModelStream,
  SETTINGS_CHANGED_MESSAGE,
  stallMessage,
  type AttemptContext,
  type AttemptResult,
  type RunModelStreamOptions,
} from './run-model-stream';

type Script = (client: WebSocket) => void;

/** Answers with `pieces` as deltas, then completes. */
const answer =
  (...pieces: string[]): Script =>
  (client) => {
    for (const delta of pieces) send(client, { type: 'response.output_text.delta', delta });
    send(client, { type: 'response.completed' });
  };
/** Drops the connection before answering. */
const drop: Script = (client) => client.terminate();
/** Takes the request and says nothing. */
const silent: Script = () => undefined;
/** Sends `delta`, then says nothing more. */
const stallAfter =
  (delta: string): Script =>
  (client) =>
    send(client, { type: 'response.output_text.delta', delta });
/** Sends `delta`, then drops the connection once the delta is written. */
const dropAfter =
  (delta: string): Script =>
  (client) =>
    client.send(JSON.stringify({ type: 'response.output_text.delta', delta }), () => client.terminate());

/**
 * An attempt as a provider writes one: one request per connection, prose from delta
 * events, `alive` on every event, and closing the connection when told to stop.
 */
function socketAttempt(url: string, opened: WebSocket[]): (context: AttemptContext) => Promise<AttemptResult> {
  return (context) =>
    new Promise<AttemptResult>((resolve) => {
      const socket = new WebSocket(url);
      opened.push(socket);
      context.signal.addEventListener('abort', () => socket.terminate(), { once: true });
      socket.on('error', () => undefined);
      socket.on('open', () => {
        socket.send(JSON.stringify({ type: 'response.create' }));
        context.alive();
      });
      socket.on('message', (data) => {
        context.alive();
        const event = JSON.parse(String(data)) as { type: string; delta?: string; reason?: string };
        if (event.type === 'response.output_text.delta') context.deliver(event.delta ?? '');
        if (event.type === 'response.incomplete') resolve({ kind: 'incomplete', ...(event.reason ? { reason: event.reason } : {}) });
        if (event.type === 'response.completed') resolve({ kind: 'completed' });
        if (event.type === 'response.completed' || event.type === 'response.incomplete') socket.close();
      });
      socket.on('close', () => resolve({ kind: 'failed', failure: new InferenceFailure('connection-lost', 'The connection dropped.') }));
    });
}

/** A sink that keeps everything, in order. */
function recordingSink(): { sink: StreamSink; seen: { text: string; events: string[]; ends: StreamEnd[] } } {
  const seen = { text: '', events: [] as string[], ends: [] as StreamEnd[] };
  return {
    seen,
    sink: {
      onDelta: (text) => {
        seen.text += text;
        seen.events.push(`delta:${text}`);
      },
      onEnd: (end) => {
        seen.ends.push(end);
        seen.events.push(`end:${end.outcome}`);
      },
    },
  };
}

describe('runModelStream', () => {
  let server: ScriptedSocketServer | undefined;
  let requests = 0;
  let opened: WebSocket[];
  let disposal: AbortController;
  let logger: ReturnType<typeof createMemoryLogger>;

  beforeEach(() => {
    requests = 0;
    opened = [];
    disposal = new AbortController();
    logger = createMemoryLogger();
  });

  afterEach(async () => {
    disposal.abort();
    for (const socket of opened) socket.terminate();
    await server?.close();
    server = undefined;
  });

  /** Serves the n-th request with `scripts[n]`. */
  const serve = async (...scripts: Script[]) => {
    server = await scriptedServer((client) => scripts[requests++]?.(client));
  };

  const start = (options: Partial<RunModelStreamOptions> = {}) => {
    const { sink, seen } = recordingSink();
    const stream = runModelStream({
      name: 'test',
      request: { model: 'm', input: 'q' },
      sink,
      apiKey: null,
      logger,
      idleTimeoutMs: 10_000,
      disposal: disposal.signal,
      retryOn: ['connection-lost'],
      ...options,
      attempt: options.attempt ?? socketAttempt(responsesUrl(server!.baseUrl), opened),
    });
    return { stream, seen };
  };

  describe('retry', () => {
    it('retries once when the connection drops before the first delta, and shows only the second answer', async () => {
      await serve(drop, answer('Hel', 'lo'));
      const { stream, seen } = start();
      const end = await stream.done;
      expect(seen.events).toEqual(['delta:Hel', 'delta:lo', 'end:completed']);
      expect(requests).toBe(2);
      expect(end.latency.outputTokens).toBe(2);
      expect(logger.lines).toContain('info: test: retrying after connection-lost');
    });

    it('never retries once a delta was shown: a drop mid-answer fails and keeps the text', async () => {
      await serve(dropAfter('Hal'), answer('never shown'));
      const { stream, seen } = start();
      expect(await stream.done).toMatchObject({ outcome: 'failed', message: 'The connection dropped.' });
      expect(seen.text).toBe('Hal');
      expect(requests).toBe(1);
    });

    it('does not count an empty delta as shown', async () => {
      await serve(dropAfter(''), answer('whole'));
      const { stream, seen } = start();
      expect((await stream.done).outcome).toBe('completed');
      expect(seen.text).toBe('whole');
    });

    it('retries at most once', async () => {
      await serve(drop, drop, answer('never asked for'));
      const { stream } = start();
      expect(await stream.done).toMatchObject({ outcome: 'failed', message: 'The connection dropped.' });
      expect(requests).toBe(2);
    });

    it('retries only the failures the provider names', async () => {
      await serve(drop, answer('never asked for'));
      const { stream } = start({ retryOn: [] });
      expect((await stream.done).outcome).toBe('failed');
      expect(requests).toBe(1);
    });
  });

  describe('stall', () => {
    it('fails a stalled answer with the one stall message and closes its connection', async () => {
      await serve(stallAfter('Part'));
      const { stream, seen } = start({ idleTimeoutMs: 200 });
      expect(await stream.done).toMatchObject({ outcome: 'failed', message: stallMessage(200) });
      expect(seen.text).toBe('Part');
      await waitFor(() => server!.openConnections() === 0, 'the stalled connection to close');
    });

    it('retries a stall before the first delta, as a connection that went stale', async () => {
      await serve(silent, answer('fresh'));
      const { stream, seen } = start({ idleTimeoutMs: 200 });
      expect((await stream.done).outcome).toBe('completed');
      expect(seen.text).toBe('fresh');
      expect(requests).toBe(2);
    });
  });

  describe('cancel', () => {
    it('cancels before the connection is open: the attempt is stopped and nothing is sent', async () => {
      await serve(answer('never asked for'));
      const { stream, seen } = start();
      stream.cancel();
      expect((await stream.done).outcome).toBe('cancelled');
      await waitFor(() => opened[0]!.readyState === WebSocket.CLOSED, 'the connection to close');
      expect(requests).toBe(0);
      expect(seen.events).toEqual(['end:cancelled']);
    });

    it('cancels while waiting for the first delta, closing the connection', async () => {
      await serve(silent);
      const { stream, seen } = start();
      await waitFor(() => requests === 1, 'the request');
      stream.cancel();
      expect((await stream.done).outcome).toBe('cancelled');
      await waitFor(() => server!.openConnections() === 0, 'the connection to close');
      expect(seen.events).toEqual(['end:cancelled']);
    });

    it('cancels mid-answer, keeping what was shown and closing the connection', async () => {
      await serve(stallAfter('Half'));
      const { stream, seen } = start();
      await waitFor(() => seen.text === 'Half', 'the first delta');
      stream.cancel();
      expect((await stream.done).outcome).toBe('cancelled');
      await waitFor(() => server!.openConnections() === 0, 'the connection to close');
      expect(seen.events).toEqual(['delta:Half', 'end:cancelled']);
    });

    it('cancels during the retry', async () => {
      await serve(drop, silent);
      const { stream, seen } = start();
      await waitFor(() => requests === 2, 'the retried request');
      stream.cancel();
      expect((await stream.done).outcome).toBe('cancelled');
      await waitFor(() => server!.openConnections() === 0, 'the connection to close');
      expect(seen.events).toEqual(['end:cancelled']);
    });

    it('does nothing once the stream has ended', async () => {
      await serve(answer('done'));
      const { stream, seen } = start();
      await stream.done;
      stream.cancel();
      expect(seen.events).toEqual(['delta:done', 'end:completed']);
    });
  });

  describe('endings', () => {
    it('says in one wording that the answer stopped early, with the provider’s reason', async () => {
      await serve((client) => send(client, { type: 'response.incomplete', reason: 'max output tokens' }));
      const { stream } = start();
      expect(await stream.done).toMatchObject({ outcome: 'incomplete', message: 'The answer stopped early (max output tokens).' });
    });

    it('ends with "settings changed" when the provider is disposed mid-answer, and closes the connection', async () => {
      await serve(stallAfter('Half'));
      const { stream, seen } = start();
      await waitFor(() => seen.text === 'Half', 'the first delta');
      disposal.abort();
      expect(await stream.done).toMatchObject({ outcome: 'failed', message: SETTINGS_CHANGED_MESSAGE });
      await waitFor(() => server!.openConnections() === 0, 'the connection to close');
    });

    it('ends at once, with no attempt, when the provider was disposed before the stream began', async () => {
      let attempts = 0;
      disposal.abort();
      const { stream } = start({ attempt: async () => (attempts += 1, { kind: 'completed' }) });
      expect(await stream.done).toMatchObject({ outcome: 'failed', message: SETTINGS_CHANGED_MESSAGE });
      expect(attempts).toBe(0);
    });

    it('ends exactly once, whichever comes first: cancel, disposal, or the attempt’s own end', async () => {
      let finishAttempt: (result: AttemptResult) => void = () => undefined;
      let context: AttemptContext | undefined;
      const { stream, seen } = start({
        attempt: (given) => {
          context = given;
          return new Promise((resolve) => (finishAttempt = resolve));
        },
      });
      context!.deliver('first');
      stream.cancel();
      disposal.abort();
      context!.deliver('late');
      finishAttempt({ kind: 'completed' });
      stream.cancel();
      expect((await stream.done).outcome).toBe('cancelled');
      expect(context!.signal.aborted).toBe(true);
      expect(seen.events).toEqual(['delta:first', 'end:cancelled']);
    });
  });

  describe('an attempt that throws', () => {
    it('ends as an internal error, logged and not retried, whether it throws at once or later', async () => {
      const throwsAtOnce = (): Promise<AttemptResult> => {
        throw new Error('bug at once');
      };
      const rejects = async (): Promise<AttemptResult> => {
        throw new Error('bug later');
      };
      for (const attempt of [throwsAtOnce, rejects]) {
        let attempts = 0;
        const { stream, seen } = start({ attempt: () => ((attempts += 1), attempt()) });
        expect(await stream.done).toMatchObject({ outcome: 'failed', message: INTERNAL_ERROR_MESSAGE });
        expect(attempts).toBe(1);
        expect(seen.ends).toHaveLength(1);
      }
      expect(logger.lines.filter((line) => line.startsWith('error: test stream failed'))).toHaveLength(2);
    });

    it('tells the attempt to close what it opened', async () => {
      await serve(silent);
      const { stream } = start({
        attempt: async (context) => {
          void socketAttempt(responsesUrl(server!.baseUrl), opened)(context);
          await waitFor(() => requests === 1, 'the request');
          throw new Error('bug mid-request');
        },
      });
      expect((await stream.done).message).toBe(INTERNAL_ERROR_MESSAGE);
      await waitFor(() => server!.openConnections() === 0, 'the connection to close');
    });

    it('only logs a throw from an attempt already stopped, and the retry’s answer stands', async () => {
      let attempts = 0;
      const { stream, seen } = start({
        idleTimeoutMs: 100,
        attempt: async (context) => {
          attempts += 1;
          if (attempts === 2) {
            context.deliver('fine');
            return { kind: 'completed' };
          }
          context.alive();
          await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
          throw new Error('bug after the stall');
        },
      });
      expect((await stream.done).outcome).toBe('completed');
      expect(seen.text).toBe('fine');
      await waitFor(() => logger.lines.some((line) => line.startsWith('error: test attempt failed after it was stopped')), 'the late throw in the log');
    });
  });
});
