/**
 * The one owner of a model stream's life, for every provider: the attempt and its one
 * retry, the stall timer, cancel, the "settings changed" ending, internal errors (a throw
 * from the attempt, or from the sink on a delta: logged, never retried), and exactly one
 * end (through StreamEnding).
 *
 * A provider supplies `attempt()` and nothing else of the lifecycle: open one request,
 * pass its prose to `deliver`, call `alive` when the request goes out and whenever the
 * provider says anything, and return how the request ended. The attempt owns what it
 * opens: it releases it before returning, and closes it as soon as `signal` aborts
 * (cancel, stall, the provider disposed) — its later deltas and result are ignored.
 *
 * Retry: at most once, and only at a clean boundary — before the first delta reached the
 * user, so a retry never shows text twice or splices two answers. Which failures a
 * second attempt may cure is the provider's one say (`retryOn`): what "the connection was
 * stale" looks like depends on the transport, and each provider says why next to its list.
 */
import { performance } from 'node:perf_hooks';
import type { Logger } from '../logger';
import { InferenceFailure, type InferenceFailureCode } from './inference-failure';
import { LatencyRecorder } from './latency-recorder';
import type { ModelStream, StreamEnd, StreamFailure, StreamRequest, StreamSink } from './model-stream';
import { StreamEnding } from './stream-ending';

/** What an attempt is given: where its prose goes, how to show it is alive, when to stop. */
export interface AttemptContext {
  /** Aborts when the attempt must stop at once (cancel, stall, disposal, a bug): close the request. */
  readonly signal: AbortSignal;
  /** The request's figures: the attempt records `written` and the provider's token count; deltas are counted here. */
  readonly latency: AttemptLatency;
  /** Passes prose to the user (key hidden). After the first non-empty delta the stream is never retried. */
  deliver(text: string): void;
  /**
   * The request is out, or the provider said something (any event, not only prose):
   * restarts the stall timer. The timer runs from the first call, so waiting for a
   * connection is bounded by the transport's own timeouts, not by "stopped sending".
   */
  alive(): void;
}

/**
 * The figures an attempt records. Once the attempt is settled (stopped, stalled) they are
 * ignored: a late write from a dead attempt must not stand for the retry's request.
 */
export type AttemptLatency = Pick<LatencyRecorder, 'written' | 'outputTokens' | 'answeredBy'>;

/** How one attempt ended. */
export type AttemptResult =
  /** The provider said the answer is complete. */
  | { kind: 'completed' }
  /** The provider stopped early (length limit, content filter); `reason` is in words, fit to show. */
  | { kind: 'incomplete'; reason?: string }
  /** The request failed; retried only if nothing was delivered and `retryOn` names the code. */
  | { kind: 'failed'; failure: InferenceFailure }
  /**
   * The attempt was stopped from outside (`signal`). Never retried: whatever stopped it
   * has ended the stream or already settled the attempt, so this result is never read.
   */
  | { kind: 'stopped' };

export interface RunModelStreamOptions {
  /** Names the stream in the log ("responses", "chat"). */
  name: string;
  request: StreamRequest;
  sink: StreamSink;
  /** The key to hide in deltas and messages. */
  apiKey: string | null;
  logger: Logger;
  /** No word from the provider for this long, once the request is out, means it stalled. */
  idleTimeoutMs: number;
  /** Aborts when the provider is disposed (its settings or key changed): the stream ends at once. */
  disposal: AbortSignal;
  /** Opens one request and follows it to its end (see the header). */
  attempt: (context: AttemptContext) => Promise<AttemptResult>;
  /** The failures a second attempt may cure, when nothing was delivered yet; empty for never. */
  retryOn: readonly InferenceFailureCode[];
}

export const SETTINGS_CHANGED_MESSAGE = 'Stopped: the provider settings changed. Ask again.';
export const INTERNAL_ERROR_MESSAGE = 'Flint hit an internal error; the details are in its log.';

/** The words for a stall, for every provider. */
export function stallMessage(idleTimeoutMs: number): string {
  return `The provider stopped sending (nothing for ${Math.round(idleTimeoutMs / 1000)} s).`;
}

/** The words for an answer the provider cut short, for every provider. */
function stoppedEarlyMessage(reason: string | undefined): string {
  return `The answer stopped early${reason ? ` (${reason})` : ''}.`;
}

/** Runs `attempt` (once, or twice) and ends the stream exactly once. */
export function runModelStream(options: RunModelStreamOptions): ModelStream {
  const run = new StreamRun(options);
  run.start();
  return { cancel: () => run.stop('cancelled'), done: run.done };
}

/** What an attempt that was stopped from outside returns (or is settled with). */
export const ATTEMPT_STOPPED: AttemptResult = { kind: 'stopped' };

class StreamRun {
  readonly done: Promise<StreamEnd>;
  private readonly latency: LatencyRecorder;
  private readonly ending: StreamEnding;
  /** Some prose reached the user: from here on a failure ends the stream. */
  private delivered = false;
  /** The attempt under way, aborted to stop it. */
  private current: AbortController | null = null;
  private readonly onDisposed = (): void => this.stop('failed', SETTINGS_CHANGED_MESSAGE);

