/**
 * Opening and closing projects and files from the shell: the native folder dialog where
 * the shell has one (Electron), else a typed path (the serve shell's path field in the
 * toolbar, or the welcome screen's).
 */
import { useCallback, useState } from 'react';
import type { ViewAction } from '../features/app-state/app-reducer';
import { flint } from '../lib/flint';

export interface ProjectActionsOptions {
  /** The shell has a native folder dialog. */
  canChooseFolder: boolean;
  hasProject: boolean;
  dispatch: (action: ViewAction) => void;
  reportError: (message: string) => void;
  /** Puts focus in the welcome screen's path field (no project, no folder dialog). */
  focusFolderField: () => void;
}

export interface ProjectActions {
  /** The toolbar's path field is shown (shells without a folder dialog). */
  isPromptOpen: boolean;
  closePrompt: () => void;
  /** The native folder dialog (Electron only). */
  chooseFolder: () => void;
  /** Shows a file and makes it the current file. */
  openFile: (path: string) => void;
  /** The toolbar's Open Folder…: the dialog, or show (hide) the path field. */
  openFolderFromToolbar: () => void;
  /** The ask bar's Open Folder…: the dialog, or a path field with focus in it (the toolbar's, or the welcome screen's). */
  openFolderFromBar: () => void;
  closeProject: () => void;
}

export function useProjectActions({ canChooseFolder, hasProject, dispatch, reportError, focusFolderField }: ProjectActionsOptions): ProjectActions {
  const [isPromptOpen, setPromptOpen] = useState(false);

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

  return {
    isPromptOpen,
    closePrompt: () => setPromptOpen(false),
    chooseFolder,
    openFile,
    openFolderFromToolbar: () => (canChooseFolder ? chooseFolder() : setPromptOpen((open) => !open)),
    openFolderFromBar: () => {
      if (canChooseFolder) chooseFolder();
      else if (hasProject) setPromptOpen(true);
      else focusFolderField();
    },
    closeProject: () => void flint.closeProject({}),
  };
}
