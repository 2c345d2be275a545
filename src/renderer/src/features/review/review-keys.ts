/**
 * The review's keys, from anywhere in the app (the ask bar and the code view included).
 * Pure, so the scheme reads in one place and is tested without a browser.
 *
 * The scheme users know from Cursor and VS Code: Ctrl/Cmd+Enter accepts, Ctrl/Cmd+Backspace
 * rejects (in the code view too, as in Cursor's inline diffs); Continue's Ctrl/Cmd+Alt+Y / N
 * work too (Ctrl/Cmd+Backspace deletes a word in a text box with text in it, as it always has). Alt+↓/↑ or F7 / Shift+F7 move between
 * hunks; Shift adds "all" to accept and reject. Ctrl/Cmd+Alt+Z undoes the last decision
 * (a rejection, or a change Flint wrote) anywhere, Ctrl/Cmd+Z too where it would not undo
 * typing; Shift with either redoes it. `?` (or Ctrl/Cmd+/) lists them.
 */

export type ReviewKeyAction = 'accept' | 'reject' | 'next' | 'previous' | 'accept-all' | 'reject-all' | 'undo' | 'redo' | 'shortcuts';

export interface ReviewKeyPress {
  key: string;
  /** The physical key (`KeyY`): Alt+Y types another character on some layouts. */
  code: string;
  altKey: boolean;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/** Where the key was pressed. */
export interface KeyTarget {
  /** A text box (input, textarea) or the code view: typing keys belong to it. */
  isTyping: boolean;
  /** A text box with text in it (Ctrl/Cmd+Backspace deletes a word there). */
  hasText: boolean;
}

export function reviewKeyAction(press: ReviewKeyPress, target: KeyTarget, isMac: boolean): ReviewKeyAction | null {
  const mod = isMac ? press.metaKey && !press.ctrlKey : press.ctrlKey && !press.metaKey;
  if (press.key === 'F7' && !mod && !press.altKey) return press.shiftKey ? 'previous' : 'next';
  if (press.altKey && !mod && !press.shiftKey && (press.key === 'ArrowDown' || press.key === 'ArrowUp')) return press.key === 'ArrowDown' ? 'next' : 'previous';
  if (mod && press.altKey) {
    if (press.code === 'KeyY') return 'accept';
    if (press.code === 'KeyN') return 'reject';
    if (press.code === 'KeyZ') return press.shiftKey ? 'redo' : 'undo';
    return null;
  }
  if (mod && press.key === 'Enter') return press.shiftKey ? 'accept-all' : 'accept';
  if (mod && press.key === 'Backspace' && !(target.isTyping && target.hasText)) return press.shiftKey ? 'reject-all' : 'reject';
  if (mod && press.code === 'KeyZ' && !target.isTyping) return press.shiftKey ? 'redo' : 'undo';
  if (mod && press.code === 'Slash') return 'shortcuts';
  if (press.key === '?' && !mod && !press.altKey && !target.isTyping) return 'shortcuts';
  return null;
}

/** Every key, as the shortcuts sheet and the buttons show it. */
export function reviewKeyLabels(isMac: boolean): Record<ReviewKeyAction, string> {
  const mod = isMac ? '⌘' : 'Ctrl+';
  const alt = isMac ? '⌥' : 'Alt+';
  return {
    accept: `${mod}Enter`,
    reject: `${mod}Backspace`,
    next: `${alt}↓ / F7`,
    previous: `${alt}↑ / Shift+F7`,
    'accept-all': `${mod}Shift+Enter`,
    'reject-all': `${mod}Shift+Backspace`,
    undo: `${mod}${alt}Z`,
    redo: `${mod}${alt}Shift+Z`,
    shortcuts: isMac ? '? or ⌘/' : '? or Ctrl+/',
  };
}
