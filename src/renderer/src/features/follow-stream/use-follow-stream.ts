/**
 * Binds a scrolling element to the follow state machine (follow-state.ts): the view sticks
 * to the newest text while it streams, unless the user scrolled up.
 *
 * Growth is seen by a ResizeObserver on the element and each of its children (a
 * MutationObserver adds the children that come later). Its callback runs once layout is
 * done, once a frame: the scroll it sets costs no forced layout and is painted with the text
 * that caused it, however many deltas arrived in the frame. Scroll events are read as they
 * come (passive). A jump (the control, or a new turn) waits for the next frame, so React's
 * commit and the measurement share one layout.
 *
 * A view that renders its text in a FollowedText keeps room below it (follow-room.ts): the
 * text's own height is watched too, and the room (the wrapper's min-height) is set in the
 * same callback, before anything scrolls, so the frame shows both — only when a room is made
 * or given up: while the text fills it, a frame writes nothing.
 */
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { nextRoom } from './follow-room';
import { INITIAL_FOLLOW_STATE, followStep, showsNewTextControl, type FollowEvent, type ScrollBox } from './follow-state';

/** Marks the text's wrapper (FollowedText.tsx): the view does not watch its size, which it sets itself. */
export const ROOM_ATTRIBUTE = 'data-follow-room';

export interface FollowStream {
  /** The callback ref for the scrolling element: followed from when it mounts, afresh each time. */
  scrollRef: (element: HTMLDivElement | null) => () => void;
  /** The scrolling element, while mounted (e.g. where focus goes after the control). */
  viewRef: RefObject<HTMLDivElement | null>;
  /** The user scrolled up and new content arrived below: the "New text below" control shows. */
  isBehind: boolean;
  /** Scrolls to the bottom (next frame) and follows again. */
  jumpToBottom: () => void;
  /** The callback ref for the wrapper of the view's text (FollowedText), if it keeps room below it. */
  roomRef: (element: HTMLDivElement | null) => () => void;
}

/** The text's wrapper, its text, and what was last set. */
interface Room {
  wrapper: HTMLDivElement;
  text: HTMLElement;
  /** The wrapper's min-height set (0: none): the text's height and the room. */
  minHeight: number;
  /** The scrollable height kept: text and room (follow-room.ts). */
  reserved: number;
  /** The room's height when last sized (a scroll is judged with it). */
  height: number;
}

/**
 * @param turnKey names the latest turn (with its conversation): when it changes, the user
 * has just sent something (a follow-up, a queued message, a redirect, a retry, a new
 * question), and the view jumps to it even if they had scrolled up.
 */
