/**
 * The notices: a stack at the bottom edge of the window, above the status bar, in a row of
 * its own (it takes room from the panes rather than covering them). Errors and warnings stay
 * until dismissed or until what they are about is over (app-reducer's subjects); a plain
 * confirmation goes by itself (notice-lifetime.ts), not while it is hovered or focused.
 *
 * The list is a polite live region, always in the page, so screen readers hear each new
 * notice; an error is an alert. Esc inside a notice dismisses it.
 */
import { useEffect, useRef, useState, type FocusEvent } from 'react';
import type { Notice } from '../app-state/app-reducer';
import { nextClock, startClock, timeLeft, type NoticeClock, type NoticeClockEvent } from './notice-lifetime';
import './notices.css';

export interface NoticesProps {
  notices: readonly Notice[];
  onDismiss: (id: number) => void;
}

export function Notices({ notices, onDismiss }: NoticesProps) {
  return (
    <ul className="notices" aria-label="Notices" aria-live="polite">
      {notices.map((notice) => (
        <NoticeItem key={notice.id} notice={notice} onDismiss={onDismiss} />
      ))}
    </ul>
  );
}

function NoticeItem({ notice, onDismiss }: { notice: Notice; onDismiss: (id: number) => void }) {
  const hold = useNoticeClock(notice.level === 'info', () => onDismiss(notice.id));
  const onBlur = (event: FocusEvent<HTMLLIElement>): void => {
    // Focus moving between the notice's own parts still holds it.
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) hold({ type: 'release', by: 'focus' });
  };
  return (
    <li
      className={`notice notice-${notice.level}`}
      onMouseEnter={() => hold({ type: 'hold', by: 'pointer' })}
      onMouseLeave={() => hold({ type: 'release', by: 'pointer' })}
      onFocus={() => hold({ type: 'hold', by: 'focus' })}
      onBlur={onBlur}
      onKeyDown={(event) => event.key === 'Escape' && onDismiss(notice.id)}
    >
      <span role={notice.level === 'error' ? 'alert' : undefined}>{notice.message}</span>
      <button type="button" className="icon" aria-label="Dismiss" onClick={() => onDismiss(notice.id)}>
        ×
      </button>
    </li>
  );
}

/** Counts a timed notice down (`isTimed`), calling `expire` when its time is up; returns how hovering and focus hold it. */
function useNoticeClock(isTimed: boolean, expire: () => void): (event: NoticeClockEvent) => void {
  const [clock, setClock] = useState<NoticeClock>(() => startClock(performance.now()));
  const latestExpire = useRef(expire);
  latestExpire.current = expire;
  useEffect(() => {
    if (!isTimed || clock.state === 'held') return undefined;
    if (clock.state === 'expired') return latestExpire.current();
    // One timer for what is left; its tick either expires the clock or (early) sets the next.
    const timer = setTimeout(() => setClock((now) => nextClock(now, { type: 'tick' }, performance.now())), timeLeft(clock, performance.now()));
    return () => clearTimeout(timer);
  }, [isTimed, clock]);
  return (event) => setClock((now) => nextClock(now, event, performance.now()));
}
