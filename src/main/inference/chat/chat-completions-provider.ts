/**
 * OpenAI-compatible chat completions over SSE (Cerebras, Ollama, llama.cpp, vLLM,
 * LM Studio, OpenRouter, Groq), through the official `openai` SDK.
 *
 * HTTP keep-alive is the warm connection here: `warm()` makes one cheap request so
 * the TCP/TLS connection is open before the user asks. There is no pre-load (the
 * protocol has none; providers' prefix caches serve the stable instructions).
 * Cancel aborts the HTTP request, which closes the stream: the only signal SSE has.
 * The stream's lifecycle (retry, stall, cancel, endings) is runModelStream's.
 */
import OpenAI from 'openai';
import type { ConnectionState } from '../../../shared/inference-types';
import { Emitter, type Event } from '../../lifecycle';
import type { Logger } from '../../logger';
import { checkKeyIsSendable, connectionDropped, failureFromNetwork, failureFromStatus, InferenceFailure, quoteProvider, type InferenceFailureCode } from '../inference-failure';
import { redactKey } from '../key-redactor';
import type { InferenceProvider, ModelStream, StreamRequest, StreamSink } from '../model-stream';
import { libraryLogger, redactingLogger } from '../redacting-logger';
import { runModelStream, type AttemptContext, type AttemptResult } from '../run-model-stream';
import { stringOr, type Unchecked } from '../server-json';
import { readChunk } from './chat-wire';

export interface ChatCompletionsProviderOptions {
  baseUrl: string;
  apiKey: string | null;
  logger: Logger;
  /** No chunk for this long mid-answer means the stream stalled. */
  idleTimeoutMs?: number;
  /** Waiting for the response headers longer than this fails the request. */
  connectTimeoutMs?: number;
}

/**
 * The failures a second attempt may cure, before anything was shown:
 * - `connection-lost`: the stream broke or went silent before the first token.
 * - `unreachable`: the request never got its response headers. A keep-alive connection
 *   the server closed while idle fails this way (reset), and nothing below Flint retries
 *   it (the SDK's own retries are off); a fresh connection usually goes through.
 */
const RETRY_ON: readonly InferenceFailureCode[] = ['connection-lost', 'unreachable'];

