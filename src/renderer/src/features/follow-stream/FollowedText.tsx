/**
 * The text of a view that follows a stream, with room below it (follow-room.ts): a
 * wrapper whose min-height, set by the view's useFollowStream, leaves the room, around the
 * text (a live region: what streams in is announced), whose own height is watched. While
 * the text fills the room nothing is written: the wrapper's height, and the view's
 * scrollable height, hold.
 */
import type { ReactNode } from 'react';
import { ROOM_ATTRIBUTE, type FollowStream } from './use-follow-stream';
import './follow-stream.css';

export function FollowedText({ follow, children }: { follow: FollowStream; children: ReactNode }) {
  return (
    <div ref={follow.roomRef} className="followed-text" {...{ [ROOM_ATTRIBUTE]: '' }}>
      <div aria-live="polite">{children}</div>
    </div>
  );
}
