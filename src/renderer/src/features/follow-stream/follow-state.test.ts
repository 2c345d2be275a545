import { describe, expect, it } from 'vitest';
import { EDGE_PX, INITIAL_FOLLOW_STATE, TOLERANCE_PX, followStep, showsNewTextControl, type FollowEvent, type FollowState, type ScrollBox } from './follow-state';

const VIEWPORT = 300;
const box = (top: number, height: number): ScrollBox => ({ top, height, viewport: VIEWPORT });
/** Scrolled to the very bottom of content `height` tall. */
const atBottom = (height: number): ScrollBox => box(height - VIEWPORT, height);

/** Runs events from `state`, returning the last step and every scrollTo asked for. */
function run(state: FollowState, ...events: FollowEvent[]) {
  const scrolls: Array<number | null> = [];
  for (const event of events) {
    const step = followStep(state, event);
    state = step.state;
    scrolls.push(step.scrollTo);
  }
  return { state, scrolls };
}

const following: FollowState = { mode: 'following', top: 700, height: 1000 };
const reading: FollowState = { mode: 'reading', top: 200, height: 1000 };
const behind: FollowState = { mode: 'behind', top: 200, height: 1200 };

describe('following the stream', () => {
  it('starts following, and content that grows scrolls to its new bottom', () => {
    const { state, scrolls } = run(INITIAL_FOLLOW_STATE, { type: 'resized', box: box(0, 1000) }, { type: 'resized', box: box(700, 1400) });
    expect(scrolls).toEqual([700, 1100]);
    expect(state).toEqual({ mode: 'following', top: 1100, height: 1400 });
  });

  it('asks for no scroll when the view is already at the bottom, or the content fits', () => {
    expect(followStep(following, { type: 'resized', box: atBottom(1000) }).scrollTo).toBeNull();
    expect(followStep(following, { type: 'resized', box: box(0, 200) })).toEqual({ state: { mode: 'following', top: 0, height: 200 }, scrollTo: null });
  });

  it('keeps following through its own scrolls, even when the content grew again before the scroll event came', () => {
    // Flint scrolled to 700; the content grew 200 px before that scroll's event arrived.
    const step = followStep({ ...following, top: 700 }, { type: 'scrolled', box: box(700, 1200) });
    expect(step.state.mode).toBe('following');
  });

  it('keeps following when shrinking content pulls the view up to the new bottom', () => {
    expect(followStep(following, { type: 'scrolled', box: atBottom(900) }).state.mode).toBe('following');
  });

  it('scrolls to the bottom when the view gets shorter while following', () => {
    expect(followStep(following, { type: 'resized', box: { top: 700, height: 1000, viewport: 200 } }).scrollTo).toBe(800);
  });
});

describe('the user scrolls away', () => {
  it('stops following on any move up that leaves the bottom (a wheel, a key, a drag)', () => {
    for (const up of [EDGE_PX + 1, 40, 600]) {
      const { state } = run(following, { type: 'scrolled', box: box(700 - up, 1000) });
      expect(state.mode, `up ${up}px`).toBe('reading');
      expect(showsNewTextControl(state)).toBe(false);
    }
  });

  it('stays where the user put it as content grows, and shows the control', () => {
    const { state, scrolls } = run(following, { type: 'scrolled', box: box(400, 1000) }, { type: 'resized', box: box(400, 1100) }, { type: 'resized', box: box(400, 1300) });
    expect(scrolls).toEqual([null, null, null]);
    expect(state.mode).toBe('behind');
    expect(showsNewTextControl(state)).toBe(true);
  });

  it('shows no control for a change that brought nothing new (a narrower view, a folded card)', () => {
    expect(followStep(reading, { type: 'resized', box: box(200, 1000) }).state.mode).toBe('reading');
    expect(followStep(reading, { type: 'resized', box: box(200, 800) }).state.mode).toBe('reading');
  });

  it('detects a move up made between Flint’s scroll and its event (the two arrive as one)', () => {
    // Flint set 1100 after growth; the user wheeled up 50 px before the scroll event.
    const { state } = run(following, { type: 'resized', box: box(700, 1400) }, { type: 'scrolled', box: box(1050, 1400) });
    expect(state.mode).toBe('reading');
  });

  it('stays behind while the user keeps reading, up or down', () => {
    expect(run(behind, { type: 'scrolled', box: box(100, 1200) }).state.mode).toBe('behind');
    expect(run(behind, { type: 'scrolled', box: box(500, 1200) }).state.mode).toBe('behind');
  });
});

