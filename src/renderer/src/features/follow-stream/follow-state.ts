/**
 * Whether a scrolling view follows the newest text, as terminals and chat apps do: a pure
 * state machine fed what the view measured, answering where (if anywhere) to scroll.
 *
 * States (`FollowMode`):
 * - following: at the bottom; content that grows keeps it at the new bottom.
 * - reading:   the user scrolled up; nothing arrived below since. The view stays put.
 * - behind:    the user scrolled up and content arrived below since: the "New text below"
 *              control shows. The view stays put.
 *
 * Transitions:
 * | event                                                  | following    | reading   | behind    |
 * | ------------------------------------------------------ | ------------ | --------- | --------- |
 * | scrolled up, ending away from the bottom               | reading      | reading   | behind    |
 * | scrolled up to the very bottom (content shrank)        | following    | following | following |
 * | scrolled down (or not moved), within TOLERANCE of it   | following    | following | following |
 * |   or of the text's end (the room below it aside)       |              |           |           |
 * | scrolled down, further away than that                  | following    | reading   | behind    |
 * | resized, content fits (nothing to scroll)              | following    | following | following |
 * | resized, text grew                                     | following ⤓  | behind    | behind    |
 * | resized, otherwise (narrower, shorter)                 | following ⤓  | reading   | behind    |
 * | jump: the control, or the user sent a message          | following ⤓  | following ⤓ | following ⤓ |
 * (⤓: scroll to the bottom, if not there already; on a resize, only once the text's end has
 * left the view — a view with room below its text (follow-room.ts) lets it fill the room —
 * or the view is past the bottom, its content having shrunk.)
 *
 * Why "scrolled up" is the user's intent: Flint's own scrolls only go down, and content
 * that grows leaves scrollTop alone. Content that shrinks can pull scrollTop up, but only
 * as far as the new bottom — which counts as at the bottom. So a wheel, a key, a drag of
 * the scroll bar or a review key bringing a card above into view all read as "scrolled up",
 * and no race between growth and Flint's scroll does. Leaving the bottom needs only
 * EDGE_PX (any deliberate move up), coming back counts within TOLERANCE_PX (a near miss
 * scrolling down): leaving and coming back differ, so the two never flicker.
 */

/** What the view measured: scrollTop, scrollHeight, clientHeight (px). */
export interface ScrollBox {
  top: number;
  height: number;
  viewport: number;
  /** How much of `height` is room below the text (follow-room.ts), not text; none if absent. */
  room?: number;
  /** scrollHeight as measured, before the room was sized for it (`height` is after): where the browser may just have pulled the view up to. */
  measuredHeight?: number;
}

/** Where the view stands (see the table above). */
export type FollowMode =
  /** At the bottom: growth scrolls to the new bottom. */
  | 'following'
  /** Scrolled up by the user, nothing new below since. */
  | 'reading'
  /** Scrolled up by the user, new content below since: the control shows. */
  | 'behind';

export interface FollowState {
  mode: FollowMode;
  /** scrollTop last seen or set: a lower one is a move up. */
  top: number;
  /** The text's height last seen (scrollHeight without the room): a higher one is new content. */
  height: number;
}

export type FollowEvent =
  /** The view scrolled (the user, or Flint's own scroll). */
  | { type: 'scrolled'; box: ScrollBox }
  /** The view or its content changed size (measured once layout was done). */
  | { type: 'resized'; box: ScrollBox }
  /** The user asked for the newest text: activated the control, or sent a message (a new turn). */
  | { type: 'jump'; box: ScrollBox };

export interface FollowStep {
  state: FollowState;
  /** The scrollTop to set, or null: leave the view where it is. */
  scrollTo: number | null;
}

/** Measurement noise (fractional scroll positions at some zoom levels). */
export const EDGE_PX = 1;
/** Scrolling down to within this many pixels of the bottom follows again. */
export const TOLERANCE_PX = 24;

export const INITIAL_FOLLOW_STATE: FollowState = { mode: 'following', top: 0, height: 0 };