export class ChatCompletionsProvider implements InferenceProvider {
  private readonly client: OpenAI;
  /** Aborted on dispose: the warm-up request and every stream under way stop ("settings changed"). */
  private readonly lifetime = new AbortController();
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
    const signal = AbortSignal.any([this.lifetime.signal, AbortSignal.timeout(this.options.connectTimeoutMs ?? 10_000)]);
    this.client.models.list({ signal }).then(
      () => this._onDidChangeState.fire({ state: 'ready' }),
      (error: unknown) => {
        const failure = toFailure(error, this.options.baseUrl, this.options.apiKey);
        // Some compatible servers have no /models: reaching them at all is warm enough.
        if (failure.code === 'model-unavailable' || failure.code === 'bad-configuration' || failure.code === 'protocol-error') this._onDidChangeState.fire({ state: 'ready' });
        else this._onDidChangeState.fire({ state: failure.code === 'unauthorized' ? 'offline' : 'reconnecting', message: this.redact(failure.message) });
      },
    );
  }

  preload(): void {
    // Chat completions has no way to pre-load state; prompt caching keys on the stable prefix.
  }

  stream(request: StreamRequest, sink: StreamSink): ModelStream {
    return runModelStream({
      name: 'chat',
      request,
      sink,
      apiKey: this.options.apiKey,
      logger: this.logger,
      idleTimeoutMs: this.options.idleTimeoutMs ?? 30_000,
      disposal: this.lifetime.signal,
      retryOn: RETRY_ON,
      attempt: (context) => this.attempt(request, context),
    });
  }

  dispose(): void {
    this.lifetime.abort();
    this._onDidChangeState.dispose();
  }

  /** One request and its stream. A stop (cancel, stall, dispose) aborts the request through `context.signal`. */
  private async attempt(request: StreamRequest, context: AttemptContext): Promise<AttemptResult> {
    let delivered = false;
    /** The response headers arrived: from here on, a network error is a drop, not "could not reach". */
    let answering = false;
    let finish: string | null = null;
    try {
      const messages: OpenAI.ChatCompletionMessageParam[] = [];
      if (request.instructions !== undefined) messages.push({ role: 'system', content: request.instructions });
      for (const earlier of request.history ?? []) messages.push({ role: earlier.role, content: earlier.text });
      messages.push({ role: 'user', content: request.input });
      const pending = this.client.chat.completions.create(
        { model: request.model, messages, stream: true, stream_options: { include_usage: true } },
        { signal: context.signal },
      );
      // SSE has no socket to watch: "written" is when the request is handed to fetch.
      context.latency.written();
      context.alive();
      const stream = await pending;
      answering = true;
      // The SDK's type is a claim about the server, not a check (chat-wire.ts).
      const chunks: AsyncIterable<Unchecked<OpenAI.ChatCompletionChunk>> = stream;
      for await (const chunk of chunks) {
        context.alive();
        const reading = readChunk(chunk);
        if ('problem' in reading) return shapeErrorOf(this.logger, reading.problem);
        if (reading.text) {
          delivered = true;
          context.deliver(reading.text);
        }
        if (reading.finish) finish = reading.finish;
        if (reading.outputTokens !== undefined) context.latency.outputTokens(reading.outputTokens);
        if (reading.model !== undefined && redactKey(reading.model, this.options.apiKey) === reading.model) context.latency.answeredBy(reading.model);
      }
    } catch (error) {
      // The user sees the failure in words; the log keeps its cause (a stopped request's abort is no failure).
      if (!context.signal.aborted) this.logger.warn('chat: the request failed', error);
      const failure = toFailure(error, this.options.baseUrl, this.options.apiKey);
      if (answering && failure.code === 'unreachable') {
        return { kind: 'failed', failure: connectionDropped(hostOf(this.options.baseUrl), delivered ? 'mid-answer' : 'before-answer', this.options.apiKey) };
      }
      return { kind: 'failed', failure };
    }
    if (finish === null) return { kind: 'failed', failure: new InferenceFailure('connection-lost', 'The stream ended before the answer was complete.') };
    this._onDidChangeState.fire({ state: 'ready' });
    if (finish === 'length' || finish === 'content_filter') return { kind: 'incomplete', reason: finish.replaceAll('_', ' ') };
    return { kind: 'completed' };
  }
}

/**
 * A chunk Flint cannot read ends the answer as the server's fault: logged (what was wrong,
 * not the chunk), and not retried, since the same server would likely send the same.
 * Returning from the loop closes the request (the SDK aborts a stream left early).
 */
function shapeErrorOf(logger: Logger, problem: string): AttemptResult {
  logger.warn(`chat: the provider sent ${problem}`);
  return { kind: 'failed', failure: new InferenceFailure('protocol-error', 'The provider sent a stream Flint cannot read.') };
}

function toFailure(error: unknown, baseUrl: string, apiKey: string | null): InferenceFailure {
  if (error instanceof InferenceFailure) return error;
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new InferenceFailure('unreachable', `${hostOf(baseUrl)} did not answer in time.`);
  if (error instanceof OpenAI.APIConnectionError) return failureFromNetwork(error.cause ?? error, hostOf(baseUrl));
  if (error instanceof OpenAI.APIError) {
    // The error body is the server's JSON: any field may be missing or of another type.
    const body = error.error as Unchecked<{ message: string; code: string }> | undefined;
    const retryAfter = error.headers?.get?.('retry-after') ?? null;
    const providerMessage = stringOr(body?.message) ?? '';
    if (error.status === undefined) {
      return new InferenceFailure('server-error', `The provider reported an error mid-answer: ${quoteProvider(providerMessage || error.message, apiKey)}.`);
    }
    return failureFromStatus({ status: error.status, providerMessage, code: stringOr(body?.code) ?? stringOr(error.code), retryAfter, apiKey });
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
