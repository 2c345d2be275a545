/**
 * Every review key in one sheet (`?`): the same labels the buttons show.
 */
import { useRef } from 'react';
import { isMac } from '../../lib/platform';
import { useFocusTrap } from '../../lib/use-focus-trap';
import { reviewKeyLabels, type ReviewKeyAction } from './review-keys';

const ROWS: Array<[ReviewKeyAction, string]> = [
  ['accept', 'Accept the current hunk (only the lines selected in the file, or your edit of it)'],
  ['reject', 'Reject the current hunk'],
  ['next', 'Next hunk waiting for a decision'],
  ['previous', 'Previous hunk'],
  ['accept-all', 'Accept all ready hunks (one step to undo)'],
  ['reject-all', 'Reject all hunks still waiting'],
  ['undo', 'Undo the last change Flint wrote'],
  ['shortcuts', 'This list'],
];

export function ShortcutsSheet({ onClose }: { onClose: () => void }) {
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const labels = reviewKeyLabels(isMac);
  const alternatives = isMac ? { accept: '⌘⌥Y', reject: '⌘⌥N' } : { accept: 'Ctrl+Alt+Y', reject: 'Ctrl+Alt+N' };
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
        <table>
          <tbody>
            {ROWS.map(([action, words]) => (
              <tr key={action}>
                <td>
                  <kbd>{labels[action]}</kbd>
                  {action === 'accept' || action === 'reject' ? (
                    <>
                      {' '}
                      or <kbd>{alternatives[action]}</kbd>
                    </>
                  ) : null}
                </td>
                <td>{words}</td>
              </tr>
            ))}
            <tr>
              <td>
                <kbd>A</kbd> <kbd>R</kbd> <kbd>U</kbd> <kbd>L</kbd> <kbd>Enter</kbd> <kbd>↓</kbd> <kbd>↑</kbd>
              </td>
              <td>On a focused hunk in the pane: accept, reject, revert (once accepted), show its lines, open it in the file, next or previous hunk</td>
            </tr>
          </tbody>
        </table>
        <p className="shortcuts-note">To accept part of a hunk, select its lines in the file first. To change it, edit its green lines in place, then accept.</p>
        <button ref={closeRef} type="button" onClick={onClose}>
          Close <kbd>Esc</kbd>
        </button>
      </div>
    </div>
  );
}
