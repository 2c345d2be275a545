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
  // The top level only: a million entries would be tens of megabytes; folders are listed as they open.
  // It shows once the root is read, and again (with the index's size) once the whole index is built.
  const sendTopLevel = (): void => ui.emit('project:tree', { projectId, entries: project.topLevel ?? [], entryCount: project.entryCount });
  project.onDidShowTopLevel(sendTopLevel);
  project.onDidLoadTree(sendTopLevel);
  project.onDidChangeTree((changes) => ui.emit('project:changed', { projectId, changes, entryCount: project.entryCount }));
  project.onDidWarn((message) => ui.emit('app:notice', { level: 'warning', message }));
  // A state: the renderer says it once when it starts and shows it for as long as it lasts.
  project.onDidChangeWatchLimit((limit) => ui.emit('project:watchLimit', { projectId, limit }));
  project.onDidChangeCurrentFile((current) => ui.emit('currentFile:changed', current));
}
