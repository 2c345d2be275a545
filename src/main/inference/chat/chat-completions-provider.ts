/**
 * OpenAI-compatible chat completions over SSE (Cerebras, Ollama, llama.cpp, vLLM,
 * LM Studio, OpenRouter, Groq), through the official `openai` SDK.
 *
 * HTTP keep-alive is the warm connection here: `warm()` makes one cheap request so
 * the TCP/TLS connection is open before the user asks. There is no pre-load (the
 * protocol has none; providers' prefix caches serve the stable instructions).
 * Cancel aborts the HTTP request, which closes the stream: the only signal SSE has.
 */
import OpenAI from 'openai';
import { performance } from 'node:perf_hooks';
import type { ConnectionState } from '../../../shared/inference-types';
import { Emitter, type Event } from '../../lifecycle';
import type { Logger } from '../../logger';
import { checkKeyIsSendable, connectionDropped, failureFromNetwork, failureFromStatus, InferenceFailure, quoteProvider } from '../inference-failure';
import { redactKey } from '../key-redactor';
import { LatencyRecorder } from '../latency-recorder';
import type { InferenceProvider, ModelStream, StreamEnd, StreamRequest, StreamSink } from '../model-stream';
import { libraryLogger, redactingLogger } from '../redacting-logger';
import { StreamEnding } from '../stream-ending';

export interface ChatCompletionsProviderOptions {
  baseUrl: string;
  apiKey: string | null;
  logger: Logger;
  /** No chunk for this long mid-answer means the stream stalled. */
  idleTimeoutMs?: number;
  /** Waiting for the response headers longer than this fails the request. */
  connectTimeoutMs?: number;
}

export class ChatCompletionsProvider implements InferenceProvider {
  private readonly client: OpenAI;
  /** Every request in flight (answers and the warm-up), aborted on dispose. */
  private readonly controllers = new Set<AbortController>();
  private disposed = false;
  private readonly redact = (text: string): string => redactKey(text, this.options.apiKey);
  /** Every line this provider logs can carry what the server sent: the key is hidden in all of them. */
  private readonly logger: Logger;
  private readonly _onDidChangeState = new Emitter<{ state: ConnectionState; message?: string }>();
  readonly onDidChangeState: Event<{ state: ConnectionState; message?: string }> = this._onDidChangeState.event;