  constructor(private readonly options: RunModelStreamOptions) {
    const { request } = options;
    this.latency = new LatencyRecorder(request.model, request.keypressAt ?? performance.now());
    this.ending = new StreamEnding(options.sink, this.latency, options.apiKey);
    this.done = this.ending.done;
  }

  start(): void {
    const { disposal } = this.options;
    if (disposal.aborted) return this.onDisposed();
    disposal.addEventListener('abort', this.onDisposed);
    void this.done.then(() => disposal.removeEventListener('abort', this.onDisposed));
    this.loop().catch((error: unknown) => this.internalError(error));
  }

  /** Ends the stream now (cancel, disposal, a bug) and stops the attempt under way; later ends are ignored. */
  stop(outcome: StreamEnd['outcome'], message?: string, failure?: StreamFailure): void {
    this.end(outcome, message, failure);
    this.current?.abort();
  }

  /**
   * Ends the stream (once). A sink that throws while told is a bug of the sink's owner: it
   * is logged, and the end stands (StreamEnding has told onEnd and settled `done`). Not
   * thrown on: the caller may be a cancel, an abort listener or a socket's event handler.
   */
  private end(outcome: StreamEnd['outcome'], message?: string, failure?: StreamFailure): void {
    try {
      this.ending.end(outcome, message, failure);
    } catch (error) {
      this.options.logger.error(`${this.options.name} stream: the sink failed at the end`, error);
    }
  }

  private async loop(): Promise<void> {
    for (let index = 0; ; index += 1) {
      const result = await this.attempt();
      // Cancelled, disposed or failed internally meanwhile: that end stands.
      if (this.ending.isEnded) return;
      // Every stop from outside ends the stream (cancel, disposal, a bug) or settles the attempt
      // first (a stall): a "stopped" that gets here came from an attempt nothing stopped.
      if (result.kind === 'stopped') throw new Error('an attempt returned "stopped" though nothing stopped it');
      if (result.kind === 'completed') return this.end('completed');
      if (result.kind === 'incomplete') return this.end('incomplete', stoppedEarlyMessage(result.reason));
      const { failure } = result;
      if (index > 0 || this.delivered || !this.options.retryOn.includes(failure.code)) return this.end('failed', failure.message, failureOf(failure));
      this.options.logger.info(`${this.options.name}: retrying after ${failure.code}`);
    }
  }

  /** One attempt, settled by its own result, a stall, or a stop from outside — whichever comes first. */
  private attempt(): Promise<AttemptResult> {
    const controller = new AbortController();
    this.current = controller;
    let stallTimer: NodeJS.Timeout | undefined;
    let settled = false;
    return new Promise<AttemptResult>((resolve) => {
      const settle = (result: AttemptResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(stallTimer);
        if (this.current === controller) this.current = null;
        resolve(result);
      };
      // Stopped from outside: the loop does not wait for the provider to notice.
      controller.signal.addEventListener('abort', () => settle(ATTEMPT_STOPPED), { once: true });
      const alive = (): void => {
        if (settled) return;
        clearTimeout(stallTimer);
        stallTimer = setTimeout(() => {
          settle({ kind: 'failed', failure: new InferenceFailure('connection-lost', stallMessage(this.options.idleTimeoutMs)) });
          controller.abort();
        }, this.options.idleTimeoutMs);
      };
      const deliver = (text: string): void => {
        // A settled or stopped attempt's late prose must not reach the user, nor count against a retry.
        if (settled || text.length === 0) return;
        this.delivered = true;
        this.latency.delta();
        alive();
        try {
          this.ending.deliver(text);
        } catch (error) {
          // The sink threw: a bug of Flint's, not the provider's doing. It ends the stream here
          // rather than being thrown back into the provider, whose caller (a socket's event
          // handler, an SSE read) would take it for the network or leave it uncaught.
          this.internalError(error);
        }
      };
      const latency: AttemptLatency = {
        written: (at) => {
          if (!settled) this.latency.written(at);
        },
        outputTokens: (count) => {
          if (!settled) this.latency.outputTokens(count);
        },
        answeredBy: (model) => {
          if (!settled) this.latency.answeredBy(model);
        },
      };
      this.begin({ signal: controller.signal, latency, deliver, alive }).then(settle, (error: unknown) => {
        // A throw is a bug: it ends the stream unless this attempt was already stopped (the stream moved on).
        if (settled) return this.options.logger.error(`${this.options.name} attempt failed after it was stopped`, error);
        // Settles this attempt and tells it to close what it opened.
        controller.abort();
        this.internalError(error);
      });
    });
  }

  /** Calls the provider's attempt; a synchronous throw becomes a rejection like any other. */
  private begin(context: AttemptContext): Promise<AttemptResult> {
    try {
      return this.options.attempt(context);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private internalError(error: unknown): void {
    this.options.logger.error(`${this.options.name} stream failed`, error);
    this.stop('failed', INTERNAL_ERROR_MESSAGE, { code: 'internal' });
  }
}

function failureOf(failure: InferenceFailure): StreamFailure {
  return { code: failure.code, ...(failure.retryAfterSeconds !== undefined ? { retryAfterSeconds: failure.retryAfterSeconds } : {}) };
}
