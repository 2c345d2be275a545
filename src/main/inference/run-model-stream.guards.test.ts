/**
 * What runModelStream does about bugs rather than the network: a sink that throws, an
 * attempt that says it was stopped when nothing stopped it, and the figures a dead attempt
 * writes late. Attempts here do exactly one thing each; the providers' own tests drive a
 * throwing sink over their real transports.
 */
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../logger';
import type { StreamEnd, StreamSink } from './model-stream';
import { ATTEMPT_STOPPED, INTERNAL_ERROR_MESSAGE, runModelStream, type AttemptContext, type AttemptResult, type RunModelStreamOptions } from './run-model-stream';

describe('runModelStream, when Flint’s own code fails', () => {
  let disposal: AbortController;
  let logger: ReturnType<typeof createMemoryLogger>;

  beforeEach(() => {
    disposal = new AbortController();
    logger = createMemoryLogger();
  });
  afterEach(() => disposal.abort());

  const start = (attempt: RunModelStreamOptions['attempt'], sink: StreamSink, options: Partial<RunModelStreamOptions> = {}) =>
    runModelStream({
      name: 'test',
      request: { model: 'm', input: 'q' },
      sink,
      apiKey: null,
      logger,
      idleTimeoutMs: 10_000,
      disposal: disposal.signal,
      retryOn: ['connection-lost'],
      attempt,
      ...options,
    });

  /** A sink that keeps its ends, and throws from `onDelta` or `onEnd` as told. */
  const sinkThrowingOn = (where: 'delta' | 'end') => {
    const ends: StreamEnd[] = [];
    const sink: StreamSink = {
      onDelta: () => {
        if (where === 'delta') throw new Error('sink bug on a delta');
      },
      onEnd: (end) => {
        ends.push(end);
        if (where === 'end') throw new Error('sink bug at the end');
      },
    };
    return { sink, ends };
  };

  it('ends as an internal error when the sink throws on a delta: logged, not retried, the attempt told to stop, and the throw kept from the provider', async () => {
    const { sink, ends } = sinkThrowingOn('delta');
    let attempts = 0;
    let context: AttemptContext | undefined;
    let deliverThrew = false;
    const stream = start((given) => {
      attempts += 1;
      context = given;
      try {
        given.deliver('Hello');
      } catch {
        deliverThrew = true;
      }
      return new Promise<AttemptResult>((resolve) => given.signal.addEventListener('abort', () => resolve(ATTEMPT_STOPPED)));
    }, sink);
    expect(await stream.done).toMatchObject({ outcome: 'failed', message: INTERNAL_ERROR_MESSAGE });
    expect(deliverThrew).toBe(false);
    expect(attempts).toBe(1);
    expect(context!.signal.aborted).toBe(true);
    expect(ends).toEqual([expect.objectContaining({ outcome: 'failed', message: INTERNAL_ERROR_MESSAGE })]);
    expect(logger.lines.some((line) => line.startsWith('error: test stream failed: Error: sink bug on a delta'))).toBe(true);
  });

  it('logs a sink that throws when told of the end, and the end stands; a cancel does not throw it on', async () => {
    const completed = sinkThrowingOn('end');
    expect((await start(async () => ({ kind: 'completed' }), completed.sink).done).outcome).toBe('completed');
    const cancelled = sinkThrowingOn('end');
    const stream = start(() => new Promise<AttemptResult>(() => undefined), cancelled.sink);
    expect(() => stream.cancel()).not.toThrow();
    expect((await stream.done).outcome).toBe('cancelled');
    expect(cancelled.ends).toHaveLength(1);
    expect(logger.lines.filter((line) => line.startsWith('error: test stream: the sink failed at the end: Error: sink bug at the end'))).toHaveLength(2);
  });

  it('ends an attempt that says it was stopped when nothing stopped it as an internal error, never as a retry', async () => {
    let attempts = 0;
    const stream = start(async () => ((attempts += 1), ATTEMPT_STOPPED), sinkThrowingOn('end').sink, { retryOn: ['connection-lost', 'unreachable', 'context-expired'] });
    expect(await stream.done).toMatchObject({ outcome: 'failed', message: INTERNAL_ERROR_MESSAGE });
    expect(attempts).toBe(1);
  });

  it('ignores the figures an attempt writes after it was stopped: the retry’s request stands', async () => {
    const keypressAt = performance.now();
    let lateWrites: () => void = () => undefined;
    const lateWritesDone = new Promise<void>((resolve) => (lateWrites = resolve));
    let attempts = 0;
    const stream = start(
      async (context) => {
        attempts += 1;
        if (attempts === 2) {
          await lateWritesDone;
          context.latency.written(keypressAt + 7);
          context.deliver('fresh');
          return { kind: 'completed' };
        }
        context.alive();
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
        // The stalled request's bytes "went out" and its usage arrived, both too late to count.
        context.latency.written(keypressAt + 3);
        context.latency.outputTokens(999);
        lateWrites();
        return ATTEMPT_STOPPED;
      },
      { onDelta: () => undefined, onEnd: () => undefined },
      { idleTimeoutMs: 100, request: { model: 'm', input: 'q', keypressAt } },
    );
    const end = await stream.done;
    expect(end.outcome).toBe('completed');
    expect(end.latency.keypressToWriteMs).toBe(7);
    expect(end.latency.outputTokens).toBe(1);
  });

  it('ends the stream once, and drops what the attempt delivers afterwards, when the sink throws on a delta', async () => {
    const { sink, ends } = sinkThrowingOn('delta');
    let context: AttemptContext | undefined;
    const stream = start((given) => {
      context = given;
      return new Promise<AttemptResult>(() => undefined);
    }, sink);
    context!.deliver('one');
    context!.deliver('two');
    expect((await stream.done).message).toBe(INTERNAL_ERROR_MESSAGE);
    expect(ends).toHaveLength(1);
    expect(logger.lines.filter((line) => line.startsWith('error: test stream failed'))).toHaveLength(1);
  });
});
