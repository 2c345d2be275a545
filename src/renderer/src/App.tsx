/**
 * The app shell: welcome screen or project view, notices, status bar, and the ask bar
 * and Settings over them. State and actions come from hooks; the pieces from shell/ and
 * features/.
 */
import { useEffect, useMemo, useRef } from 'react';
import { formatAccelerator } from '../../shared/accelerator';
import { useAppState } from './features/app-state/use-app-state';
import { AskBar } from './features/ask-bar/AskBar';
import { useAskBar } from './features/ask-bar/use-ask-bar';
import { useAnswer } from './features/edits/use-answer';
import { Notices } from './features/notices/Notices';
import { OpenFolder } from './features/open-folder/OpenFolder';
import { NOTICE_SUBJECTS, useReview } from './features/review/use-review';
import { SettingsDialog } from './features/settings/SettingsDialog';
import { ShortcutsSheet } from './features/shortcuts/ShortcutsSheet';
import { StatusBar } from './features/status-bar/StatusBar';
import { isMac } from './lib/platform';
import { ProjectView } from './shell/ProjectView';
import { useProjectActions } from './shell/use-project-actions';
import { useSettingsDialog } from './shell/use-settings-dialog';

export function App() {
  const { state, tree, dispatch, reportError, reportInfo, dismissNotice, showWatchLimit, openFolder, updateSettings } = useAppState();
  const settings = useSettingsDialog();
  const answer = useAnswer(reportError);
  const bar = useAskBar(state.settings.shortcut, state.currentFile.at, state.project?.id ?? null);
  const canChooseFolder = state.info?.canChooseFolder ?? false;
  const folderField = useRef<HTMLInputElement>(null);
  // After the bar that asked for it has closed (and given focus back where it was).
  const focusFolderField = () => requestAnimationFrame(() => folderField.current?.focus());
  const actions = useProjectActions({ canChooseFolder, hasProject: state.project !== null, dispatch, reportError, focusFolderField });
  const review = useReview({ answer, openFile: actions.openFile, fileOnView: state.openFile, onError: reportError, onNotice: reportInfo });
  const shortcutLabel = useMemo(() => formatAccelerator(state.settings.shortcut, isMac), [state.settings.shortcut]);
  const systemWide = state.hotkey?.state === 'registered';
  // "No hunk is waiting" is over once one is.
  const isHunkWaiting = review.current !== null;
  useEffect(() => void (isHunkWaiting && dispatch({ type: 'subjectDone', subject: NOTICE_SUBJECTS.nothingWaits })), [isHunkWaiting, dispatch]);

  return (
    <div className={state.project && state.sizeWarning ? 'app has-size-warning' : 'app'}>
      {state.project ? (
        <ProjectView
          project={state.project}
          state={state}
          tree={tree}
          actions={actions}
          answer={answer}
          review={review}
          shortcutLabel={shortcutLabel}
          openFolder={openFolder}
          updateSettings={updateSettings}
          onOpenSettings={settings.open}
          onAsk={() => bar.open()}
          onError={reportError}
          onNotice={reportInfo}
        />
      ) : (
        <OpenFolder
          canChooseFolder={canChooseFolder}
          recent={state.recent}
          openFolder={openFolder}
          chooseFolder={actions.chooseFolder}
          onError={reportError}
          fieldRef={folderField}
          steps={{ hasKey: state.connection !== null && state.connection.state !== 'no-key', shortcutLabel, systemWide, askCommand: state.info?.askCommand ?? null, onAddKey: settings.openAtKey }}
        />
      )}
      <Notices notices={state.notices} onDismiss={dismissNotice} />
      <StatusBar indexing={state.indexing} isScanHeld={state.sizeWarning?.scanDone ?? false} entryCount={state.project ? (state.entryCount ?? 0) : null} currentFile={state.currentFile} connection={state.connection} latency={state.latency} watchLimit={state.watchLimit} onOpenSettings={settings.open} onShowWatchLimit={showWatchLimit} />
      {bar.isOpen && (
        <AskBar
          bar={bar}
          currentFile={state.project ? state.currentFile.path : null}
          // Known at once: the bar does not jump from the middle to the file view as its scope loads.
          hasProject={state.project !== null}
          shortcutLabel={shortcutLabel}
          systemWide={systemWide}
          answer={answer}
          onOpenSettings={closingFirst(bar, settings.open)}
          onOpenKey={closingFirst(bar, settings.openAtKey)}
          onOpenFolder={closingFirst(bar, actions.openFolderFromBar)}
          focusAfterClose={review.focusCurrent}
        />
      )}
      {review.isSheetOpen && <ShortcutsSheet askShortcut={shortcutLabel} systemWide={systemWide} onClose={review.closeSheet} />}
      {settings.isOpen && (
        <SettingsDialog
          onClose={settings.close}
          isAtKey={settings.isAtKey}
          shortcut={state.settings.shortcut}
          hotkey={state.hotkey}
          onChangeShortcut={(shortcut) => updateSettings({ shortcut })}
          clipboardSelection={state.settings.clipboardSelection}
          onChangeClipboardSelection={(clipboardSelection) => updateSettings({ clipboardSelection })}
          exclude={state.settings.exclude}
          onChangeExclude={(exclude) => updateSettings({ exclude })}
        />
      )}
    </div>
  );
}

/** The bar's way-out buttons close it first, then do what they say. */
function closingFirst(bar: { close: () => void }, next: () => void): () => void {
  return () => {
    bar.close();
    next();
  };
}
