/**
 * The model's output rate as a turn streams, for the pane's "tok/s".
 *
 * Measured like the latency HUD's figure (inference/latency-recorder.ts): output tokens over
 * the time from the first delta to the latest — never from the question, which would count
 * the model's time to first token (a deep model thinking for ten seconds before 2 s of
 * output read as an eighth of its rate). While streaming, the provider has not said how
 * many tokens it sent, so they are estimated from the text received: about 4 bytes a token
 * (o200k_base, which OpenAI's models use, averages 3.8–4.1 on code and English prose, and
 * the tokenizers of Llama, Qwen and Mistral about 3.5–4). Once the stream ends, the figure
 * is the request's measured one, as the HUD shows it.
 */
import { performance } from 'node:perf_hooks';
import type { OutputRate } from '../../shared/ask-types';
import { utf8Length } from '../context/token-counter';
import type { StreamSink } from '../inference/model-stream';

/** Bytes of output text per token, for the estimate while streaming. */
export const BYTES_PER_TOKEN = 4;
/** Deltas closer together than this give no rate yet: two deltas a millisecond apart say nothing. */
export const MIN_SPAN_MS = 250;

/**
 * After its first few deltas, a stream's rate is worked out every this many deltas, not with
 * each: the pane shows one figure per frame at most, and reading the clock costs as much as
 * parsing a delta (a system call, on some machines).
 */
export const DELTAS_PER_FIGURE = 8;

/** Wraps a turn's sink: deltas report the estimated rate so far (once measurable; each of the first DELTAS_PER_FIGURE deltas, then every DELTAS_PER_FIGURE-th), the end the measured one. */
export function meteredSink(sink: StreamSink, report: (rate: Omit<OutputRate, 'turn'>) => void, now: () => number = () => performance.now()): StreamSink {
  let bytes = 0;
  let deltas = 0;
  let firstAt: number | null = null;
  return {
    onDelta: (text) => {
      bytes += utf8Length(text);
      deltas += 1;
      if (deltas <= DELTAS_PER_FIGURE || deltas % DELTAS_PER_FIGURE === 0) {
        const at = now();
        firstAt ??= at;
        const spanMs = at - firstAt;
        if (spanMs >= MIN_SPAN_MS) report({ tokensPerSecond: Math.round(bytes / BYTES_PER_TOKEN / (spanMs / 1000)), measured: false });
      }
      sink.onDelta(text);
    },
    onEnd: (end) => {
      sink.onEnd(end);
      report({ tokensPerSecond: end.latency.tokensPerSecond, measured: true });
    },
  };
}
