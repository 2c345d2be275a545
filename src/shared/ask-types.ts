/**
 * The ask bar as main describes it: what the next question will be about, what blocks
 * it, and the system-wide shortcut that opens it.
 */
import type { HunkUpdate } from './edits/hunk-types';
import type { CurrentFileSource, FileCandidate, WindowNote } from './project-types';
import type { MentionStatus } from './mentions';

/** What the question is about: the lines the last save changed, the lines the user selected, or the whole file. */
export type AskFocus = 'recent-change' | 'selection' | 'whole-file';

/** Lines of a file, 1-based, inclusive. */
export interface LineRange {
  startLine: number;
  endLine: number;
}

/** The lines the user selected, and in which file. */
export interface SelectedLines extends LineRange {
  path: string;
}

/** What a question is about within its file: the focus, and with `selection` the lines selected. */
export interface QuestionFocus {
  focus: AskFocus;
  selection?: SelectedLines;
}

/**
 * What a question is about: `file`, the current file (and the files named with `@path`);
 * `project`, the project outline and the named files only ("Ask about the project").
 */
export type AskSubject = 'file' | 'project';

/** One reason nothing can be asked yet, with what to do instead. */
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
  /** How it became current: focused in an editor (which), last saved, selected in Flint. */
  source: CurrentFileSource | null;
  editor: string | null;
  /** The other candidate, which one key (Alt+S) makes current. */
  other: FileCandidate | null;
  /** The focused window gave no file: what it showed instead (and the files it may mean). */
  windowNote: WindowNote | null;
  /** The user's selection at shortcut time, found in the file: the question's focus (`selection`). */
  selection: LineRange | null;
  /** A selection that is not used, and why (too large, in several places). */
  selectionNote: string | null;
  language: string | null;
  lineCount: number;
  /** What the last save changed, when Flint had the version before it. */
  recentChange: ChangedLines | null;
  /** How much of the file fits the model's context window with the default focus. */
  window: { startLine: number; endLine: number; truncated: boolean } | null;
  /** Context tokens the default focus would send, and how they were counted. */
  tokens: number;
  tokenCounting: string;
  /**
   * Every step missing before a question can be sent, in the order to take them (no project,
   * then no key: a first start shows both at once); empty when nothing blocks.
   */
  blockers: AskBlocker[];
  /** `project` when the user chose it, or when the current file cannot be sent (then `path` is null). */
  subject: AskSubject;
  /** Why the question is about the project though the user did not choose that (no current file, a binary or missing one); else null. */
  subjectNote: string | null;
  /** The draft's `@path` mentions as main resolved them, in order, with what becomes of each. */
  mentions: MentionStatus[];
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

/** Where one turn is: an answer's status, or waiting to be sent, or cut short by a redirect. */
export type TurnStatus =
  | AnswerStatus
  /** Typed while the previous turn streamed: sent when it ends. */
  | 'queued'
  /** The user redirected it: the next turn replaces it. */
  | 'redirected';

/** How the user's words became this turn. */
export type TurnKind =
  /** The question that started the conversation. */
  | 'question'
  /** Asked after the previous turn ended, in the same conversation. */
  | 'follow-up'
  /** Typed while the previous turn streamed: it interrupted it. */
  | 'redirect'
  /** Typed while the previous turn streamed, to be sent when it ended. */
  | 'queued'
  /** The same words again, after a failure. */
  | 'retry';

/** Why a turn failed, and what can be done about it (the failure's own words are the turn's message). */
export interface TurnFailure {
  /** The inference failure code (`rate-limited`, `unauthorized`, `server-error`, …), or `other`. */
  code: string;
  /** A 429: when Flint retries by itself (epoch ms); absent once cancelled or not scheduled. */
  retryAtEpochMs?: number;
  /** A deeper model is configured and this turn did not use it. */
  canRetryDeep: boolean;
  /** The key is missing or refused: Settings is the way out. */
  needsSettings: boolean;
}

/** One turn of a conversation: the user's words and the model's answer to them. */
export interface TurnView {
  /** 1-based; the turn's hunks have ids starting with it (`2.0`). */
  index: number;
  kind: TurnKind;
  /** The user's words (a question, a redirect, a follow-up). */
  text: string;
  depth: 'fast' | 'deep';
  /** The model that answered (or was asked), by name. */
  model: string;
  status: TurnStatus;
  /** Why it failed or stopped, in words. */
  message?: string;
  /** The model's prose so far: its whole lines. */
  prose: string;
  /**
   * What follows them on screen while the answer streams: the prose not yet decided (the
   * line still arriving, a possible file path). Screen only: sent apart (AnswerUpdate's
   * `proseTail`), never kept in main's turns.
   */
  proseTail?: string;
  /** When the user sent it (epoch ms). */
  askedAtEpochMs: number;
  /** When it took effect: the request went out (a queued turn: later than asked). */
  startedAtEpochMs?: number;
  endedAtEpochMs?: number;
  /** What the model was told about the user's decisions with this turn (the structured note). */
  note?: string;
  /** A retry of this (failed) turn, or the turn that redirected it. */
  followedBy?: number;
  failure?: TurnFailure;
}

/** A turn but its prose: what a batch sends when a turn's fields change, and what the renderer's view keeps (its prose lives apart). */
export type TurnFields = Omit<TurnView, 'prose' | 'proseTail'>;

/** The model's output rate in a turn, as the pane shows it. */
export interface OutputRate {
  turn: number;
  /** Tokens per second; null when the stream was too short to measure. */
  tokensPerSecond: number | null;
  /**
   * false: an estimate while the turn streams — the text received so far (about 4 bytes a
   * token) over the time from its first delta to its latest; true: the finished request's
   * figure, as the latency HUD shows it (the provider's token count, first to last delta).
   */
  measured: boolean;
}

/**
 * One batched update of a conversation: its turns' changes, prose and hunks (at most one
 * per frame). The whole conversation, when the renderer (re)loads it, is one such update
 * with everything in it (`full`).
 */
export interface AnswerUpdate {
  sessionId: string;
  /** The latest turn's status (the conversation's). */
  status?: AnswerStatus;
  message?: string;
  /** Turns whose fields changed (prose aside), whole. */
  turns?: TurnFields[];
  /** Prose to append, per turn, in order. */
  prose?: { turn: number; text: string }[];
  /** After the prose above (a turn's prose ends its tail): each turn's tail, set (`replace`) or appended to (see TurnView.proseTail). */
  proseTail?: { turn: number; text: string; replace: boolean }[];
  hunks: HunkUpdate[];
  problems?: string[];
  /** The streaming turn's output rate, latest first (not kept: a reloaded conversation has none). */
  rate?: OutputRate;
  /** Everything: the renderer replaces what it has of this conversation. */
  full?: { title: string };
}

/** A conversation in the history list. */
export interface ConversationSummary {
  sessionId: string;
  /** The first question, shortened. */
  title: string;
  createdAtEpochMs: number;
  updatedAtEpochMs: number;
  /** The latest turn's status. */
  status: TurnStatus;
  turns: number;
  /** Hunks awaiting a decision that Accept all would take. */
  pending: number;
  /** Hunks a redirect replaced, still undecided. */
  superseded: number;
}
