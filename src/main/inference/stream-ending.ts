/**
 * Ends a model stream exactly once: tells the sink and settles `done` with the figures.
 *
 * Whichever comes first — completion, failure, or the user's cancel — wins; later
 * attempts to end are ignored, so a late network error never overwrites "cancelled".
 */
import type { StreamEnd, StreamSink } from './model-stream';
import type { LatencyRecorder } from './latency-recorder';

export class StreamEnding {
  readonly done: Promise<StreamEnd>;
  private settle: (end: StreamEnd) => void = () => undefined;
  private ended = false;

  constructor(
    private readonly sink: StreamSink,
    private readonly latency: LatencyRecorder,
    /** Scrubs messages before anyone sees them (the key must never be shown). */
    private readonly redact: (text: string) => string = (text) => text,
  ) {
    this.done = new Promise<StreamEnd>((resolve) => (this.settle = resolve));
  }

  get isEnded(): boolean {
    return this.ended;
  }

  end(outcome: StreamEnd['outcome'], message?: string): void {
    if (this.ended) return;
    this.ended = true;
    const result: StreamEnd = { outcome, latency: this.latency.figures(), ...(message !== undefined ? { message: this.redact(message) } : {}) };
    try {
      this.sink.onEnd(result);
    } finally {
      this.settle(result);
    }
  }
}
