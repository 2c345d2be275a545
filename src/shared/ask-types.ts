/**
 * The ask bar as main describes it: what the next question will be about, what blocks
 * it, and the system-wide shortcut that opens it.
 */
import type { HunkUpdate } from './edits/hunk-types';

/** What the question is about: the lines the last save changed, or the whole file. */
export type AskFocus = 'recent-change' | 'whole-file';

/** Why nothing can be asked yet, with what to do instead. */
export interface AskBlocker {
  /** `no-key` and `no-project` have an action in the bar (Settings, Open Folder). */
  kind: 'no-project' | 'no-file' | 'no-key' | 'file-problem';
  message: string;
}

/** The lines the user's last save changed, in the file as it is now (1-based, inclusive). */
export interface ChangedLines {
  startLine: number;
  endLine: number;
  added: number;
  removed: number;
  /** How many separate places changed. */
  places: number;
}

export interface AskScope {
  /** The open project's name, or null. */
  project: string | null;
  /** The current file (project-relative), or null. */
  path: string | null;
  language: string | null;
  lineCount: number;
  /** What the last save changed, when Flint had the version before it. */
  recentChange: ChangedLines | null;
  /** How much of the file fits the model's context window with the default focus. */
  window: { startLine: number; endLine: number; truncated: boolean } | null;
  /** Context tokens the default focus would send, and how they were counted. */
  tokens: number;
  tokenCounting: string;
  blocker: AskBlocker | null;
}

/** Whether the system-wide shortcut works. */
export interface HotkeyStatus {
  /** The accelerator in Electron syntax (`CommandOrControl+Shift+Space`). */
  accelerator: string;
  /**
   * `registered`: works from any app. `failed`: the OS or another app refused it.
   * `unavailable`: this shell has no system-wide shortcuts (the serve shell).
   */
  state: 'registered' | 'failed' | 'unavailable';
  message?: string;
  /** Shortcuts that were free when checked, to offer instead. */
  alternatives: string[];
}

/** Why the bar opened (main pushes this for the global shortcut, the tray and `flint --ask`). */
export interface AskOpenRequest {
  trigger: 'hotkey' | 'tray' | 'command-line';
  /** When the shortcut was handled in main (performance.timeOrigin + now). */
  atEpochMs: number;
}

/** Where an answer is. */
export type AnswerStatus =
  /** The model is writing. */
  | 'streaming'
  /** The answer is complete; hunks may still await decisions. */
  | 'complete'
  /** The user stopped it. */
  | 'stopped'
  /** The stream failed; `message` says why. */
  | 'failed';

/** One batched update of an answer: status, prose and hunks (at most one per frame). */
export interface AnswerUpdate {
  sessionId: string;
  status?: AnswerStatus;
  message?: string;
  /** Prose to append. */
  prose?: string;
  hunks: HunkUpdate[];
  problems?: string[];
}
