/**
 * The "New text below" control: floats over the bottom of a view that follows a stream,
 * shown only while the user has scrolled up and new text arrived under them. Activating
 * it (click, Enter, Space) scrolls to the bottom and follows again.
 *
 * Sits outside the view's live region (it is not part of the answer to announce) and over
 * it: its positioned parent is the view's container (follow-stream.css).
 */
import type { RefObject } from 'react';
import type { FollowStream } from './use-follow-stream';
import './follow-stream.css';

export interface NewTextBelowProps {
  follow: FollowStream;
  /**
   * Where keyboard focus goes once the control, which had it, is gone; without it, focus
   * falls to the page (in a dialog, its focus trap takes it back).
   */
  focusAfterRef?: RefObject<HTMLElement | null>;
}

export function NewTextBelow({ follow, focusAfterRef }: NewTextBelowProps) {
  if (!follow.isBehind) return null;
  return (
    <button
      type="button"
      className="new-text-below"
      title="Scroll to the newest text and keep following it"
      onClick={(event) => {
        const hadFocus = document.activeElement === event.currentTarget;
        follow.jumpToBottom();
        if (hadFocus) focusAfterRef?.current?.focus({ preventScroll: true });
      }}
    >
      <span aria-hidden="true" className="new-text-below-arrow">
        ↓
      </span>
      New text below
    </button>
  );
}
