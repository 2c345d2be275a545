/**
 * An open project: the toolbar over three columns (the file tree, the file view, the
 * diff pane), the outer two sized by the user with splitters.
 */
import { useEffect, useMemo } from 'react';
import type { UiSettings } from '../../../shared/contract';
import { remember } from '../lib/tab-memory';
import type { ProjectInfo } from '../../../shared/project-types';
import type { ViewState } from '../features/app-state/app-reducer';
import { EditPane } from '../features/edits/EditPane';
import type { AnswerHandle } from '../features/edits/use-answer';
import { FileView, type FileReview } from '../features/file-view/FileView';
import { inlineHunksOf } from '../features/review/inline-hunks';
import { reviewKeyLabels } from '../features/review/review-keys';
import type { ReviewHandle } from '../features/review/use-review';
import { isMac } from '../lib/platform';
import { SizeWarning } from '../features/open-folder/SizeWarning';
import { FileTree } from '../features/tree/FileTree';
import type { TreeModel } from '../features/tree/tree-model';
import { Splitter } from './Splitter';
import { Toolbar } from './Toolbar';
import { usePaneWidths } from './use-pane-widths';
import type { ProjectActions } from './use-project-actions';

export interface ProjectViewProps {
  project: ProjectInfo;
  state: ViewState;
  tree: TreeModel;
  actions: ProjectActions;
  answer: AnswerHandle;
  review: ReviewHandle;
  shortcutLabel: string;
  openFolder: (path: string) => Promise<boolean>;
  updateSettings: (patch: Partial<UiSettings>) => void;
  onOpenSettings: () => void;
  onAsk: () => void;
  onError: (message: string) => void;
  onNotice: (message: string, subject?: string) => void;
}

export function ProjectView({ project, state, tree, actions, answer, review, shortcutLabel, ...props }: ProjectViewProps) {
  const fileReview = useFileReview(answer, review, state.openFile);
  const panes = usePaneWidths();
  // The file on view is kept across a reload of the tab (use-app-state.ts shows it again).
  useEffect(() => {
    if (state.openFile !== null) remember('open-file', project.root, state.openFile);
  }, [project.root, state.openFile]);
  return (
    <>
      <Toolbar
        project={project}
        actions={actions}
        showIgnored={state.settings.showIgnored}
        onShowIgnoredChange={(showIgnored) => props.updateSettings({ showIgnored })}
        openFolder={props.openFolder}
        onOpenSettings={props.onOpenSettings}
        onError={props.onError}
      />
      {state.sizeWarning && (
        <SizeWarning projectId={project.id} root={project.root} warning={state.sizeWarning} entriesFound={state.indexing ?? state.sizeWarning.entriesFound} onError={props.onError} />
      )}
      {/* The one main landmark: the welcome screen has its own (OpenFolder). */}
      <main className="workspace">
        <FileTree
          model={tree}
          version={state.treeVersion}
          showIgnored={state.settings.showIgnored}
          selectedPath={state.openFile}
          onOpenFile={actions.openFile}
          onError={props.onError}
          projectRoot={project.root}
        />
        <Splitter label="Resize the file tree" side="left" width={panes.shown.tree} {...panes.rangeOf('tree')} onResize={(width, isDone) => panes.resize('tree', width, isDone)} />
        {/* A new project starts a fresh file view. */}
        <FileView key={project.id} path={state.openFile} review={fileReview} />
        <Splitter label="Resize the Flint pane" side="right" width={panes.shown.edit} {...panes.rangeOf('edit')} onResize={(width, isDone) => panes.resize('edit', width, isDone)} />
        <EditPane
          currentFile={state.currentFile.path}
          answer={answer}
          review={review}
          shortcutLabel={shortcutLabel}
          onAsk={props.onAsk}
          onOpenSettings={props.onOpenSettings}
        />
      </main>
    </>
  );
}

/** The review's part in the file view: the open file's waiting hunks, the current one, the buttons drawn there. */
function useFileReview(answer: AnswerHandle, review: ReviewHandle, path: string | null): FileReview {
  const hunks = inlineHunksOf(answer.view, answer.lines, path);
  const { decide, setChosen, current, revealTick, surface, pendingFocus } = review;
  const actions = useMemo(() => {
    const labels = reviewKeyLabels(isMac);
    return { accept: (id: string) => void decide('accept', id), reject: (id: string) => void decide('reject', id), enter: setChosen, acceptKey: labels.accept, rejectKey: labels.reject };
  }, [decide, setChosen]);
  return { hunks, current, revealTick, actions, surface, pendingFocus, streaming: answer.view?.status === 'streaming', sessionId: answer.view?.sessionId ?? null };
}
