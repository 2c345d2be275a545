/**
 * Every key Flint answers to, in one table: where it works, what it does, and how it is
 * written on this platform. The shortcuts sheet is drawn from it, so a key cannot be left
 * out of the sheet, and each is listed under the place it works. The keys themselves are
 * decided where they are pressed (review-keys.ts, ask-bar-keys.ts, the card, Settings);
 * the test beside this file checks that every action those modules know is here.
 */
import type { AskBarKeyAction } from '../ask-bar/ask-bar-keys';
import { reviewKeyLabels, type ReviewKeyAction } from '../review/review-keys';

/** Where a key works, in the order the sheet lists them. */
export type KeyPlace = 'Anywhere in Flint' | 'The ask bar' | 'A hunk’s card (focused in the pane)' | 'The file view';

export interface KeyRow {
  /** The action it stands for: `review:accept`, `ask:ask-fast`, `card:accept`, `app:settings`. */
  id: string;
  where: KeyPlace;
  /** The key or keys, as written on this platform. */
  keys: string[];
  what: string;
}

export interface KeyTableOptions {
  isMac: boolean;
  /** The shortcut that opens the ask bar, as written (from Settings). */
  askShortcut: string;
  /** It works from other apps too (registered system-wide); else `flint --ask` does it from there. */
  systemWide: boolean;
}

export const KEY_PLACES: readonly KeyPlace[] = ['Anywhere in Flint', 'The ask bar', 'A hunk’s card (focused in the pane)', 'The file view'];

export function keyTable({ isMac, askShortcut, systemWide }: KeyTableOptions): KeyRow[] {
  const review = reviewKeyLabels(isMac);
  const mod = isMac ? '⌘' : 'Ctrl+';
  const alt = isMac ? '⌥' : 'Alt+';
  const anywhere = (id: string, keys: string[], what: string): KeyRow => ({ id, where: 'Anywhere in Flint', keys, what });
  const bar = (action: AskBarKeyAction, keys: string[], what: string): KeyRow => ({ id: `ask:${action}`, where: 'The ask bar', keys, what });
  const card = (id: string, keys: string[], what: string): KeyRow => ({ id: `card:${id}`, where: 'A hunk’s card (focused in the pane)', keys, what });
  const file = (id: string, keys: string[], what: string): KeyRow => ({ id: `file:${id}`, where: 'The file view', keys, what });
  const reviewRow = (action: ReviewKeyAction, what: string, more: string[] = []): KeyRow => anywhere(`review:${action}`, [review[action], ...more], what);
  return [
    anywhere('app:ask', [askShortcut], systemWide ? 'Ask Flint about the current file, from any app' : 'Ask Flint about the current file (from other apps: run flint --ask)'),
    anywhere('app:settings', [`${mod},`], 'Settings: providers, keys, the shortcut'),
    reviewRow('accept', 'Accept the current hunk (only the lines selected in the file, or your edit of it)', [`${mod}${alt}Y`]),
    reviewRow('reject', 'Reject the current hunk', [`${mod}${alt}N`]),
    reviewRow('next', 'Next hunk waiting for a decision'),
    reviewRow('previous', 'Previous hunk'),
    reviewRow('accept-all', 'Accept all ready hunks (one step to undo)'),
    reviewRow('reject-all', 'Reject all hunks still waiting'),
    reviewRow('undo', 'Undo the last decision: a rejected hunk waits again, a written one comes off disk', [`${mod}Z outside text`]),
    reviewRow('redo', 'Redo the decision Undo took back', [`${mod}Shift+Z outside text`]),
    reviewRow('shortcuts', 'This list'),
    bar('ask-fast', ['Enter'], 'Ask (while an answer streams: redirect it)'),
    bar('ask-deep', [`${alt}Enter`], 'Ask the deeper model'),
    bar('queue', ['Tab'], 'While an answer streams: send this message when it ends'),
    bar('stop', ['Esc'], 'Stop the streaming answer'),
    bar('close', ['Esc'], 'Close the bar (focus goes to the hunk waiting for a decision)'),
    bar('toggle-new', [`${alt}N`], 'Follow up the conversation on screen, or start a new one'),
    bar('toggle-focus', [`${alt}W`], 'The lines just changed or selected, or the whole file'),
    bar('switch-file', [`${alt}S`], 'The focused editor’s file, or the one last saved or selected'),
    bar('toggle-subject', [`${alt}P`], 'The current file, or the whole project'),
    card('accept', ['A'], 'Accept this hunk'),
    card('reject', ['R'], 'Reject this hunk'),
    card('revert', ['U'], 'Revert it once accepted; Restore it once rejected'),
    card('lines', ['L'], 'Show or hide its lines in the pane'),
    card('open', ['Enter'], 'Open its file at the hunk'),
    card('select-lines', ['Shift+↓', 'Shift+↑'], 'Go to its lines in the file, selecting them one by one'),
    card('move', ['↓', '↑'], 'Next or previous hunk in the pane'),
    file('select', ['Shift+↓', 'Shift+↑'], 'Select lines of a hunk: Accept then takes only those'),
    file('edit', ['Type in green lines'], 'Change the hunk’s new text before accepting it'),
  ];
}
