/**
 * Every review key in one sheet (`?`): the same labels the buttons show.
 */
import { useEffect, useRef } from 'react';
import { isMac } from '../../lib/platform';
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
  const closeRef = useRef<HTMLButtonElement>(null);
  const labels = reviewKeyLabels(isMac);
  const alternatives = isMac ? { accept: '⌘⌥Y', reject: '⌘⌥N' } : { accept: 'Ctrl+Alt+Y', reject: 'Ctrl+Alt+N' };
  useEffect(() => {
    const returnTo = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    return () => returnTo?.focus?.();
  }, []);
  return (
    <div className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && onClose()}>
      <div
        className="modal shortcuts-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        onKeyDown={(event) => {
          if (event.key === 'Escape' || event.key === '?') {
            event.preventDefault();
            event.stopPropagation();
            onClose();
          } else if (event.key === 'Tab') {
            // One control: focus stays on it.
            event.preventDefault();
            closeRef.current?.focus();
          }
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
