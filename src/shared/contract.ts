/**
 * The one contract between main and the renderer: every request and every event.
 *
 * Requests are named functions on `window.flint` (the renderer asks, main answers
 * with a `Result`). Main validates each input with the schema declared here before a
 * handler sees it. Events are pushed by main under their channel name. Both shells
 * (Electron IPC and the loopback serve socket) bind this table generically; no
 * other file spells a channel string.
 */
import type {
  AnswerDepth,
  ConnectionState,
  ConnectionTestResult,
  LatencyFigures,
  ModelListView,
  KeyWithheldReason,
  ModelSlot,
  ProviderDraft,
  ProvidersState,
} from './inference-types';
import type { AskFocus, AskOpenRequest, AskScope, AskSubject, HotkeyStatus, LineRange } from './ask-types';
import type { HunkRevision, HunkState } from './edits/hunk-types';
import type { AnswerUpdate, ConversationSummary } from './ask-types';
import type { Result } from './result';
import type {
  CloseReason,
  CurrentFile,
  FileContent,
  FileMatches,
  ProjectInfo,
  SizeWarning,
  TreeChange,
  TreeEntry,
  WatchLimit,
} from './project-types';

/** Which shell hosts the renderer, and what it can do. */
export interface AppInfo {
  shell: 'electron' | 'serve';
  /** A native folder dialog exists (Electron). Otherwise the UI asks for a typed path. */
  canChooseFolder: boolean;
  version: string;
  /**
   * What a desktop shortcut runs to open the ask bar from another app, where the shell
   * cannot take a system-wide shortcut (the serve shell always; Electron when the OS refused
   * it): `flint --ask`, or in the serve shell `kill -USR1 <its pid>`.
   */
  askCommand: string;
}

/** User preferences the renderer reads and writes. Stored in settings.json. */
export interface UiSettings {
  /** Show entries hidden by .gitignore, .git, node_modules and .cache. */
  showIgnored: boolean;
  /** The shortcut that opens the ask bar (Electron accelerator syntax), system-wide and in the app. */
  shortcut: string;
  /**
   * macOS and Windows, which have no desktop-wide selection: read the clipboard when the
   * shortcut fires and use it as the selection. Off unless the user opts in.
   */
  clipboardSelection: boolean;
  /**
   * What every project hides besides its .gitignore files, like VS Code's `files.exclude`:
   * patterns in .gitignore's syntax, one per line, applied at each project's root. A hidden
   * folder is neither read nor watched until the user shows hidden entries and opens it.
   */
  exclude: string[];
}

/** Everything the renderer needs after a (re)load: the open project and its tree's top level if indexed. */
export interface AppState {
  project: ProjectInfo | null;
  /** The tree's top level (folders are listed as they open); null until the first index has read it (progress events follow). */
  tree: TreeEntry[] | null;
  /** How many entries the index holds; null while the first index runs (the top level may show meanwhile). */
  entryCount: number | null;
  /** The open folder is a home folder, `/` or huge, and the user has not said to open it anyway. */
  sizeWarning: SizeWarning | null;
  /** The OS would not watch some of the open folder's folders (they are polled), or null. */
  watchLimit: WatchLimit | null;
  currentFile: CurrentFile;
  recent: string[];
  settings: UiSettings;
  connection: ConnectionStatus;
  /** The figures of the last finished request, for the latency HUD. */
  lastLatency: LatencyFigures | null;
  /** Whether the system-wide shortcut works. */
  hotkey: HotkeyStatus;
}

/** The active provider's connection, as the status bar shows it. */
export interface ConnectionStatus {
  providerId: string;
  state: ConnectionState;
  /** Why, when not ready. */
  message?: string;
}

/** A request that takes no arguments still takes an (empty) object. */
export type NoInput = Record<string, never>;

interface RequestDefinition<Input, Output> {
  channel: string;
  /**
   * One way: the renderer tells main something and waits for nothing. The shells send it
   * without an answer crossing back, and the call resolves at once, sent or (no connection)
   * dropped.
   */
  oneWay?: true;
  /** Phantom: carry the types only; runtime schemas are in contract-schemas.ts. */
  input?: Input;
  output?: Output;
}

function request<Input, Output>(channel: string): RequestDefinition<Input, Output> {
  return { channel };
}

function oneWay<Input>(channel: string): RequestDefinition<Input, null> {
  return { channel, oneWay: true };
}

