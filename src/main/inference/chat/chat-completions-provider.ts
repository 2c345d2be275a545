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
import { checkKeyIsSendable, failureFromNetwork, failureFromStatus, InferenceFailure, redactKey } from '../inference-failure';
import { LatencyRecorder } from '../latency-recorder';
import type { InferenceProvider, ModelStream, StreamEnd, StreamRequest, StreamSink } from '../model-stream';
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
    // Local servers take no key, but the SDK insists on one.
    this.client = new OpenAI({ baseURL: options.baseUrl, apiKey: options.apiKey ?? 'not-needed', maxRetries: 0, timeout: 10 * 60_000 });
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
          const failure = toFailure(error, this.options.baseUrl);
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
    const ending = new StreamEnding(sink, latency, this.redact);
    const end = (outcome: StreamEnd['outcome'], message?: string): void => ending.end(outcome, message);

    const attempt = async (): Promise<{ delivered: boolean; failure?: InferenceFailure; finish?: string | null }> => {
      let delivered = false;
      let finish: string | null = null;
      let stalled = false;
      let idleTimer: NodeJS.Timeout | null = null;
      const idleTimeoutMs = this.options.idleTimeoutMs ?? 30_000;
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
        for await (const chunk of stream) {
          armIdle();
          const choice = chunk.choices[0];
          const text = choice?.delta?.content;
          if (text) {
            delivered = true;
            latency.delta();
            if (!cancelled) sink.onDelta('text', text);
          }
          if (choice?.finish_reason) finish = choice.finish_reason;
          if (chunk.usage?.completion_tokens !== undefined) latency.outputTokens(chunk.usage.completion_tokens);
        }
        if (stalled) throw new InferenceFailure('connection-lost', `The provider stopped sending (nothing for ${Math.round(idleTimeoutMs / 1000)} s).`);
        if (finish === null && !cancelled) throw new InferenceFailure('connection-lost', 'The stream ended before the answer was complete.');
        return { delivered, finish };
      } catch (error) {
        if (stalled) {
          return { delivered, failure: new InferenceFailure('connection-lost', `The provider stopped sending (nothing for ${Math.round(idleTimeoutMs / 1000)} s).`) };
        }
        return { delivered, failure: toFailure(error, this.options.baseUrl) };
      } finally {
        if (idleTimer) clearTimeout(idleTimer);
        this.controllers.delete(controller);
      }
    };

    const run = async (): Promise<void> => {
      for (let index = 0; index < 2; index += 1) {
        const result = await attempt();
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
      this.options.logger.error('chat stream failed', error);
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

  dispose(): void {
    this.disposed = true;
    for (const controller of this.controllers) controller.abort();
    this.controllers.clear();
    this._onDidChangeState.dispose();
  }
}

function toFailure(error: unknown, baseUrl: string): InferenceFailure {
  if (error instanceof InferenceFailure) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new InferenceFailure('unreachable', `${hostOf(baseUrl)} did not answer in time.`);
  if (error instanceof OpenAI.APIConnectionError) return failureFromNetwork(error.cause ?? error, hostOf(baseUrl));
  if (error instanceof OpenAI.APIError) {
    const body = error.error as { message?: string; code?: string } | undefined;
    const retryAfter = error.headers?.get?.('retry-after') ?? null;
    if (error.status === undefined) return new InferenceFailure('server-error', `The provider reported an error mid-answer: ${body?.message ?? error.message}.`);
    return failureFromStatus(error.status, body?.message ?? '', body?.code ?? (error.code as string | null | undefined), retryAfter);
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