/** The text's height: the scrollable height without the room below it. */
function textHeight(box: ScrollBox): number {
  return box.height - (box.room ?? 0);
}

/** Distance from the bottom of the view down to the end of the text (0 if it shows). */
function textDistance(box: ScrollBox): number {
  return Math.max(0, textHeight(box) - box.top - box.viewport);
}

/** Distance from the bottom of the view to the bottom of the content. */
export function distanceFromBottom(box: ScrollBox): number {
  return Math.max(0, box.height - box.top - box.viewport);
}

/** The control ("New text below") shows only when the user scrolled away and new content arrived. */
export function showsNewTextControl(state: FollowState): boolean {
  return state.mode === 'behind';
}

export function followStep(state: FollowState, event: FollowEvent): FollowStep {
  switch (event.type) {
    case 'scrolled':
      return { state: { ...state, mode: afterScroll(state, event.box), top: event.box.top }, scrollTo: null };
    case 'resized':
      return afterResize(state, event.box);
    case 'jump':
      return toBottom({ ...state, mode: 'following' }, event.box);
    default:
      return assertNever(event);
  }
}

function afterScroll(state: FollowState, box: ScrollBox): FollowMode {
  const distance = distanceFromBottom(box);
  const movedUp = box.top < state.top - EDGE_PX;
  if (movedUp && distance > EDGE_PX) return state.mode === 'following' ? 'reading' : state.mode;
  // Coming back needs the newest text in sight, not the room below it.
  if (!movedUp && Math.min(distance, textDistance(box)) <= TOLERANCE_PX) return 'following';
  // Up to the very bottom (content shrank under the view), or down but not far enough.
  return distance <= EDGE_PX ? 'following' : state.mode;
}

function afterResize(state: FollowState, box: ScrollBox): FollowStep {
  const grew = textHeight(box) > state.height + EDGE_PX;
  const measured = { ...state, height: textHeight(box) };
  // Content that fits has one place, the top: a view left lower (the content shrank) is moved there here, not by the browser's clamp (toBottom says why).
  if (box.height <= box.viewport + EDGE_PX) return { state: { ...measured, mode: 'following', top: 0 }, scrollTo: box.top > EDGE_PX ? 0 : null };
  switch (state.mode) {
    case 'following':
      // The newest text still shows (in the room below it) and the view is not past the bottom: it stays, and so does its painting.
      if (textHeight(box) <= box.top + box.viewport + EDGE_PX && box.top <= box.height - box.viewport + EDGE_PX) return { state: { ...measured, top: clampedTop(state, box) }, scrollTo: null };
      return toBottom(measured, box);
    case 'reading':
      return { state: { ...measured, mode: grew ? 'behind' : 'reading' }, scrollTo: null };
    case 'behind':
      return { state: measured, scrollTo: null };
    default:
      return assertNever(state.mode);
  }
}

/**
 * The scrollTop to remember for a view that stays: where it is if the browser just pulled it
 * up to the bottom of content that shrank (its scroll event is then not a move up), else
 * the one last seen (a move up whose event is yet to come still reads as one).
 */
function clampedTop(state: FollowState, box: ScrollBox): number {
  const bottom = Math.max(0, (box.measuredHeight ?? box.height) - box.viewport);
  return box.top < state.top && Math.abs(box.top - bottom) <= EDGE_PX ? box.top : state.top;
}

/**
 * Scrolls to the bottom unless there already; the state remembers the scrollTop set, so a
 * user's move up in between reads as one. A view past the bottom (its content shrank) is
 * moved to it here rather than left to the browser's clamp: a clamp's scroll event, with
 * text grown since, would read as the user leaving the bottom.
 */
function toBottom(state: FollowState, box: ScrollBox): FollowStep {
  const bottom = Math.max(0, box.height - box.viewport);
  const isThere = Math.abs(box.top - bottom) <= EDGE_PX;
  return { state: { ...state, height: textHeight(box), top: isThere ? box.top : bottom }, scrollTo: isThere ? null : bottom };
}

function assertNever(value: never): never {
  throw new Error(`Unexpected follow event or mode: ${JSON.stringify(value)}`);
}
