/**
 * "Test connection": one tiny request to a provider, its outcome in plain words.
 */
import { performance } from 'node:perf_hooks';
import type { ConnectionTestResult, LatencyFigures, ProviderConfig } from '../../shared/inference-types';
import type { InferenceProvider } from './model-stream';

const TEST_PROMPT = 'Reply with the single word: ready';
const TEST_TIMEOUT_MS = 20_000;

/**
 * Asks `provider` for one word with the provider's fast model; `onMeasure` gets the figures.
 * A refused model is worded by `describeFailure` (it names the model and what to do).
 */
export async function runConnectionTest(
  provider: InferenceProvider,
  config: ProviderConfig,
  onMeasure: (figures: LatencyFigures) => void,
  describeFailure: (code: string | undefined, message: string | undefined) => string,
): Promise<ConnectionTestResult> {
  const keypressAt = performance.now();
  const stream = provider.stream({ model: config.model, input: TEST_PROMPT, keypressAt }, { onDelta: () => undefined, onEnd: () => undefined });
  const timer = setTimeout(() => stream.cancel(), TEST_TIMEOUT_MS);
  const end = await stream.done;
  clearTimeout(timer);
  onMeasure(end.latency);
  if (end.outcome === 'completed') {
    const first = end.latency.requestToFirstDeltaMs;
    return { ok: true, message: `Connected to ${config.model}${first !== null ? ` — first token in ${Math.round(first)} ms` : ''}.`, latency: end.latency };
  }
  const message = end.outcome === 'cancelled' ? `No answer within ${TEST_TIMEOUT_MS / 1000} s.` : describeFailure(end.failure?.code, end.message);
  return { ok: false, message, latency: end.latency };
}