/**
 * Every request the renderer can make, by the name it has on `window.flint`.
 *
 * Paths are project-relative POSIX paths unless named `folder`; main re-checks each
 * against the project root.
 */
export const requests = {
  /** Which shell this is. */
  getAppInfo: request<NoInput, AppInfo>('app:getInfo'),
  /** The whole state, for a renderer that (re)loads while a project is open. */
  getAppState: request<NoInput, AppState>('app:getState'),
  /** Opens a folder by absolute path (the serve shell's prompt, the Recent list). */
  openProject: request<{ path: string }, ProjectInfo>('project:open'),
  /** Shows the native folder dialog and opens the choice; null if cancelled. Electron only. */
  chooseProjectFolder: request<NoInput, ProjectInfo | null>('project:choose'),
  /** Closes the open project and disposes its watcher (also the Cancel of a size warning). */
  closeProject: request<NoInput, null>('project:close'),
  /** "Open anyway": the project of `projectId` shows its tree and starts watching despite its size warning. */
  openProjectAnyway: request<{ projectId: number }, null>('project:openAnyway'),
  /** One folder's children, as a folder opens in the tree (a hidden one is read from disk). */
  listDirectory: request<{ path: string }, TreeEntry[]>('project:listDirectory'),
  /** The tree's filter over the whole index: files whose path contains `query`, the first `limit` in path order. */
  findFiles: request<{ query: string; showIgnored: boolean; limit: number }, FileMatches>('project:findFiles'),
  /** What the ask bar's `@` completion offers for what was typed after `@`, best first. */
  suggestFiles: request<{ query: string }, string[]>('project:suggestFiles'),
  /** Reads a file for the read-only view. */
  readFile: request<{ path: string }, FileContent>('file:read'),
  /** The user picked a file in Flint: it becomes the current file. */
  selectFile: request<{ path: string }, CurrentFile>('currentFile:select'),
  /** Makes the other candidate current: the focused editor's file ↔ the one last saved or selected (one key in the ask bar). */
  switchCurrentFile: request<NoInput, CurrentFile>('currentFile:switch'),
  /** Forgets one entry of the Recent list (an absolute folder path). */
  removeRecent: request<{ path: string }, string[]>('recent:remove'),
  /** Changes UI preferences; returns them all. */
  updateSettings: request<Partial<UiSettings>, UiSettings>('settings:update'),
  /** Providers, which one is active, where each key comes from (never the key). */
  getProviders: request<NoInput, ProvidersState>('providers:list'),
  /** Makes a provider the active one and warms its connection. */
  setActiveProvider: request<{ providerId: string }, ProvidersState>('providers:setActive'),
  /** Sends a tiny request and reports success or the provider's error in plain words. */
  testConnection: request<{ providerId: string }, ConnectionTestResult>('providers:test'),
  /** Stores (or replaces) a provider's key in the OS keychain. There is no credentials:get. */
  setApiKey: request<{ providerId: string; key: string }, ProvidersState>('credentials:set'),
  /** Removes a provider's key from the keychain. */
  deleteApiKey: request<{ providerId: string }, ProvidersState>('credentials:delete'),
  /**
   * The user lets a provider's held-back key go to the provider's origin, for the reason it
   * was held back (`keyWithheld`): remembered per origin. `origin` is the one the page showed
   * (`keyOrigin`): main refuses if the provider's origin is another by now, never widening a yes.
   */
  allowProviderKey: request<{ providerId: string; reason: KeyWithheldReason; origin: string }, ProvidersState>('credentials:allow'),
  /**
   * Adds a provider (no `providerId`) or replaces one's settings (a preset's edit overrides
   * it). Main validates the draft; a refusal's message says which field and what to type.
   */
  saveProvider: request<{ providerId?: string; draft: ProviderDraft }, ProvidersState>('providers:save'),
  /** Removes a custom provider, or a preset's edit (the preset comes back). Presets stay. */
  removeProvider: request<{ providerId: string }, ProvidersState>('providers:remove'),
  /** Sets a provider's fast or deep model (an empty deep model: none). */
  setProviderModel: request<{ providerId: string; slot: ModelSlot; model: string }, ProvidersState>('providers:setModel'),
  /**
   * The models the provider lists for this key (`GET /models`, cached; `refresh` fetches
   * again); the configured names, with the reason, when it cannot be had. At most 500
   * names: `filter` narrows the list in main.
   */
  listModels: request<{ providerId: string; refresh?: boolean; filter?: string }, ModelListView>('providers:listModels'),
  // The conversation (the ask part of main).
  /**
   * The ask bar opened: warms the connection, pre-loads the current file's context with
   * `focus`, and says what a question would be about (or what blocks it). `subject`:
   * the project instead of the current file; `mentions`: the draft's `@path` mentions as
   * typed, for main to resolve, budget and pre-load with it.
   */
  prepareAsk: request<{ focus: AskFocus; subject?: AskSubject; mentions?: string[] }, AskScope>('ask:prepare'),
  /**
   * Asks about `paths` (default: the current file, focused on `focus`; with `subject:
   * 'project'`, no file but the outline), plus the files the prompt names with `@path`.
   * A question's answer streams as the answer's prose; a change request's hunks arrive
   * too, as `ask:update` events.
   */
  askModel: request<
    { prompt: string; paths?: string[]; focus?: AskFocus; selection?: LineRange; subject?: AskSubject; depth: AnswerDepth; keypressEpochMs?: number; conversationId?: string },
    { sessionId: string }
  >('ask:start'),
  /** Stops the stream at once (Esc); complete hunks stay decidable. */
  stopAnswer: request<{ sessionId: string }, null>('ask:stop'),
  /**
   * Interrupts the streaming answer with a new turn (Enter while it streams): the earlier
   * turns' undecided hunks are superseded, and the model is told what was decided.
   */
  redirectAnswer: request<{ sessionId: string; prompt: string; keypressEpochMs?: number; depth?: AnswerDepth }, null>('ask:redirect'),
  /** Queues a message for when the streaming answer ends (sent at once if it already has). */
  queueAnswer: request<{ sessionId: string; prompt: string; depth?: AnswerDepth }, null>('ask:queue'),
  /** Sends a failed (or stopped) turn's words again, to the same model or the deep one. */
  retryTurn: request<{ sessionId: string; turn: number; depth: AnswerDepth }, null>('ask:retry'),
  /** Stops the countdown to an automatic retry (after a 429). */
  cancelRetry: request<{ sessionId: string }, null>('ask:cancelRetry'),
  /** The open project's conversations, newest first. */
  listConversations: request<NoInput, ConversationSummary[]>('ask:list'),
  /** A whole conversation (turns, prose, every hunk with its lines), as one full update. */
  getConversation: request<{ sessionId: string }, AnswerUpdate>('ask:get'),
  /**
   * The renderer has shown the last `ask:update`: main may send the next at once. One way:
   * at 1,000 tokens/s it goes a few times a frame, and an answer to each was as many more
   * messages for the page to take (one lost with a dropped socket is made good by main's
   * fallback timer, and the resync after the reconnect).
   */
  acknowledgeAnswer: oneWay<{ sessionId: string }>('ask:ack'),
  // Decisions on hunks (the edits part of main).
  /**
   * Writes one complete hunk to disk (atomically, journaled); with a `revision`, only the
   * lines the user chose, or the new text as the user edited it (the model is told).
   */
  acceptHunk: request<{ sessionId: string; hunkId: string; revision?: HunkRevision }, { state: HunkState }>('hunk:accept'),
  /**
   * Takes one accepted hunk back off disk, from its card: its lines return to what they were,
   * as a new change (itself undoable), even when other hunks were written to the file since.
   */
  revertHunk: request<{ sessionId: string; hunkId: string }, { state: HunkState }>('hunk:revert'),
  /** Declines one hunk (or discards a partial one). */
  rejectHunk: request<{ sessionId: string; hunkId: string }, { state: HunkState }>('hunk:reject'),
  /** Takes a rejection back, from the hunk's card: undecided again, planned on its file as it is now (the model is told). */
  restoreHunk: request<{ sessionId: string; hunkId: string }, { state: HunkState }>('hunk:restore'),
  /**
   * Accepts every complete, anchored hunk, as one step for Undo; those in `revisions` as the
   * user revised them (edited in place in the file view).
   */
  acceptAllHunks: request<{ sessionId: string; revisions?: Record<string, HunkRevision> }, { accepted: number }>('hunk:acceptAll'),
  /** Rejects every undecided hunk. */
  rejectAllHunks: request<{ sessionId: string }, { rejected: number }>('hunk:rejectAll'),
  /**
   * Takes back the newest decision: a rejection (its hunks are undecided again) or a change
   * Flint wrote (refused if the file changed since).
   */
  undoDecision: request<NoInput, UndoResult>('hunk:undo'),
  /** Makes again the decision Undo took back last. */
  redoDecision: request<NoInput, UndoResult>('hunk:redo'),
} as const;

