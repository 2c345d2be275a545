/**
 * The renderer's state apart from the tree itself (which lives in a mutable TreeModel).
 */
import { DEFAULT_HOTKEY } from '../../../../shared/accelerator';
import type { HotkeyStatus } from '../../../../shared/ask-types';
import type { AppInfo, AppState, ConnectionStatus, UiSettings } from '../../../../shared/contract';
import type { LatencyFigures } from '../../../../shared/inference-types';
import type { CurrentFile, ProjectInfo } from '../../../../shared/project-types';

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
}

export interface ViewState {
  info: AppInfo | null;
  project: ProjectInfo | null;
  /** Entries found so far while the first index runs; null once the tree is in. */
  indexing: number | null;
  /** Bumped whenever the TreeModel changes. */
  treeVersion: number;
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
}

export type ViewAction =
  | { type: 'info'; info: AppInfo }
  | { type: 'state'; state: AppState }
  | { type: 'opened'; project: ProjectInfo }
  | { type: 'indexing'; projectId: number; entriesFound: number }
  | { type: 'treeChanged'; projectId: number; complete: boolean }
  | { type: 'closed'; projectId: number }
  | { type: 'currentFile'; currentFile: CurrentFile }
  | { type: 'recent'; recent: string[] }
  | { type: 'settings'; settings: UiSettings }
  | { type: 'notice'; level: Notice['level']; message: string }
  | { type: 'dismissNotice'; id: number }
  | { type: 'openFile'; path: string | null }
  | { type: 'connection'; connection: ConnectionStatus }
  | { type: 'latency'; latency: LatencyFigures }
  | { type: 'hotkey'; status: HotkeyStatus };

export const initialViewState: ViewState = {
  info: null,
  project: null,
  indexing: null,
  treeVersion: 0,
  currentFile: { path: null, source: null, at: 0 },
  recent: [],
  settings: { showIgnored: false, shortcut: DEFAULT_HOTKEY },
  notices: [],
  openFile: null,
  connection: null,
  latency: null,
  hotkey: null,
};

/** How many notices stay on screen; older ones drop off. */
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
        indexing: action.state.project && !action.state.tree ? (state.indexing ?? 0) : null,
        currentFile: action.state.currentFile,
        recent: action.state.recent,
        settings: action.state.settings,
        treeVersion: state.treeVersion + 1,
        connection: action.state.connection,
        latency: action.state.lastLatency ?? state.latency,
        hotkey: action.state.hotkey,
      };
    case 'opened':
      return { ...state, project: action.project, indexing: 0, openFile: null, treeVersion: state.treeVersion + 1 };
    case 'indexing':
      return isCurrent(action.projectId) && state.indexing !== null ? { ...state, indexing: action.entriesFound } : state;
    case 'treeChanged':
      if (!isCurrent(action.projectId)) return state;
      return { ...state, treeVersion: state.treeVersion + 1, indexing: action.complete ? null : state.indexing };
    case 'closed':
      return isCurrent(action.projectId) ? { ...state, project: null, indexing: null, openFile: null } : state;
    case 'currentFile':
      return { ...state, currentFile: action.currentFile };
    case 'recent':
      return { ...state, recent: action.recent };
    case 'settings':
      return { ...state, settings: action.settings };
    case 'notice': {
      const notice = { id: nextNoticeId++, level: action.level, message: action.message };
      return { ...state, notices: [...state.notices, notice].slice(-NOTICE_LIMIT) };
    }
    case 'dismissNotice':
      return { ...state, notices: state.notices.filter((notice) => notice.id !== action.id) };
    case 'openFile':
      return { ...state, openFile: action.path };
    case 'connection':
      return { ...state, connection: action.connection };
    case 'latency':
      return { ...state, latency: action.latency };
    case 'hotkey':
      return { ...state, hotkey: action.status };
    default: {
      const exhaustive: never = action;
      return exhaustive;
    }
  }
}
