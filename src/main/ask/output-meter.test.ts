import { describe, expect, it } from 'vitest';
import type { OutputRate } from '../../shared/ask-types';
import type { LatencyFigures } from '../../shared/inference-types';
import type { StreamEnd, StreamSink } from '../inference/model-stream';
import { DELTAS_PER_FIGURE, meteredSink } from './output-meter';

const figures = (tokensPerSecond: number | null): LatencyFigures => ({ keypressToWriteMs: 1, requestToFirstDeltaMs: 10_000, tokensPerSecond, totalMs: 14_000, outputTokens: 100, model: 'test' });

/** A metered sink on a clock the test moves, and what it reported and passed on. */
function metered() {
  const clock = { now: 0 };
  const rates: Array<Omit<OutputRate, 'turn'>> = [];
  const received: string[] = [];
  const ends: StreamEnd[] = [];
  const inner: StreamSink = { onDelta: (text) => received.push(text), onEnd: (end) => ends.push(end) };
  const sink = meteredSink(inner, (rate) => rates.push(rate), () => clock.now);
  return { clock, rates, received, ends, sink };
}

describe('meteredSink', () => {
  it('reports the model’s rate while it streams, from its first delta on, however long the model took to start', () => {
    const { clock, rates, received, sink } = metered();
    // Ten seconds before the first token (a deep model thinking), then 25 tokens a second: one 4-byte token every 40 ms for 4 s.
    clock.now = 10_000;
    for (let index = 0; index <= 100; index += 1) {
      clock.now = 10_000 + index * 40;
      sink.onDelta(index % 2 === 0 ? 'abcd' : ' x()');
    }
    expect(received).toHaveLength(101);
    // 101 tokens over 4 s.
    expect(rates.at(-1)).toEqual({ tokensPerSecond: 25, measured: false });
    expect(rates.every((rate) => !rate.measured && rate.tokensPerSecond! >= 25 && rate.tokensPerSecond! <= 30)).toBe(true);
  });

  it('gives no figure until the deltas span a quarter of a second, and counts bytes, not characters', () => {
    const { clock, rates, sink } = metered();
    sink.onDelta('éé');
    clock.now = 100;
    sink.onDelta('éé');
    expect(rates).toEqual([]);
    clock.now = 500;
    sink.onDelta('éé');
    // 12 bytes: 3 tokens over half a second.
    expect(rates).toEqual([{ tokensPerSecond: 6, measured: false }]);
  });

  it('ends with the request’s measured figure, the HUD’s, or none for a stream too short to measure', () => {
    const { clock, rates, ends, sink } = metered();
    sink.onDelta('abcd');
    clock.now = 1000;
    sink.onDelta('abcd'.repeat(30));
    sink.onEnd({ outcome: 'completed', latency: figures(24) });
    expect(ends).toHaveLength(1);
    expect(rates).toEqual([
      { tokensPerSecond: 31, measured: false },
      { tokensPerSecond: 24, measured: true },
    ]);
    const short = metered();
    short.sink.onDelta('Done.');
    short.sink.onEnd({ outcome: 'completed', latency: figures(null) });
    expect(short.rates).toEqual([{ tokensPerSecond: null, measured: true }]);
  });

  it('reads the clock with each of a stream’s first DELTAS_PER_FIGURE deltas, then every DELTAS_PER_FIGURE-th, figure or not', () => {
    let reads = 0;
    let clock = 0;
    const rates: Array<Omit<OutputRate, 'turn'>> = [];
    const sink = meteredSink({ onDelta: () => undefined, onEnd: () => undefined }, (rate) => rates.push(rate), () => ((reads += 1), (clock += 100)));
    // The clock moves 100 ms a read: the span reaches a quarter of a second at the fourth delta.
    for (let index = 0; index < 5 * DELTAS_PER_FIGURE; index += 1) sink.onDelta('abcd');
    expect(reads).toBe(DELTAS_PER_FIGURE + 4);
    expect(rates).toHaveLength(DELTAS_PER_FIGURE - 3 + 4);
    // A fast stream (its deltas a millisecond apart) has read the clock as often, with no figure yet.
    const fast = meteredSink({ onDelta: () => undefined, onEnd: () => undefined }, () => undefined, () => ((reads += 1), 0));
    reads = 0;
    for (let index = 0; index < 5 * DELTAS_PER_FIGURE; index += 1) fast.onDelta('abcd');
    expect(reads).toBe(DELTAS_PER_FIGURE + 4);
  });
});
