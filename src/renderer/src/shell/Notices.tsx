/**
 * The notices: errors (alerts) and outcomes (status), newest last, each dismissable.
 */
import type { Notice } from '../features/app-state/app-reducer';

export interface NoticesProps {
  notices: readonly Notice[];
  onDismiss: (id: number) => void;
}

export function Notices({ notices, onDismiss }: NoticesProps) {
  if (notices.length === 0) return null;
  return (
    <ul className="notices" aria-label="Notices">
      {notices.map((notice) => (
        <li key={notice.id} className={`notice notice-${notice.level}`} role={notice.level === 'error' ? 'alert' : 'status'}>
          <span>{notice.message}</span>
          <button type="button" className="icon" aria-label="Dismiss" onClick={() => onDismiss(notice.id)}>
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
