/**
 * The renderer's state apart from the tree itself (which lives in a mutable TreeModel).
 */
import { DEFAULT_HOTKEY } from '../../../../shared/accelerator';
import type { HotkeyStatus } from '../../../../shared/ask-types';
import type { AppInfo, AppState, ConnectionStatus, UiSettings } from '../../../../shared/contract';
import type { LatencyFigures } from '../../../../shared/inference-types';
import type { CurrentFile, ProjectInfo, SizeWarning, WatchLimit } from '../../../../shared/project-types';
import { sameServeConnection, type ServeConnection } from '../../lib/serve-connection';

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
  /**
   * Set on a notice that stands for an ongoing condition: there is at most one per topic,
   * replaced as the condition changes and removed when it is over, never stacked.
   */
  topic?: NoticeTopic;
  /**
   * What it is about (an undo, the review's next hunk): a newer notice about the same thing
   * replaces it, and it goes when that thing is done (`subjectDone`).
   */
  subject?: string;
}

/** The conditions with a notice of their own. */
export type NoticeTopic =
  /** The serve shell page's connection to Flint is down or over. */
  | 'serve-connection'
  /** The OS would not watch some of the project's folders. */
  | 'watch-limit';

export interface ViewState {
  info: AppInfo | null;
  project: ProjectInfo | null;
  /** Entries found so far while the first index runs; null once the tree is in. */
  indexing: number | null;
  /** The open folder is a home folder, `/` or huge: Flint asks before it shows and watches it. */
  sizeWarning: SizeWarning | null;
  /** The OS would not watch some of the project's folders (they are polled), or null. */
  watchLimit: WatchLimit | null;
  /** Bumped whenever the TreeModel changes. */
  treeVersion: number;
  /** How many entries main's index holds (the tree holds only the folders opened); null before it is built. */
  entryCount: number | null;
  currentFile: CurrentFile;
  recent: string[];
  settings: UiSettings;
  notices: Notice[];
  /** The file shown in the view. */
  openFile: string | null;
  connection: ConnectionStatus | null;
  /** The last request's figures, for the latency HUD. */
  latency: LatencyFigures | null;
  /** Whether the system-wide shortcut works (null until main says). */
  hotkey: HotkeyStatus | null;
  /** The serve shell page's connection to Flint, as last reported (null in Electron). */
  serveConnection: ServeConnection | null;
}

export type ViewAction =
  | { type: 'info'; info: AppInfo }
  | { type: 'state'; state: AppState }
  | { type: 'opened'; project: ProjectInfo }
  | { type: 'indexing'; projectId: number; entriesFound: number }
  | { type: 'sizeWarning'; projectId: number; warning: SizeWarning | null }
  | { type: 'watchLimit'; projectId: number; limit: WatchLimit | null }
  /** The status bar's watch-limit item was pressed: its notice shows again. */
  | { type: 'showWatchLimit' }
  | { type: 'treeChanged'; projectId: number; entryCount: number | null }
  | { type: 'closed'; projectId: number }
  | { type: 'currentFile'; currentFile: CurrentFile }
  | { type: 'recent'; recent: string[] }
  | { type: 'settings'; settings: UiSettings }
  | { type: 'notice'; level: Notice['level']; message: string; subject?: string }
  | { type: 'dismissNotice'; id: number }
  /** What the notices about `subject` say is over (or no longer true): they go. */
  | { type: 'subjectDone'; subject: string }
  | { type: 'openFile'; path: string | null }
  /** A reload shows the file the tab had on view, unless the user opened one meanwhile. */
  | { type: 'openFileIfNone'; path: string }
  | { type: 'connection'; connection: ConnectionStatus }
  | { type: 'latency'; latency: LatencyFigures }
  | { type: 'hotkey'; status: HotkeyStatus }
  /** The serve shell's connection (null in Electron): keeps its one notice in step. */
  | { type: 'serveConnection'; connection: ServeConnection | null };

export const initialViewState: ViewState = {
  info: null,
  project: null,
  indexing: null,
  sizeWarning: null,
  watchLimit: null,
  treeVersion: 0,
  entryCount: null,
  currentFile: { path: null, source: null, at: 0 },
  recent: [],
  settings: { showIgnored: false, shortcut: DEFAULT_HOTKEY, clipboardSelection: false, exclude: [] },
  notices: [],
  openFile: null,
  connection: null,
  latency: null,
  hotkey: null,
  serveConnection: null,
};

/** How many notices stay on screen; older ones drop off, a topic's notice never does. */
const NOTICE_LIMIT = 4;
let nextNoticeId = 1;

