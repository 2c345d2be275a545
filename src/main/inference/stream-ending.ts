/**
 * The one way out of a model stream: delivers its deltas with the key hidden, then ends
 * it exactly once, telling the sink and settling `done` with the figures.
 *
 * Whichever comes first — completion, failure, or the user's cancel — wins; later
 * attempts to end are ignored, so a late network error never overwrites "cancelled",
 * and deltas that arrive after the end are dropped.
 *
 * Every delta passes through one `KeyRedactor`, so a key split across deltas is still
 * hidden. The redactor's held tail is flushed before the end. A held tail long enough to
 * be a real piece of the key reads as the marker (`KeyRedactor.flush`): a stream that
 * stops mid-key, whichever way it ends, shows no more than a few characters of it.
 */
import { KeyRedactor, redactKey } from './key-redactor';
import type { StreamEnd, StreamFailure, StreamSink } from './model-stream';
import type { LatencyRecorder } from './latency-recorder';

export class StreamEnding {
  readonly done: Promise<StreamEnd>;
  private settle: (end: StreamEnd) => void = () => undefined;
  private ended = false;
  private readonly redactor: KeyRedactor;

  constructor(
    private readonly sink: StreamSink,
    private readonly latency: LatencyRecorder,
    /** The key to hide in deltas and the end message (null: nothing to hide). */
    private readonly apiKey: string | null,
  ) {
    this.done = new Promise<StreamEnd>((resolve) => (this.settle = resolve));
    this.redactor = new KeyRedactor(apiKey);
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Passes prose on, key hidden; a no-op once the stream has ended. */
  deliver(text: string): void {
    if (this.ended) return;
    const shown = this.redactor.push(text);
    if (shown) this.sink.onDelta(shown);
  }

  /** Ends the stream once; a throw from the sink is passed on, after onEnd was called and `done` settled. */
  end(outcome: StreamEnd['outcome'], message?: string, failure?: StreamFailure): void {
    if (this.ended) return;
    this.ended = true;
    const result: StreamEnd = {
      outcome,
      latency: this.latency.figures(),
      ...(message !== undefined ? { message: redactKey(message, this.apiKey) } : {}),
      ...(failure !== undefined ? { failure } : {}),
    };
    try {
      const tail = this.redactor.flush();
      if (tail) this.sink.onDelta(tail);
    } finally {
      // A sink that threw on the tail still hears the end: else its answer stays "streaming".
      try {
        this.sink.onEnd(result);
      } finally {
        this.settle(result);
      }
    }
  }
}
