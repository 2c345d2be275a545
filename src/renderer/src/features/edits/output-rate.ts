/**
 * The model's output rate on screen: main measures it (output-meter.ts: an estimate while a
 * turn streams, the request's figure once it ended) and sends it with the batches; this keeps
 * the latest outside React state, so a batch that brings only lines and a rate re-renders the
 * one figure, not the pane.
 */
import type { AnswerUpdate, OutputRate, TurnView } from '../../../../shared/ask-types';

export class OutputRateStore {
  private rate: OutputRate | null = null;
  private readonly listeners = new Set<() => void>();

  /** The latest rate of the conversation on screen, or null. */
  readonly current = (): OutputRate | null => this.rate;

  /** Calls `listener` after each change; returns the unsubscribe function. */
  readonly onDidChange = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Takes the rate a batch of the conversation on screen brings, if any. */
  take(update: AnswerUpdate): void {
    if (update.rate) this.set({ ...update.rate });
  }

  /** Another conversation is on screen (a rate is never kept: a loaded one has none). */
  clear(): void {
    if (this.rate !== null) this.set(null);
  }

  private set(rate: OutputRate | null): void {
    this.rate = rate;
    for (const listener of [...this.listeners]) listener();
  }
}

/** As toLocaleString() writes numbers, made once: toLocaleString builds a formatter per call, and this runs per batch. */
const NUMBER = new Intl.NumberFormat();

/**
 * The pane's figure: "≈ 25 tok/s" while the latest turn streams, "25 tok/s" once measured;
 * none for an earlier turn's rate (a follow-up has not started to stream yet) or too short a stream.
 */
export function rateFigure(rate: OutputRate | null, turns: readonly Pick<TurnView, 'index' | 'status'>[]): string | null {
  const latest = turns.findLast((turn) => turn.status !== 'queued');
  if (!rate || rate.turn !== latest?.index || rate.tokensPerSecond === null) return null;
  const figure = `${NUMBER.format(rate.tokensPerSecond)} tok/s`;
  return rate.measured ? figure : `≈ ${figure}`;
}