  constructor(private readonly options: ChatCompletionsProviderOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new InferenceFailure('bad-configuration', `The base URL ${JSON.stringify(options.baseUrl)} is not a URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new InferenceFailure('bad-configuration', `The base URL must start with https:// or http://, not ${url.protocol}//.`);
    }
    checkKeyIsSendable(options.apiKey);
    this.logger = redactingLogger(options.logger, options.apiKey);
    // Local servers take no key, but the SDK insists on one.
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      apiKey: options.apiKey ?? 'not-needed',
      maxRetries: 0,
      timeout: 10 * 60_000,
      // The SDK's own log lines (a malformed chunk, OPENAI_LOG=debug bodies) go through ours: key hidden, stdout untouched.
      logger: libraryLogger(this.logger, 'openai'),
    });
  }

  warm(): void {
    this._onDidChangeState.fire({ state: 'connecting' });
    const controller = new AbortController();
    this.controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), this.options.connectTimeoutMs ?? 10_000);
    this.client.models
      .list({ signal: controller.signal })
      .then(
        () => this._onDidChangeState.fire({ state: 'ready' }),
        (error: unknown) => {
          const failure = toFailure(error, this.options.baseUrl, this.options.apiKey);
          // Some compatible servers have no /models: reaching them at all is warm enough.
          if (failure.code === 'model-not-found' || failure.code === 'protocol-error') this._onDidChangeState.fire({ state: 'ready' });
          else this._onDidChangeState.fire({ state: failure.code === 'unauthorized' ? 'offline' : 'reconnecting', message: this.redact(failure.message) });
        },
      )
      .finally(() => {
        clearTimeout(timer);
        this.controllers.delete(controller);
      });
  }

  preload(): void {
    // Chat completions has no way to pre-load state; prompt caching keys on the stable prefix.
  }

  stream(request: StreamRequest, sink: StreamSink): ModelStream {
    const latency = new LatencyRecorder(request.model, request.keypressAt ?? performance.now());
    let controller = new AbortController();
    let cancelled = false;
    // Deltas go out through `ending`: key hidden, and nothing after the end (or a cancel).
    const ending = new StreamEnding(sink, latency, this.options.apiKey);
    const end = (outcome: StreamEnd['outcome'], message?: string): void => ending.end(outcome, message);

    const run = async (): Promise<void> => {
      for (let index = 0; index < 2; index += 1) {
        const result = await this.attempt(request, controller, latency, ending);
        if (cancelled) return;
        if (this.disposed) return end('failed', 'Stopped: the provider settings changed. Ask again.');
        if (!result.failure) {
          this._onDidChangeState.fire({ state: 'ready' });
          if (result.finish === 'length' || result.finish === 'content_filter') {
            return end('incomplete', `The answer stopped early (${result.finish.replaceAll('_', ' ')}).`);
          }
          return end('completed');
        }
        // Retry once at a clean boundary: only if nothing was shown yet.
        const retryable = !result.delivered && (result.failure.code === 'connection-lost' || result.failure.code === 'unreachable');
        if (!retryable || index === 1) return end('failed', result.failure.message);
        controller = new AbortController();
        latency.resetDeltas();
      }
    };
    run().catch((error: unknown) => {
      this.logger.error('chat stream failed', error);
      end('failed', 'Flint hit an internal error; the details are in its log.');
    });

    return {
      cancel: () => {
        if (ending.isEnded) return;
        cancelled = true;
        controller.abort();
        end('cancelled');
      },
      done: ending.done,
    };
  }

  /**
   * One request and its stream, delivered through `ending`. Never throws: a failure is
   * returned, with whether any text was shown (which rules out a retry).
   */
  private async attempt(request: StreamRequest, controller: AbortController, latency: LatencyRecorder, ending: StreamEnding): Promise<AttemptResult> {
    let delivered = false;
    /** The response headers arrived: from here on, a network error is a drop, not "could not reach". */
    let answering = false;
    let finish: string | null = null;
    let stalled = false;
    let idleTimer: NodeJS.Timeout | null = null;
    const idleTimeoutMs = this.options.idleTimeoutMs ?? 30_000;
    const stallFailure = () => new InferenceFailure('connection-lost', `The provider stopped sending (nothing for ${Math.round(idleTimeoutMs / 1000)} s).`);
    this.controllers.add(controller);
    const armIdle = (): void => {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        stalled = true;
        controller.abort();
      }, idleTimeoutMs);
    };
    armIdle();
    try {
      const messages: OpenAI.ChatCompletionMessageParam[] = [];
      if (request.instructions !== undefined) messages.push({ role: 'system', content: request.instructions });
      messages.push({ role: 'user', content: request.input });
      const pending = this.client.chat.completions.create(
        { model: request.model, messages, stream: true, stream_options: { include_usage: true } },
        { signal: controller.signal },
      );
      // SSE has no socket to watch: "written" is when the request is handed to fetch.
      latency.written();
      const stream = await pending;
      answering = true;
      for await (const chunk of stream) {
        armIdle();
        const choice = chunk.choices[0];
        const text = choice?.delta?.content;
        if (text) {
          delivered = true;
          latency.delta();
          ending.deliver('text', text);
        }
        if (choice?.finish_reason) finish = choice.finish_reason;
        if (chunk.usage?.completion_tokens !== undefined) latency.outputTokens(chunk.usage.completion_tokens);
      }
      if (stalled) throw stallFailure();
      // A cancel ends the stream (and `ending`) early, without a finish reason.
      if (finish === null && !ending.isEnded) throw new InferenceFailure('connection-lost', 'The stream ended before the answer was complete.');
      return { delivered, finish };
    } catch (error) {
      if (stalled) return { delivered, failure: stallFailure() };
      const failure = toFailure(error, this.options.baseUrl, this.options.apiKey);
      if (answering && failure.code === 'unreachable') {
        return { delivered, failure: connectionDropped(hostOf(this.options.baseUrl), delivered ? 'mid-answer' : 'before-answer', this.options.apiKey) };
      }
      return { delivered, failure };
    } finally {
      if (idleTimer) clearTimeout(idleTimer);
      this.controllers.delete(controller);
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const controller of this.controllers) controller.abort();
    this.controllers.clear();
    this._onDidChangeState.dispose();
  }
}

/** How one request went: a finish reason, or a failure; and whether any text was shown. */
interface AttemptResult {
  delivered: boolean;
  failure?: InferenceFailure;
  finish?: string | null;
}

function toFailure(error: unknown, baseUrl: string, apiKey: string | null): InferenceFailure {
  if (error instanceof InferenceFailure) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new InferenceFailure('unreachable', `${hostOf(baseUrl)} did not answer in time.`);
  if (error instanceof OpenAI.APIConnectionError) return failureFromNetwork(error.cause ?? error, hostOf(baseUrl));
  if (error instanceof OpenAI.APIError) {
    const body = error.error as { message?: string; code?: string } | undefined;
    const retryAfter = error.headers?.get?.('retry-after') ?? null;
    const providerMessage = typeof body?.message === 'string' ? body.message : '';
    if (error.status === undefined) {
      return new InferenceFailure('server-error', `The provider reported an error mid-answer: ${quoteProvider(providerMessage || error.message, apiKey)}.`);
    }
    return failureFromStatus({ status: error.status, providerMessage, code: body?.code ?? (error.code as string | null | undefined), retryAfter, apiKey });
  }
  if (error instanceof SyntaxError) return new InferenceFailure('protocol-error', 'The provider sent a malformed stream.');
  const name = error instanceof Error ? error.name : '';
  if (name === 'AbortError') return new InferenceFailure('connection-lost', 'The request was aborted.');
  return failureFromNetwork(error, hostOf(baseUrl));
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