/** What an undo or redo did, in words for the UI. */
export interface UndoResult {
  /** done; conflict: the file changed since, nothing written; refused: the path no longer leads inside the project; empty: nothing to do. */
  status: 'done' | 'conflict' | 'refused' | 'empty';
  path?: string;
  message: string;
}

/** Every event main pushes, by channel, with its payload. */
export interface EventPayloads {
  /** A project was opened; its tree follows after indexing. */
  'project:opened': ProjectInfo;
  /** Indexing progress: entries found so far. */
  'project:indexing': { projectId: number; entriesFound: number };
  /** The folder is too large to open without asking (a home folder, `/`, a huge one), or no longer (null: answered). */
  'project:sizeWarning': { projectId: number; warning: SizeWarning | null };
  /** The OS refused to watch some folders (they are polled instead), or every folder is watched again (null). */
  'project:watchLimit': { projectId: number; limit: WatchLimit | null };
  /**
   * The tree's top level: once the first index has read the root (entryCount null: still
   * indexing), again with the index's size once it is built, and after a .gitignore change.
   * Each time, open folders are listed again (listDirectory).
   */
  'project:tree': { projectId: number; entries: TreeEntry[]; entryCount: number | null };
  /** Live changes made by other programs, batched per frame (the renderer keeps those in folders it has listed), and the index's new size. */
  'project:changed': { projectId: number; changes: TreeChange[]; entryCount: number | null };
  /** The project closed; `lost` means its folder was deleted or moved away. */
  'project:closed': { projectId: number; reason: CloseReason; message: string };
  /** The current file changed (selected in Flint or saved elsewhere). */
  'currentFile:changed': CurrentFile;
  /** The Recent list changed. */
  'recent:changed': { recent: string[] };
  /** Something the user should know that is not the answer to a request. */
  'app:notice': { level: 'info' | 'warning' | 'error'; message: string };
  /** The active provider's connection changed. */
  'inference:connection': ConnectionStatus;
  /** Figures of the last finished request (answers and connection tests). */
  'inference:latency': LatencyFigures;
  /** An answer's status, prose and hunks, batched per frame. */
  'ask:update': AnswerUpdate;
  /** The history list changed (newest first). */
  'ask:conversations': ConversationSummary[];
  /** Open the ask bar: the system-wide shortcut, the tray icon, or `flint --ask`. */
  'ask:open': AskOpenRequest;
  /** The system-wide shortcut was registered, or could not be. */
  'hotkey:status': HotkeyStatus;
}

