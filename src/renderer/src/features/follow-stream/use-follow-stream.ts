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
 */
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { INITIAL_FOLLOW_STATE, followStep, showsNewTextControl, type FollowEvent, type ScrollBox } from './follow-state';

export interface FollowStream {
  /** The callback ref for the scrolling element: followed from when it mounts, afresh each time. */
  scrollRef: (element: HTMLDivElement | null) => () => void;
  /** The scrolling element, while mounted (e.g. where focus goes after the control). */
  viewRef: RefObject<HTMLDivElement | null>;
  /** The user scrolled up and new content arrived below: the "New text below" control shows. */
  isBehind: boolean;
  /** Scrolls to the bottom (next frame) and follows again. */
  jumpToBottom: () => void;
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

  const apply = useCallback((type: FollowEvent['type']) => {
    const element = viewRef.current;
    if (!element) return;
    const step = followStep(stateRef.current, { type, box: measure(element) });
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

  return { scrollRef, viewRef, isBehind, jumpToBottom };
}

function measure(element: HTMLElement): ScrollBox {
  return { top: element.scrollTop, height: element.scrollHeight, viewport: element.clientHeight };
}

/** Calls `onResize` after layout whenever the element or one of its children changes size (at most once a frame). */
function observeGrowth(element: HTMLElement, onResize: () => void): () => void {
  const resizes = new ResizeObserver(onResize);
  resizes.observe(element);
  for (const child of element.children) resizes.observe(child);
  const children = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) if (node instanceof Element) resizes.observe(node);
      for (const node of record.removedNodes) if (node instanceof Element) resizes.unobserve(node);
    }
  });
  children.observe(element, { childList: true });
  return () => {
    children.disconnect();
    resizes.disconnect();
  };
}
