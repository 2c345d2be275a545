/**
 * Timestamps of one request, turned into the HUD's figures.
 */
import { performance } from 'node:perf_hooks';
import type { LatencyFigures } from '../../shared/inference-types';

export class LatencyRecorder {
  private writtenAt: number | null = null;
  private firstDeltaAt: number | null = null;
  private lastDeltaAt: number | null = null;
  private deltaCount = 0;
  private reportedTokens: number | null = null;
  /** The model the provider says answered (an alias resolves to a dated name, a router picks one). */
  private answered: string | null = null;

  constructor(
    readonly model: string,
    private readonly keypressAt: number = performance.now(),
  ) {}

  /** Request bytes handed to the OS (or the HTTP client). A retry keeps the first figure. */
  written(at: number = performance.now()): void {
    this.writtenAt ??= at;
  }

  delta(at: number = performance.now()): void {
    this.firstDeltaAt ??= at;
    this.lastDeltaAt = at;
    this.deltaCount += 1;
  }

  /**
   * The model the provider reports in its answer. Names only (at most 200 visible
   * characters): a hostile server's long or odd text is not shown. The caller has checked
   * that it holds no key.
   */
  answeredBy(model: string): void {
    const name = model.trim();
    if (/^[\x21-\x7e]{1,200}$/.test(name)) this.answered = name;
  }

  /** The provider's own token count (usage), when it sends one. */
  outputTokens(count: number): void {
    this.reportedTokens = count;
  }

  figures(endedAt: number = performance.now()): LatencyFigures {
    const tokens = this.reportedTokens ?? this.deltaCount;
    const streamSeconds = this.firstDeltaAt !== null && this.lastDeltaAt !== null ? (this.lastDeltaAt - this.firstDeltaAt) / 1000 : 0;
    return {
      model: this.answered ?? this.model,
      keypressToWriteMs: round(this.writtenAt === null ? endedAt - this.keypressAt : this.writtenAt - this.keypressAt),
      requestToFirstDeltaMs: this.writtenAt !== null && this.firstDeltaAt !== null ? round(this.firstDeltaAt - this.writtenAt) : null,
      tokensPerSecond: streamSeconds > 0 && tokens > 1 ? Math.round(tokens / streamSeconds) : null,
      totalMs: round(endedAt - this.keypressAt),
      outputTokens: tokens,
    };
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