export type EventChannel = keyof EventPayloads;

/** The one IPC channel events travel on in Electron; the payload names the event. */
export const EVENT_ENVELOPE_CHANNEL = 'flint:event';

/** An event on the wire, in either shell. */
export interface EventEnvelope<C extends EventChannel = EventChannel> {
  channel: C;
  payload: EventPayloads[C];
}

export type RequestName = keyof typeof requests;
type DefinitionOf<N extends RequestName> = (typeof requests)[N];
export type RequestInput<N extends RequestName> = Exclude<DefinitionOf<N>['input'], undefined>;
export type RequestOutput<N extends RequestName> = Exclude<DefinitionOf<N>['output'], undefined>;

/** What `window.flint` is, in both shells. */
export type FlintApi = {
  [N in RequestName]: (input: RequestInput<N>) => Promise<Result<RequestOutput<N>>>;
} & {
  /** Subscribes to an event; returns the unsubscribe function. */
  on<C extends EventChannel>(channel: C, listener: (payload: EventPayloads[C]) => void): () => void;
};

/** Finds a request by its channel, for the shells' generic bindings. */
export function findRequestByChannel(channel: string): RequestName | undefined {
  return requestNamesByChannel.get(channel);
}

/** Whether `channel` is a one-way request's (never answered). */
export function isOneWayChannel(channel: string): boolean {
  const name = findRequestByChannel(channel);
  return name !== undefined && (requests[name] as RequestDefinition<unknown, unknown>).oneWay === true;
}

const requestNamesByChannel = new Map<string, RequestName>(
  (Object.keys(requests) as RequestName[]).map((name) => [requests[name].channel, name]),
);
