/**
 * Room below the newest text of a view that follows a stream: new lines fill it without
 * the view moving, and once it is full the view moves up by a whole room at once (a jump
 * scroll, as xterm's). The view's scrollable height stays the same while the room fills.
 *
 * Why: Chromium paints every card of a scrolling list again in each frame that changes
 * the list's scrollable size, even cards that did not change: a card's painting is reused
 * only while that size holds, and only if the card is a paint layer of its own (the pane's
 * cards are paint-contained; an answer's closed Markdown blocks are one layer, styles.css).
 * Following a 1,000 tok/s stream line by line changed it every frame, and a hundred decided
 * cards cost the renderer about a quarter of its time. With a room, a frame paints the card
 * (or the Markdown block) that grew, and the rest once per room. Both the pane and the ask
 * bar keep one.
 *
 * Pure: the view measures, this says how tall the room is to be.
 */

/** A room is a quarter of the view, within these bounds (px): a few lines at the least. */
export const ROOM_MIN_PX = 48;
export const ROOM_MAX_PX = 240;

/**
 * The room a view of `viewport` px keeps below its text once the text overflows it. Never
 * more than a third of the view: two rooms (what folding cards can leave) still show text.
 */
export function roomStep(viewport: number): number {
  return Math.floor(Math.min(ROOM_MAX_PX, Math.max(Math.min(ROOM_MIN_PX, viewport / 3), viewport / 4)));
}

/**
 * The room's new height and the scrollable height it keeps (`reserved`: text and room),
 * given the text's height without the room (`content`, px), the view's height and the
 * scrollable height kept so far. A `reserved` over the view is held even with no room left:
 * text that then shrinks leaves room, rather than the view's height shrinking under it.
 * - Text that fits the view gets no room: the room never makes a view scroll.
 * - Text that grew into the room shrinks it by as much: the scrollable height holds.
 * - Text that filled the room gets a new one.
 * - Text that shrank (a card folded) grows the room by as much, up to two rooms; beyond
 *   that the room is one again, so a view never ends in a screen of nothing.
 */
export function nextRoom(content: number, viewport: number, reserved: number): { room: number; reserved: number } {
  if (content <= viewport) return { room: 0, reserved: content };
  const step = roomStep(viewport);
  const kept = reserved - content;
  if (reserved <= viewport || kept < 0 || kept > 2 * step) return { room: step, reserved: content + step };
  return { room: kept, reserved };
}