export function viewReducer(state: ViewState, action: ViewAction): ViewState {
  const isCurrent = (projectId: number): boolean => state.project?.id === projectId;
  switch (action.type) {
    case 'info':
      return { ...state, info: action.info };
    case 'state':
      return {
        ...state,
        project: action.state.project,
        // Another project than the one shown (a reconnect after a switch): its file is not on view.
        openFile: action.state.project?.id === state.project?.id ? state.openFile : null,
        indexing: action.state.project && action.state.entryCount === null ? (state.indexing ?? action.state.sizeWarning?.entriesFound ?? 0) : null,
        entryCount: action.state.entryCount,
        sizeWarning: action.state.sizeWarning,
        watchLimit: action.state.watchLimit,
        // A page that loads into the limit has not said it yet (after a reload, it says it again: the condition is still on).
        notices: withWatchLimitNotice(state.notices, action.state.watchLimit, state.watchLimit === null),
        currentFile: action.state.currentFile,
        recent: action.state.recent,
        settings: action.state.settings,
        treeVersion: state.treeVersion + 1,
        connection: action.state.connection,
        latency: action.state.lastLatency ?? state.latency,
        hotkey: action.state.hotkey,
      };
    case 'opened':
      return { ...state, project: action.project, indexing: 0, sizeWarning: null, watchLimit: null, notices: withWatchLimitNotice(state.notices, null, false), openFile: null, treeVersion: state.treeVersion + 1, entryCount: null };
    case 'indexing':
      return isCurrent(action.projectId) && state.indexing !== null ? { ...state, indexing: action.entriesFound } : state;
    case 'sizeWarning':
      return isCurrent(action.projectId) ? { ...state, sizeWarning: action.warning } : state;
    case 'watchLimit':
      if (!isCurrent(action.projectId)) return state;
      return { ...state, watchLimit: action.limit, notices: withWatchLimitNotice(state.notices, action.limit, state.watchLimit === null) };
    case 'showWatchLimit':
      return { ...state, notices: withWatchLimitNotice(state.notices, state.watchLimit, true) };
    case 'treeChanged':
      if (!isCurrent(action.projectId)) return state;
      // The index's size comes once it is built: until then, the count found so far stands.
      return { ...state, treeVersion: state.treeVersion + 1, indexing: action.entryCount !== null ? null : state.indexing, entryCount: action.entryCount };
    case 'closed':
      if (!isCurrent(action.projectId)) return state;
      return { ...state, project: null, indexing: null, entryCount: null, sizeWarning: null, watchLimit: null, notices: withWatchLimitNotice(state.notices, null, false), openFile: null };
    case 'currentFile':
      return { ...state, currentFile: action.currentFile };
    case 'recent':
      return { ...state, recent: action.recent };
    case 'settings':
      return { ...state, settings: action.settings };
    case 'notice':
      return { ...state, notices: withNotice(state.notices, action) };
    case 'dismissNotice':
      return { ...state, notices: state.notices.filter((notice) => notice.id !== action.id) };
    case 'subjectDone':
      return state.notices.some((notice) => notice.subject === action.subject) ? { ...state, notices: state.notices.filter((notice) => notice.subject !== action.subject) } : state;
    case 'openFile':
      return { ...state, openFile: action.path };
    case 'openFileIfNone':
      return state.openFile === null && state.project !== null ? { ...state, openFile: action.path } : state;
    case 'connection':
      return { ...state, connection: action.connection };
    case 'latency':
      return { ...state, latency: action.latency };
    case 'hotkey':
      return { ...state, hotkey: action.status };
    case 'serveConnection':
      // A repeat changes nothing: not even a notice the user dismissed comes back.
      if (sameServeConnection(state.serveConnection, action.connection)) return state;
      return { ...state, serveConnection: action.connection, notices: withServeConnectionNotice(state.notices, action.connection) };
    default: {
      const exhaustive: never = action;
      return exhaustive;
    }
  }
}

/** The notices with a new one: in place of the one about the same subject (its clock starts again), else newest last. */
function withNotice(notices: Notice[], { level, message, subject }: Extract<ViewAction, { type: 'notice' }>): Notice[] {
  const notice: Notice = { id: nextNoticeId++, level, message, ...(subject !== undefined ? { subject } : {}) };
  const same = subject === undefined ? -1 : notices.findIndex((shown) => shown.subject === subject);
  if (same !== -1) return notices.map((shown, index) => (index === same ? notice : shown));
  // The same words twice say nothing new (a request failing for the reason a notice already gives).
  if (notices.some((shown) => shown.message === message)) return notices;
  return trimNotices([...notices, notice]);
}

/**
 * The watch limit's notice: said when the limit is first hit (`isNew`) or asked for again,
 * kept up to date while it is shown, gone once every folder is watched again. Dismissed,
 * it stays away: the status bar keeps showing the state.
 */
function withWatchLimitNotice(notices: Notice[], limit: WatchLimit | null, isNew: boolean): Notice[] {
  const existing = notices.find((notice) => notice.topic === 'watch-limit');
  if (limit === null) return existing ? notices.filter((notice) => notice !== existing) : notices;
  if (existing) return notices.map((notice) => (notice === existing ? { ...existing, message: limit.message } : notice));
  return isNew ? trimNotices([...notices, { id: nextNoticeId++, level: 'warning', message: limit.message, topic: 'watch-limit' }]) : notices;
}

/** Drops the oldest notices past `NOTICE_LIMIT`, but never a topic's: it goes when its condition does. */
function trimNotices(notices: Notice[]): Notice[] {
  const kept = [...notices];
  while (kept.length > NOTICE_LIMIT) {
    const oldest = kept.findIndex((notice) => !notice.topic);
    if (oldest === -1) break;
    kept.splice(oldest, 1);
  }
  return kept;
}

/** The notices with the serve connection's one notice added, replaced in place, or removed. */
function withServeConnectionNotice(notices: Notice[], connection: ServeConnection | null): Notice[] {
  const existing = notices.find((notice) => notice.topic === 'serve-connection');
  if (connection === null || connection.state === 'connected' || connection.state === 'connecting') {
    return existing ? notices.filter((notice) => notice !== existing) : notices;
  }
  // Still reconnecting is a warning; once the user must act, an error.
  const level: Notice['level'] = connection.state === 'reconnecting' ? 'warning' : 'error';
  const notice: Notice = { id: existing?.id ?? nextNoticeId++, level, message: connection.message, topic: 'serve-connection' };
  // A request that failed for this very reason may have said so first: one notice says it once.
  const others = notices.filter((other) => other.topic === 'serve-connection' || other.message !== connection.message);
  return existing ? others.map((other) => (other === existing ? notice : other)) : trimNotices([...others, notice]);
}
