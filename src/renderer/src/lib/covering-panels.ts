/**
 * Panels that float over the page (the ask bar): where they are, for views that must keep
 * what the user reaches for out from under them. A panel registers its element while it is
 * shown; a view asks how much of a rect the panels cover and hears when they move or
 * resize. What a view cannot scroll out from under a panel (a hunk at the top of a short
 * file), it asks the panels to move off.
 */
type Listener = () => void;

const panels = new Map<HTMLElement, ResizeObserver | null>();
const listeners = new Set<Listener>();
const clearRequests = new Set<(rect: DOMRect) => void>();

function changed(): void {
  for (const listener of [...listeners]) listener();
}

/** Registers `element` as a floating panel while it is shown; returns the call that forgets it. */
export function coverWith(element: HTMLElement): () => void {
  const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(changed);
  observer?.observe(element);
  panels.set(element, observer);
  changed();
  return () => {
    panels.get(element)?.disconnect();
    panels.delete(element);
    changed();
  };
}

/** Calls `listener` when a panel appears, goes or resizes; returns the call that stops it. */
export function onCoverChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * How far down from its top `area` is covered by a panel that overlaps it and starts in its
 * upper half (a panel floating lower covers no top band); 0 when none does.
 */
export function coveredTop(area: DOMRect): number {
  return topBandCovered(area, [...panels.keys()].map((element) => element.getBoundingClientRect()));
}

type Box = Pick<DOMRect, 'left' | 'right' | 'top' | 'bottom' | 'height'>;

/** The band at the top of `area` that `covers` hide (see coveredTop). */
export function topBandCovered(area: Box, covers: readonly Box[]): number {
  let covered = 0;
  for (const rect of covers) {
    const overlaps = rect.left < area.right && rect.right > area.left && rect.bottom > area.top && rect.top < area.top + area.height / 2;
    if (overlaps) covered = Math.max(covered, Math.min(area.height, rect.bottom - area.top));
  }
  return covered;
}

/** A view cannot scroll `rect` (what the user must reach) out from under a panel: the panels that can move off it, do. */
export function askToClear(rect: DOMRect): void {
  for (const listener of [...clearRequests]) listener(rect);
}

/** Calls `listener` with each rect a view asks the panels to clear; returns the call that stops it. */
export function onClearRequest(listener: (rect: DOMRect) => void): () => void {
  clearRequests.add(listener);
  return () => clearRequests.delete(listener);
}

/** Whether two rects share any area. */
export function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;
}
