/**
 * The text of a view that follows a stream, with room below it (follow-room.ts): a
 * wrapper whose min-height, set by the view's useFollowStream, leaves the room, around the
 * text (a live region: what streams in is announced), whose own height is watched. While
 * the text fills the room nothing is written: the wrapper's height, and the view's
 * scrollable height, hold. The text is its own formatting context (follow-stream.css): the
 * margins of its first and last blocks are in the height measured.
 */
import type { ReactNode } from 'react';
import { ROOM_ATTRIBUTE, type FollowStream } from './use-follow-stream';
import './follow-stream.css';

/** `busy`: what streams in is announced once it is no longer (aria-busy belongs on the live region itself). */
export function FollowedText({ follow, busy, children }: { follow: FollowStream; busy?: boolean; children: ReactNode }) {
  return (
    <div ref={follow.roomRef} className="followed-text" {...{ [ROOM_ATTRIBUTE]: '' }}>
      <div aria-live="polite" aria-busy={busy}>
        {children}
      </div>
    </div>
  );
}
