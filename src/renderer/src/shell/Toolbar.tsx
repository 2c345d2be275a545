/**
 * The project's toolbar: its name, Show ignored files, the path field (shells without a
 * folder dialog), Open Folder…, Close and Settings.
 */
import type { ProjectInfo } from '../../../shared/project-types';
import { FolderPathForm } from '../features/open-folder/FolderPathForm';
import type { ProjectActions } from './use-project-actions';

export interface ToolbarProps {
  project: ProjectInfo;
  actions: ProjectActions;
  showIgnored: boolean;
  onShowIgnoredChange: (showIgnored: boolean) => void;
  openFolder: (path: string) => Promise<boolean>;
  onOpenSettings: () => void;
  onError: (message: string) => void;
}

export function Toolbar({ project, actions, showIgnored, onShowIgnoredChange, openFolder, onOpenSettings, onError }: ToolbarProps) {
  return (
    <header className="toolbar">
      <span className="project-name" title={project.root}>
        {project.name}
      </span>
      {/* Named for what it does: dotfiles show either way; what the ignore rules hide does not. */}
      <label className="toggle" title="Show what .gitignore excludes, and .git, node_modules and .cache">
        <input type="checkbox" checked={showIgnored} onChange={(event) => onShowIgnoredChange(event.target.checked)} />
        Show ignored files
      </label>
      <span className="spacer" />
      {actions.isPromptOpen && <FolderPathForm openFolder={openFolder} onError={onError} autoFocus onDone={actions.closePrompt} />}
      <button type="button" onClick={actions.openFolderFromToolbar}>
        Open Folder…
      </button>
      <button type="button" onClick={actions.closeProject}>
        Close
      </button>
      <button type="button" onClick={onOpenSettings} title="Settings (Ctrl+,)">
        Settings
      </button>
    </header>
  );
}