export function useFollowStream(turnKey: string): FollowStream {
  const viewRef = useRef<HTMLDivElement>(null);
  const stateRef = useRef(INITIAL_FOLLOW_STATE);
  const frameRef = useRef(0);
  const [isBehind, setBehind] = useState(false);
  const isBehindRef = useRef(false);
  const roomStateRef = useRef<Room | null>(null);

  const apply = useCallback((type: FollowEvent['type']) => {
    const element = viewRef.current;
    if (!element) return;
    const step = followStep(stateRef.current, { type, box: measureWithRoom(element, roomStateRef.current, type !== 'scrolled') });
    stateRef.current = step.state;
    if (step.scrollTo !== null) element.scrollTop = step.scrollTo;
    const behind = showsNewTextControl(step.state);
    if (behind !== isBehindRef.current) {
      isBehindRef.current = behind;
      setBehind(behind);
    }
  }, []);

  const jumpToBottom = useCallback(() => {
    cancelAnimationFrame(frameRef.current);
    frameRef.current = requestAnimationFrame(() => apply('jump'));
  }, [apply]);

  // Stable, so React attaches it once per element (React 19: the returned function detaches).
  const scrollRef = useCallback(
    (element: HTMLDivElement | null) => {
      viewRef.current = element;
      stateRef.current = INITIAL_FOLLOW_STATE;
      if (!element) return () => undefined;
      const stopObserving = observeGrowth(element, () => apply('resized'));
      const onScroll = (): void => apply('scrolled');
      element.addEventListener('scroll', onScroll, { passive: true });
      return () => {
        stopObserving();
        element.removeEventListener('scroll', onScroll);
        cancelAnimationFrame(frameRef.current);
        if (viewRef.current === element) viewRef.current = null;
        isBehindRef.current = false;
        setBehind(false);
      };
    },
    [apply],
  );

  // Before paint, so the jump lands in the frame that lays out the new turn (no flash of the control).
  const seenKeyRef = useRef(turnKey);
  useLayoutEffect(() => {
    if (seenKeyRef.current === turnKey) return;
    seenKeyRef.current = turnKey;
    jumpToBottom();
  }, [turnKey, jumpToBottom]);

  // Stable, so React attaches it once per element (React 19: the returned function detaches).
  const roomRef = useCallback(
    (wrapper: HTMLDivElement | null) => {
      const text = wrapper?.firstElementChild;
      if (!wrapper || !(text instanceof HTMLElement)) return () => undefined;
      const room: Room = { wrapper, text, minHeight: 0, reserved: 0, height: 0 };
      roomStateRef.current = room;
      wrapper.style.removeProperty('min-height');
      // The text grows inside the wrapper's min-height without the wrapper changing size: watched itself.
      const resizes = new ResizeObserver(() => apply('resized'));
      resizes.observe(text);
      return () => {
        resizes.disconnect();
        if (roomStateRef.current === room) roomStateRef.current = null;
      };
    },
    [apply],
  );

  return { scrollRef, viewRef, isBehind, jumpToBottom, roomRef };
}

function measure(element: HTMLElement): ScrollBox {
  return { top: element.scrollTop, height: element.scrollHeight, viewport: element.clientHeight };
}

/**
 * What the view measured, with its room (if it keeps one) sized for the text it now holds
 * when `resize`. Not for a scroll: a scroll is judged by where it left the view, with the
 * room as last sized (a room made then would read the browser's clamp of a view that shrank
 * as the user leaving the bottom).
 */
function measureWithRoom(element: HTMLElement, room: Room | null, resize: boolean): ScrollBox {
  const box = measure(element);
  if (!room) return box;
  if (!resize) return { ...box, room: room.height };
  // After layout in a ResizeObserver callback, nothing here forces one (a jump's frame
  // callback runs before layout, and forces it once: a jump is rare).
  const ownHeight = room.text.offsetHeight;
  const content = box.height - Math.max(0, room.minHeight - ownHeight);
  const next = nextRoom(content, box.viewport, room.reserved);
  room.reserved = next.reserved;
  room.height = next.room;
  // Held while the text overflows, even with no room left: text that shrinks then leaves room.
  const minHeight = next.reserved > box.viewport ? ownHeight + next.room : 0;
  // Unchanged while the text fills the room (both grow and shrink by as much); a pixel of rounding is not a change.
  if (Math.abs(minHeight - room.minHeight) > 1) {
    room.minHeight = minHeight;
    room.wrapper.style.minHeight = minHeight > 0 ? `${minHeight}px` : '';
  }
  return { ...box, height: content + next.room, room: next.room, measuredHeight: box.height };
}

/** Calls `onResize` after layout whenever the element or one of its children changes size (at most once a frame). */
function observeGrowth(element: HTMLElement, onResize: () => void): () => void {
  const resizes = new ResizeObserver(onResize);
  // Not the text's wrapper: its size is set from here (watching it would report it again, a loop); its text is watched instead.
  const isText = (node: Node): node is Element => node instanceof Element && !node.hasAttribute(ROOM_ATTRIBUTE);
  resizes.observe(element);
  for (const child of element.children) if (isText(child)) resizes.observe(child);
  const children = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) if (isText(node)) resizes.observe(node);
      for (const node of record.removedNodes) if (isText(node)) resizes.unobserve(node);
    }
  });
  children.observe(element, { childList: true });
  return () => {
    children.disconnect();
    resizes.disconnect();
  };
}
