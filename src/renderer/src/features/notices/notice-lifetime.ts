/**
 * How long a plain confirmation stays: NOTICE_LIFETIME_MS of being seen, the clock paused
 * while the pointer rests on it or focus is inside it (someone is reading it, or about to
 * press its Dismiss), and running again once they leave.
 *
 * Pure and explicit: a small state machine over an injected clock, so the rules are tested
 * without waiting; the Notices component sets one timer for what is left.
 */

/** About the time it takes to read a sentence twice. */
export const NOTICE_LIFETIME_MS = 8_000;

export type NoticeClock =
  /** Counting down since `since` with `leftMs` left then. */
  | { state: 'running'; since: number; leftMs: number }
  /** Held (hovered or focused) with `leftMs` left; `holders` says who holds it. */
  | { state: 'held'; leftMs: number; holders: ReadonlySet<Holder> }
  /** Its time is up: the notice goes. */
  | { state: 'expired' };

/** What can hold a notice open. */
export type Holder = 'pointer' | 'focus';

export type NoticeClockEvent = { type: 'hold'; by: Holder } | { type: 'release'; by: Holder } | { type: 'tick' };

export function startClock(now: number, lifetimeMs = NOTICE_LIFETIME_MS): NoticeClock {
  return { state: 'running', since: now, leftMs: lifetimeMs };
}

/** The time left at `now` (0 once expired). */
export function timeLeft(clock: NoticeClock, now: number): number {
  if (clock.state === 'expired') return 0;
  if (clock.state === 'held') return clock.leftMs;
  return Math.max(0, clock.leftMs - (now - clock.since));
}

/** Where `event` at `now` takes `clock`. */
export function nextClock(clock: NoticeClock, event: NoticeClockEvent, now: number): NoticeClock {
  if (clock.state === 'expired') return clock;
  const left = timeLeft(clock, now);
  switch (event.type) {
    case 'tick':
      return clock.state === 'running' && left === 0 ? { state: 'expired' } : clock;
    case 'hold': {
      const holders = new Set(clock.state === 'held' ? clock.holders : []);
      holders.add(event.by);
      // Held at the last moment, it still gets a moment to be read once let go.
      return { state: 'held', leftMs: left, holders };
    }
    case 'release': {
      if (clock.state !== 'held') return clock;
      const holders = new Set(clock.holders);
      holders.delete(event.by);
      if (holders.size > 0) return { state: 'held', leftMs: clock.leftMs, holders };
      return { state: 'running', since: now, leftMs: Math.max(clock.leftMs, MIN_AFTER_RELEASE_MS) };
    }
    default: {
      const exhaustive: never = event;
      return exhaustive;
    }
  }
}

/** Let go, a notice stays at least this long: the pointer leaving is not a dismissal. */
const MIN_AFTER_RELEASE_MS = 2_000;
