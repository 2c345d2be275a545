/**
 * The app shell: welcome screen or project view, notices, status bar.
 */
import { useCallback, useEffect, useState } from 'react';
import { formatAccelerator } from '../../shared/accelerator';
import { useAppState } from './features/app-state/use-app-state';
import { AskBar } from './features/ask-bar/AskBar';
import { useAskBar } from './features/ask-bar/use-ask-bar';
import { EditPane } from './features/edits/EditPane';
import { useEditSession } from './features/edits/use-edit-session';
import { FileView } from './features/file-view/FileView';
import { FolderPathForm } from './features/open-folder/FolderPathForm';
import { OpenFolder } from './features/open-folder/OpenFolder';
import { SettingsDialog } from './features/settings/SettingsDialog';
import { StatusBar } from './features/status-bar/StatusBar';
import { FileTree } from './features/tree/FileTree';
import { flint } from './lib/flint';
import { isMac } from './lib/platform';

export function App() {
  const { state, tree, dispatch, reportError, openFolder, updateSettings } = useAppState();
  const [isPromptOpen, setPromptOpen] = useState(false);
  const [isSettingsOpen, setSettingsOpen] = useState(false);
  const edit = useEditSession(reportError);
  const bar = useAskBar(state.settings.shortcut, state.currentFile.at, state.project?.id ?? null);
  const shortcutLabel = formatAccelerator(state.settings.shortcut, isMac);

  useEffect(() => {
    // Ctrl+, (Cmd+, on macOS) opens Settings, as in most editors.
    const onKeyDown = (event: KeyboardEvent): void => {
      if ((event.ctrlKey || event.metaKey) && event.key === ',') {
        event.preventDefault();
        setSettingsOpen(true);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  const canChooseFolder = state.info?.canChooseFolder ?? false;

  const chooseFolder = useCallback(() => {
    void flint.chooseProjectFolder({}).then((result) => !result.ok && reportError(result.error.message));
  }, [reportError]);

  const openFile = useCallback(
    (path: string) => {
      dispatch({ type: 'openFile', path });
      void flint.selectFile({ path }).then((result) => !result.ok && reportError(result.error.message));
    },
    [dispatch, reportError],
  );

  return (
    <div className="app">
      {state.project ? (
        <>
          <header className="toolbar">
            <span className="project-name" title={state.project.root}>
              {state.project.name}
            </span>
            <label className="toggle">
              <input
                type="checkbox"
                checked={state.settings.showIgnored}
                onChange={(event) => updateSettings({ showIgnored: event.target.checked })}
              />
              Show hidden files
            </label>
            <span className="spacer" />
            {isPromptOpen && (
              <FolderPathForm openFolder={openFolder} onError={reportError} autoFocus onDone={() => setPromptOpen(false)} />
            )}
            <button type="button" onClick={() => (canChooseFolder ? chooseFolder() : setPromptOpen((open) => !open))}>
              Open Folder…
            </button>
            <button type="button" onClick={() => void flint.closeProject({})}>
              Close
            </button>
            <button type="button" onClick={() => setSettingsOpen(true)} title="Settings (Ctrl+,)">
              Settings
            </button>
          </header>
          <div className="workspace">
            <FileTree
              model={tree}
              version={state.treeVersion}
              showIgnored={state.settings.showIgnored}
              selectedPath={state.openFile}
              onOpenFile={openFile}
              onError={reportError}
            />
            <FileView key={state.project.id} path={state.openFile} />
            <EditPane
              currentFile={state.currentFile.path}
              edit={edit}
              shortcutLabel={shortcutLabel}
              onAsk={() => bar.open()}
              onError={reportError}
              onNotice={(message) => dispatch({ type: 'notice', level: 'info', message })}
            />
          </div>
        </>
      ) : (
        <OpenFolder
          canChooseFolder={canChooseFolder}
          recent={state.recent}
          openFolder={openFolder}
          chooseFolder={chooseFolder}
          onError={reportError}
        />
      )}
      {state.notices.length > 0 && (
        <ul className="notices" aria-label="Notices">
          {state.notices.map((notice) => (
            <li key={notice.id} className={`notice notice-${notice.level}`} role={notice.level === 'error' ? 'alert' : 'status'}>
              <span>{notice.message}</span>
              <button
                type="button"
                className="icon"
                aria-label="Dismiss"
                onClick={() => dispatch({ type: 'dismissNotice', id: notice.id })}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <StatusBar
        indexing={state.indexing}
        entryCount={tree.size}
        currentFile={state.currentFile}
        connection={state.connection}
        latency={state.latency}
        onOpenSettings={() => setSettingsOpen(true)}
      />
      {bar.isOpen && (
        <AskBar
          bar={bar}
          currentFile={state.project ? state.currentFile.path : null}
          shortcutLabel={shortcutLabel}
          systemWide={state.hotkey?.state === 'registered'}
          edit={edit}
          onOpenSettings={() => {
            bar.close();
            setSettingsOpen(true);
          }}
          onOpenFolder={() => {
            bar.close();
            if (canChooseFolder) chooseFolder();
            else if (state.project) setPromptOpen(true);
          }}
        />
      )}
      {isSettingsOpen && (
        <SettingsDialog
          onClose={() => setSettingsOpen(false)}
          shortcut={state.settings.shortcut}
          hotkey={state.hotkey}
          onChangeShortcut={(shortcut) => updateSettings({ shortcut })}
        />
      )}
    </div>
  );
}