describe('coming back', () => {
  it('follows again when the user scrolls down to the bottom, or nearly', () => {
    expect(followStep(behind, { type: 'scrolled', box: atBottom(1200) }).state.mode).toBe('following');
    expect(followStep(behind, { type: 'scrolled', box: box(900 - TOLERANCE_PX, 1200) }).state.mode).toBe('following');
    expect(followStep(behind, { type: 'scrolled', box: box(900 - TOLERANCE_PX - 1, 1200) }).state.mode).toBe('behind');
  });

  it('does not count a small move up as coming back, though it ends within the tolerance', () => {
    expect(followStep(following, { type: 'scrolled', box: box(700 - 10, 1000) }).state.mode).toBe('reading');
  });

  it('follows again when the content shrinks under a user near the bottom, pulling the view to the new bottom', () => {
    expect(followStep({ mode: 'behind', top: 650, height: 1000 }, { type: 'scrolled', box: atBottom(800) }).state.mode).toBe('following');
  });

  it('follows again when the content fits the view', () => {
    expect(followStep(behind, { type: 'resized', box: box(0, 250) }).state.mode).toBe('following');
  });

  it('jumps to the bottom and follows on the control or a message sent, from any mode', () => {
    for (const state of [following, reading, behind]) {
      const step = followStep({ ...state, top: 100 }, { type: 'jump', box: box(100, 1500) });
      expect(step).toEqual({ state: { mode: 'following', top: 1200, height: 1500 }, scrollTo: 1200 });
      // Its own scroll event then keeps it following, and growth scrolls again.
      const after = run(step.state, { type: 'scrolled', box: box(1200, 1500) }, { type: 'resized', box: box(1200, 1600) });
      expect(after.state.mode).toBe('following');
      expect(after.scrolls).toEqual([null, 1300]);
    }
  });
});

