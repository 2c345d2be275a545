/**
 * Every key in one sheet (`?` or Ctrl+/), drawn from the one key table (key-table.ts),
 * grouped by where each works, with the labels the buttons show.
 */
import { Fragment, useRef } from 'react';
import { isMac } from '../../lib/platform';
import { useFocusTrap } from '../../lib/use-focus-trap';
import { KEY_PLACES, keyTable } from './key-table';

export interface ShortcutsSheetProps {
  /** The ask bar's shortcut, as written. */
  askShortcut: string;
  systemWide: boolean;
  onClose: () => void;
}

export function ShortcutsSheet({ askShortcut, systemWide, onClose }: ShortcutsSheetProps) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const rows = keyTable({ isMac, askShortcut, systemWide });
  // Focus starts on Close, stays inside, and goes back where it was on close.
  useFocusTrap(dialogRef, { fallbackRef: closeRef });
  return (
    <div className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        ref={dialogRef}
        className="modal shortcuts-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        // A click on its text focuses the sheet itself, so Esc still reaches it.
        tabIndex={-1}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' && event.key !== '?') return;
          event.preventDefault();
          event.stopPropagation();
          onClose();
        }}
      >
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        {/* Scrolls at small sizes: reachable and named for the keyboard. */}
        <div className="shortcuts-body" role="region" aria-label="Every key, by where it works" tabIndex={0}>
          {KEY_PLACES.map((place) => (
            <table key={place}>
              <caption>{place}</caption>
              <tbody>
                {rows
                  .filter((row) => row.where === place)
                  .map((row) => (
                    <tr key={row.id}>
                      <td>
                        {row.keys.map((key, index) => (
                          <Fragment key={key}>
                            {index > 0 && ' or '}
                            <kbd>{key}</kbd>
                          </Fragment>
                        ))}
                      </td>
                      <td>{row.what}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          ))}
        </div>
        <button ref={closeRef} type="button" onClick={onClose}>
          Close <kbd>Esc</kbd>
        </button>
      </div>
    </div>
  );
}
