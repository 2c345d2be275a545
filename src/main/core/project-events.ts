/**
 * What an open project tells the UI: each of its typed events becomes one contract event.
 * The subscriptions live on the project's own emitters and go with it.
 */
import type { OpenProject } from '../workspace/open-project';
import type { UiEvents } from './ui-events';

export function forwardProjectEvents(project: OpenProject, ui: UiEvents): void {
  const projectId = project.info.id;
  project.onDidIndexProgress((entriesFound) => ui.emit('project:indexing', { projectId, entriesFound }));
  project.onDidChangeSizeWarning((warning) => ui.emit('project:sizeWarning', { projectId, warning }));
  project.onDidLoadTree((entries) => ui.emit('project:tree', { projectId, entries }));
  project.onDidChangeTree((changes) => ui.emit('project:changed', { projectId, changes }));
  project.onDidWarn((message) => ui.emit('app:notice', { level: 'warning', message }));
  // A state: the renderer says it once when it starts and shows it for as long as it lasts.
  project.onDidChangeWatchLimit((limit) => ui.emit('project:watchLimit', { projectId, limit }));
  project.onDidChangeCurrentFile((current) => ui.emit('currentFile:changed', current));
}
