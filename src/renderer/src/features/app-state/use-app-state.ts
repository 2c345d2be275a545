/**
 * Connects the renderer to main: loads the state, follows every event, owns the TreeModel.
 */
import { startTransition, useCallback, useEffect, useReducer, useRef, type Dispatch } from 'react';
import type { UiSettings } from '../../../../shared/contract';
import { flint } from '../../lib/flint';
import { RECONNECTED_EVENT } from '../../lib/serve-bridge';
import { isString, recall } from '../../lib/tab-memory';
import { useServeConnection } from '../../lib/serve-connection-store';
import { TreeModel } from '../tree/tree-model';
import { initialViewState, viewReducer, type ViewAction, type ViewState } from './app-reducer';

export interface AppStateHandle {
  state: ViewState;
  tree: TreeModel;
  dispatch: (action: ViewAction) => void;
  /** Shows a failure from a request as a notice. */
  reportError: (message: string) => void;
  /** Shows an outcome worth a word (an undo done) as a notice that goes by itself; `subject`: what it is about (see Notice). */
  reportInfo: (message: string, subject?: string) => void;
  dismissNotice: (id: number) => void;
  /** Shows the watch limit's notice again (the status bar's item). */
  showWatchLimit: () => void;
  openFolder: (path: string) => Promise<boolean>;
  updateSettings: (patch: Partial<UiSettings>) => void;
}

export function useAppState(): AppStateHandle {
  const [state, dispatch] = useReducer(viewReducer, initialViewState);
  const treeRef = useRef<TreeModel>(null);
  treeRef.current ??= new TreeModel();
  const tree = treeRef.current;

  const reportError = useCallback((message: string) => dispatch({ type: 'notice', level: 'error', message }), []);
  const reportInfo = useCallback((message: string, subject?: string) => dispatch({ type: 'notice', level: 'info', message, ...(subject !== undefined ? { subject } : {}) }), []);
  const dismissNotice = useCallback((id: number) => dispatch({ type: 'dismissNotice', id }), []);
  const showWatchLimit = useCallback(() => dispatch({ type: 'showWatchLimit' }), []);

  useMainEvents(tree, dispatch, reportError);
  const serveConnection = useServeConnection();
  // One notice while the serve shell's page cannot reach Flint, replaced as that changes: never one per retry.
  useEffect(() => dispatch({ type: 'serveConnection', connection: serveConnection }), [serveConnection]);

  const openFolder = useCallback(
    async (path: string): Promise<boolean> => {
      const result = await flint.openProject({ path });
      if (!result.ok) reportError(result.error.message);
      return result.ok;
    },
    [reportError],
  );

  const settingsRef = useRef(state.settings);
  settingsRef.current = state.settings;
  const updateSettings = useCallback(
    (patch: Partial<UiSettings>) => {
      // Optimistic: the toggle flips at once; a failed save flips it back.
      const previous = settingsRef.current;
      dispatch({ type: 'settings', settings: { ...previous, ...patch } });
      void flint.updateSettings(patch).then((result) => {
        // Main's answer is authoritative (a shortcut the system refused is not taken).
        if (result.ok) return dispatch({ type: 'settings', settings: result.value });
        dispatch({ type: 'settings', settings: previous });
        reportError(result.error.message);
      });
    },
    [reportError],
  );

  return { state, tree, dispatch, reportError, reportInfo, dismissNotice, showWatchLimit, openFolder, updateSettings };
}

/** Loads main's state (again after the serve shell reconnects) and follows every event main pushes. */
function useMainEvents(tree: TreeModel, dispatch: Dispatch<ViewAction>, reportError: (message: string) => void): void {
  useEffect(() => {
    // The project the tree shows: events of any other (a late one of a closed project) leave it alone.
    let shown: number | null = null;
    const load = async (): Promise<void> => {
      const result = await flint.getAppState({});
      if (!result.ok) return reportError(result.error.message);
      shown = result.value.project?.id ?? null;
      if (result.value.tree) tree.load(result.value.tree);
      else tree.load([]);
      dispatch({ type: 'state', state: result.value });
      // A reload shows the file this tab had on view (if the project still has it).
      const project = result.value.project;
      const wasOpen = project ? recall('open-file', project.root, isString) : null;
      // The file view says so if it is gone since.
      if (wasOpen !== null) dispatch({ type: 'openFileIfNone', path: wasOpen });
    };
    const subscriptions = [
      flint.on('project:opened', (project) => {
        shown = project.id;
        tree.load([]);
        dispatch({ type: 'opened', project });
      }),
      flint.on('project:indexing', ({ projectId, entriesFound }) => dispatch({ type: 'indexing', projectId, entriesFound })),
      flint.on('project:sizeWarning', ({ projectId, warning }) => dispatch({ type: 'sizeWarning', projectId, warning })),
      flint.on('project:watchLimit', ({ projectId, limit }) => dispatch({ type: 'watchLimit', projectId, limit })),
      flint.on('project:tree', ({ projectId, entries, entryCount }) => {
        if (projectId === shown) tree.load(entries);
        dispatch({ type: 'treeChanged', projectId, entryCount });
      }),
      flint.on('project:changed', ({ projectId, changes, entryCount }) => {
        // Files saved over (a log written all the time) change no row: nothing to draw or search again.
        if (changes.every((change) => change.type === 'modified')) return;
        if (projectId === shown) tree.apply(changes);
        dispatch({ type: 'treeChanged', projectId, entryCount });
      }),
      flint.on('project:closed', ({ projectId, reason, message }) => {
        if (projectId === shown) {
          shown = null;
          tree.load([]);
        }
        dispatch({ type: 'closed', projectId });
        if (reason === 'lost') dispatch({ type: 'notice', level: 'error', message });
      }),
      flint.on('currentFile:changed', (currentFile) => dispatch({ type: 'currentFile', currentFile })),
      flint.on('recent:changed', ({ recent }) => dispatch({ type: 'recent', recent })),
      flint.on('app:notice', ({ level, message }) => dispatch({ type: 'notice', level, message })),
      flint.on('inference:connection', (connection) => dispatch({ type: 'connection', connection })),
      // An app-wide render for the HUD: a transition, which yields to what streams (an answer's last words) rather than holding it back.
      flint.on('inference:latency', (latency) => startTransition(() => dispatch({ type: 'latency', latency }))),
      flint.on('hotkey:status', (status) => dispatch({ type: 'hotkey', status })),
    ];
    const loadInfo = (): void => void flint.getAppInfo({}).then((result) => result.ok && dispatch({ type: 'info', info: result.value }));
    // The first answers may have been lost with the connection (a page that only reached Flint later).
    const onReconnected = (): void => {
      loadInfo();
      void load();
    };
    window.addEventListener(RECONNECTED_EVENT, onReconnected);
    loadInfo();
    void load();
    return () => {
      for (const unsubscribe of subscriptions) unsubscribe();
      window.removeEventListener(RECONNECTED_EVENT, onReconnected);
    };
  }, [tree, dispatch, reportError]);
}
