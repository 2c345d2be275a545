import { describe, expect, it } from 'vitest';
import type { AnswerUpdate, TurnView } from '../../../../shared/ask-types';
import { OutputRateStore, rateFigure } from './output-rate';

const turns = (...statuses: TurnView['status'][]) => statuses.map((status, position) => ({ index: position + 1, status }));
const update = (rate: AnswerUpdate['rate']): AnswerUpdate => ({ sessionId: 's', hunks: [], ...(rate ? { rate } : {}) });

describe('rateFigure', () => {
  it('shows the model’s estimated rate while the latest turn streams, and its measured rate once it ended', () => {
    expect(rateFigure({ turn: 1, tokensPerSecond: 25, measured: false }, turns('streaming'))).toBe('≈ 25 tok/s');
    expect(rateFigure({ turn: 1, tokensPerSecond: 980, measured: true }, turns('complete'))).toBe('980 tok/s');
  });

  it('shows nothing for an earlier turn’s rate, a stream too short to measure, or no rate', () => {
    expect(rateFigure({ turn: 1, tokensPerSecond: 25, measured: true }, turns('complete', 'streaming'))).toBeNull();
    expect(rateFigure({ turn: 1, tokensPerSecond: null, measured: true }, turns('complete'))).toBeNull();
    expect(rateFigure(null, turns('streaming'))).toBeNull();
    // A queued message has not gone out: the turn streaming before it is the latest.
    expect(rateFigure({ turn: 1, tokensPerSecond: 30, measured: false }, turns('streaming', 'queued'))).toBe('≈ 30 tok/s');
  });
});

describe('OutputRateStore', () => {
  it('keeps the latest rate batches bring, tells its listener, and forgets it for another conversation', () => {
    const store = new OutputRateStore();
    let changes = 0;
    store.onDidChange(() => (changes += 1));
    store.take(update({ turn: 1, tokensPerSecond: 28, measured: false }));
    store.take(update(undefined));
    store.take(update({ turn: 1, tokensPerSecond: 25, measured: true }));
    expect(store.current()).toEqual({ turn: 1, tokensPerSecond: 25, measured: true });
    expect(changes).toBe(2);
    store.clear();
    store.clear();
    expect(store.current()).toBeNull();
    expect(changes).toBe(3);
  });
});
