import { describe, expect, it } from 'vitest';
import type { RawChange } from './folder-watches';
import { SettlingChanges, type SettleClock } from './settling-changes';

/** A clock moved by hand: timers run when `advance` passes their time. */
function manualClock(): SettleClock & { advance(ms: number): void } {
  let now = 0;
  let timers: { at: number; callback: () => void }[] = [];
  return {
    now: () => now,
    setTimeout: (callback, ms) => {
      const timer = { at: now + ms, callback };
      timers.push(timer);
      return timer;
    },
    clearTimeout: (timer) => void (timers = timers.filter((candidate) => candidate !== timer)),
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const next = timers.filter((timer) => timer.at <= until).sort((a, b) => a.at - b.at)[0];
        if (!next) break;
        timers = timers.filter((timer) => timer !== next);
        now = next.at;
        next.callback();
      }
      now = until;
    },
  };
}

describe('SettlingChanges', () => {
  const setup = () => {
    const clock = manualClock();
    const batches: RawChange[][] = [];
    const settling = new SettlingChanges((batch) => batches.push(batch), 25, 100, clock);
    return { clock, batches, settling };
  };

  it('passes a burst of events for one path on once, when nothing was heard for the quiet time', () => {
    const { clock, batches, settling } = setup();
    settling.hear({ type: 'change', path: 'a.ts' });
    clock.advance(10);
    settling.hear({ type: 'change', path: 'a.ts' });
    clock.advance(20);
    expect(batches).toEqual([]);
    clock.advance(5);
    expect(batches).toEqual([[{ type: 'change', path: 'a.ts' }]]);
  });

  it('makes two different words for one path a touch, and keeps the order paths were first heard in', () => {
    const { clock, batches, settling } = setup();
    settling.hear({ type: 'touch', path: 'b.ts' });
    settling.hear({ type: 'change', path: 'a.ts' });
    settling.hear({ type: 'unlink', path: 'a.ts' });
    settling.hear({ type: 'touch', path: 'b.ts' });
    clock.advance(25);
    expect(batches).toEqual([[{ type: 'touch', path: 'b.ts' }, { type: 'touch', path: 'a.ts' }]]);
  });

  it('lets a storm wait no longer than the longest wait, then starts a new batch', () => {
    const { clock, batches, settling } = setup();
    for (let at = 0; at < 150; at += 10) {
      settling.hear({ type: 'touch', path: `f${at}.ts` });
      clock.advance(10);
    }
    expect(batches[0]).toHaveLength(10);
    clock.advance(25);
    expect(batches.flat()).toHaveLength(15);
    expect(batches).toHaveLength(2);
  });

  it('passes nothing on after it is disposed', () => {
    const { clock, batches, settling } = setup();
    settling.hear({ type: 'touch', path: 'a.ts' });
    settling.dispose();
    clock.advance(1000);
    expect(batches).toEqual([]);
  });
});
