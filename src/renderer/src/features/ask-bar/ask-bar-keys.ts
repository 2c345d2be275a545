/**
 * What a key pressed in the ask bar does. Pure, so the rules read in one place and are
 * tested without a browser: Esc stops a streaming answer (once) and otherwise closes,
 * Enter in the input asks (Alt+Enter the deeper model, Shift+Enter is a new line) — while
 * an answer streams, Enter redirects it and Tab queues the message for when it ends (as
 * in Codex) — Alt+N switches between following up and a new conversation, Alt+W
 * switches the focus when there are lines to focus on (changed or selected), Alt+S
 * switches the file (the focused editor's ↔ the one last saved or selected), and Alt+P
 * switches between the current file and the whole project.
 */

export type AskBarKeyAction =
  /** Stop the streaming answer (the bar stays open). */
  | 'stop'
  /** Close the bar. */
  | 'close'
  /** Ask the fast model. */
  | 'ask-fast'
  /** Ask the deeper model. */
  | 'ask-deep'
  /** Switch between the lines just changed (or selected) and the whole file. */
  | 'toggle-focus'
  /** Switch to the other candidate file. */
  | 'switch-file'
  /** Switch between the current file and the whole project. */
  | 'toggle-subject'
  /** Queue the message for when the streaming answer ends. */
  | 'queue'
  /** Switch between a follow-up in the conversation on screen and a new conversation. */
  | 'toggle-new';

/** The parts of a keydown the bar looks at. */
export interface AskBarKeyPress {
  key: string;
  /** The physical key (`KeyW`): Alt+W types another character on some layouts. */
  code: string;
  altKey: boolean;
  shiftKey: boolean;
  /** The key went to the question's input (not a button in the bar). */
  isInInput: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
}

export interface AskBarKeyState {
  isStreaming: boolean;
  /** A stop was already sent for the streaming answer: a second Esc closes at once. */
  isStopSent: boolean;
  /** Lines narrower than the file to focus on: the lines just changed, or the user's selection. */
  hasNarrowFocus: boolean;
  /** Another file could be the one asked about (the focused editor's, or the last saved). */
  hasOtherFile?: boolean;
  /** Something is typed (Tab queues only a message; with none it moves focus as usual). */
  hasDraft?: boolean;
  /** A conversation is on screen to follow up. */
  canFollowUp?: boolean;
}

/** The action for a key, or null when the bar leaves the key alone. */
export function askBarKeyAction(press: AskBarKeyPress, state: AskBarKeyState): AskBarKeyAction | null {
  if (press.key === 'Escape') return state.isStreaming && !state.isStopSent ? 'stop' : 'close';
  if (press.key === 'Enter' && !press.shiftKey && press.isInInput) return press.altKey ? 'ask-deep' : 'ask-fast';
  if (press.altKey && press.code === 'KeyW' && state.hasNarrowFocus) return 'toggle-focus';
  if (press.altKey && press.code === 'KeyS' && state.hasOtherFile && !state.isStreaming) return 'switch-file';
  if (press.altKey && press.code === 'KeyP' && !state.isStreaming) return 'toggle-subject';
  if (press.altKey && press.code === 'KeyN' && state.canFollowUp && !state.isStreaming) return 'toggle-new';
  const plainTab = press.key === 'Tab' && !press.shiftKey && !press.altKey && !press.ctrlKey && !press.metaKey;
  if (plainTab && press.isInInput && state.isStreaming && state.hasDraft) return 'queue';
  return null;
}
