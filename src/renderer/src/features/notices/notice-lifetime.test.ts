import { describe, expect, it } from 'vitest';
import { NOTICE_LIFETIME_MS, nextClock, startClock, timeLeft, type NoticeClock, type NoticeClockEvent } from './notice-lifetime';

/** Runs `events` (each at its time) from a clock started at 0. */
function run(...events: Array<[number, NoticeClockEvent]>): NoticeClock {
  return events.reduce((clock, [at, event]) => nextClock(clock, event, at), startClock(0));
}

describe('the notice clock', () => {
  it('expires a confirmation about 8 s after it appears, not before', () => {
    expect(NOTICE_LIFETIME_MS).toBe(8_000);
    expect(run([7_999, { type: 'tick' }]).state).toBe('running');
    expect(run([8_000, { type: 'tick' }]).state).toBe('expired');
  });

  it('stops counting while the pointer rests on it, and goes on from there when it leaves', () => {
    const held = run([3_000, { type: 'hold', by: 'pointer' }]);
    expect(timeLeft(held, 60_000)).toBe(5_000);
    const released = nextClock(held, { type: 'release', by: 'pointer' }, 60_000);
    expect(nextClock(released, { type: 'tick' }, 64_999).state).toBe('running');
    expect(nextClock(released, { type: 'tick' }, 65_000).state).toBe('expired');
  });

  it('stays held while focus is inside it, even after the pointer left', () => {
    const clock = run([1_000, { type: 'hold', by: 'pointer' }], [1_500, { type: 'hold', by: 'focus' }], [2_000, { type: 'release', by: 'pointer' }], [90_000, { type: 'tick' }]);
    expect(clock.state).toBe('held');
  });

  it('gives a notice let go at its last moment a little time to be read', () => {
    const clock = run([7_990, { type: 'hold', by: 'pointer' }], [20_000, { type: 'release', by: 'pointer' }]);
    expect(timeLeft(clock, 20_000)).toBe(2_000);
  });

  it('stays expired whatever comes after', () => {
    const expired = run([9_000, { type: 'tick' }]);
    expect(nextClock(expired, { type: 'hold', by: 'focus' }, 9_100).state).toBe('expired');
  });
});