describe('a view with room below its text (follow-room.ts)', () => {
  /** At the bottom of `height` px, of which `room` px are room. */
  const roomy = (height: number, room: number): ScrollBox => ({ ...atBottom(height), room });

  it('lets new text fill the room without scrolling, and scrolls once the text passes the view’s bottom', () => {
    const start: FollowState = { mode: 'following', top: 700, height: 850 };
    const filling = run(start, { type: 'resized', box: roomy(1000, 100) }, { type: 'resized', box: roomy(1000, 0) });
    expect(filling.scrolls).toEqual([null, null]);
    expect(filling.state).toEqual({ mode: 'following', top: 700, height: 1000 });
    // The text passed the bottom: main made a new room, and the view goes to the new bottom.
    expect(followStep(filling.state, { type: 'resized', box: { top: 700, height: 1160, viewport: VIEWPORT, room: 150 } }).scrollTo).toBe(860);
  });

  it('moves a following view that its shrinking content left past the bottom to the new bottom itself, so the clamp reads as its own move', () => {
    const step = followStep({ mode: 'following', top: 700, height: 1000 }, { type: 'resized', box: { top: 700, height: 900, viewport: VIEWPORT, room: 100 } });
    expect(step).toEqual({ state: { mode: 'following', top: 600, height: 800 }, scrollTo: 600 });
    // Its scroll event comes once more text arrived: no move up, so still following.
    expect(followStep(step.state, { type: 'scrolled', box: box(600, 960) }).state.mode).toBe('following');
  });

  it('moves a view whose content shrank to fit to the top itself, so the clamp, arriving after more text, reads as its own move', () => {
    const step = followStep({ mode: 'following', top: 188, height: 850 }, { type: 'resized', box: { top: 188, height: VIEWPORT, viewport: VIEWPORT } });
    expect(step).toEqual({ state: { mode: 'following', top: 0, height: VIEWPORT }, scrollTo: 0 });
    expect(followStep(step.state, { type: 'scrolled', box: box(0, VIEWPORT + 37) }).state.mode).toBe('following');
  });

  it('remembers where the browser pulled a staying view up to the bottom of content that shrank, so that scroll is not a move up', () => {
    // Text shrank by 50 px under a view at the bottom: Chromium pulled it up before the resize was reported.
    const step = followStep(following, { type: 'resized', box: { top: 650, height: 950, viewport: VIEWPORT, room: 50 } });
    expect(step).toEqual({ state: { mode: 'following', top: 650, height: 900 }, scrollTo: null });
    // Its scroll event comes once more text arrived.
    expect(followStep(step.state, { type: 'scrolled', box: { top: 650, height: 950, viewport: VIEWPORT, room: 10 } }).state.mode).toBe('following');
  });

  it('remembers the pull-up even when the room then grew back what shrank (text above the room, 19 px shorter)', () => {
    // At the bottom of 1,000 px (100 of them room), something outside the room shrank by 19: Chromium pulled the view up
    // to 681; the room then took the 19 px back (1,000 again), which leaves the view 19 px above the bottom, still following.
    const step = followStep({ mode: 'following', top: 700, height: 900 }, { type: 'resized', box: { top: 681, height: 1000, viewport: VIEWPORT, room: 119, measuredHeight: 981 } });
    expect(step).toEqual({ state: { mode: 'following', top: 681, height: 881 }, scrollTo: null });
    expect(followStep(step.state, { type: 'scrolled', box: { top: 681, height: 1000, viewport: VIEWPORT, room: 119 } }).state.mode).toBe('following');
  });

  it('still reads a user’s move up whose scroll event comes after a resize', () => {
    const step = followStep(following, { type: 'resized', box: { top: 600, height: 1000, viewport: VIEWPORT, room: 150 } });
    expect(step.state.top).toBe(700);
    expect(followStep(step.state, { type: 'scrolled', box: { top: 600, height: 1000, viewport: VIEWPORT, room: 150 } }).state.mode).toBe('reading');
  });

  it('follows again when the user scrolls back down to the newest text, the room below it unseen', () => {
    expect(followStep(behind, { type: 'scrolled', box: { top: 700, height: 1200, viewport: VIEWPORT, room: 200 } }).state.mode).toBe('following');
    expect(followStep(behind, { type: 'scrolled', box: { top: 650, height: 1200, viewport: VIEWPORT, room: 200 } }).state.mode).toBe('behind');
  });

  it('counts text that grew into the room as new text for a user scrolled up', () => {
    const { state } = run(reading, { type: 'resized', box: { top: 200, height: 1150, viewport: VIEWPORT, room: 100 } });
    expect(state.mode).toBe('behind');
    expect(followStep(reading, { type: 'resized', box: { top: 200, height: 1150, viewport: VIEWPORT, room: 150 } }).state.mode).toBe('reading');
  });
});

describe('any interleaving', () => {
  it('never scrolls on its own while the user is away, and shows the control only when away', () => {
    // A seeded walk over random events: growth, user scrolls anywhere, Flint's own scroll events.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let state = INITIAL_FOLLOW_STATE;
    let height = 400;
    let top = 0;
    for (let index = 0; index < 5_000; index += 1) {
      const roll = random();
      const before = state;
      let event: FollowEvent;
      if (roll < 0.5) {
        height += Math.floor(random() * 60);
        event = { type: 'resized', box: box(top, height) };
      } else if (roll < 0.95) {
        top = Math.floor(random() * (height - VIEWPORT + 1));
        event = { type: 'scrolled', box: box(top, height) };
      } else event = { type: 'jump', box: box(top, height) };
      const step = followStep(state, event);
      if (step.scrollTo !== null) {
        expect(before.mode === 'following' || event.type === 'jump').toBe(true);
        top = step.scrollTo;
        expect(top).toBe(height - VIEWPORT);
      }
      state = step.state;
      if (showsNewTextControl(state)) expect(height - top - VIEWPORT).toBeGreaterThan(EDGE_PX);
    }
  });
});
