/**
 * What the desktop says when the shortcut is pressed: the focused editor window's file
 * and the user's selection. Both are read at once, in parallel with the bar being shown
 * (the shell does not wait for them); the ask bar's scope waits for the lookup (bounded by
 * the readers' timeouts), so it describes the file the user was looking at.
 */
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import type { DesktopReaders } from '../desktop/desktop-readers';
import { readEditorTitle } from '../desktop/editor-titles';
import { selectionOf, type SelectionRead } from '../desktop/primary-selection';
import { findSelection } from '../context/selection-lines';
import type { Logger } from '../logger';
import type { OpenProject } from '../workspace/open-project';
import { fileFromTitle, notAnEditorNote, windowNoteFor } from './focused-file';

/** The user's selection as the ask bar shows it. */
export type SelectionScope =
  | { kind: 'lines'; startLine: number; endLine: number }
  | { kind: 'note'; message: string };

export class DesktopLookup {
  private pending: Promise<void> = Promise.resolve();
  private selection: SelectionRead = { kind: 'none' };
  /** The focused editor's file at the last lookup: the only file the selection can be of. */
  private selectionFile: string | null = null;
  private lookups = 0;

  constructor(
    private readonly readers: DesktopReaders,
    private readonly project: () => OpenProject | null,
    private readonly logger: Logger,
  ) {}

  /** Counts lookups: a scope prepared before one is not the scope after it (the selection may differ). */
  get generation(): number {
    return this.lookups;
  }

  /** Starts reading the focused window and the selection, now; the current file follows when they answer. */
  begin(): void {
    const project = this.project();
    const window = this.readers.focusedWindow?.() ?? null;
    const selection = this.readSelection();
    this.selection = { kind: 'none' };
    this.selectionFile = null;
    const lookup = ++this.lookups;
    // A newer press (the shortcut twice in a row) owns the result: an older lookup answering late is dropped.
    const isLatest = (): boolean => lookup === this.lookups && this.project() === project;
    this.pending = Promise.all([window, selection])
      .then(async ([focused, read]) => {
        if (!isLatest()) return;
        this.selection = read;
        if (read.kind === 'unavailable') this.logger.info(`selection: ${read.reason}`);
        if (!focused || !project) return;
        if (focused.kind === 'unavailable') {
          project.currentFile.noteWindow({ message: focused.reason, candidates: [] });
          return;
        }
        // Flint itself had focus (its own window, a shortcut pressed inside it): nothing to follow.
        if (this.readers.isOwnProcess?.(focused.processId)) return;
        if (focused.title.trim() === '') {
          project.currentFile.noteWindow({ message: untitledWindowMessage(focused.ownerName), candidates: [] });
          return;
        }
        const reading = readEditorTitle(focused.title, { name: focused.ownerName, path: focused.ownerPath, bundleId: focused.bundleId });
        if (reading.notAnEditor !== undefined) {
          project.currentFile.noteWindow(notAnEditorNote(reading.notAnEditor, project.currentFile.savedOrSelected));
          return;
        }
        const titleProject = { root: project.root, names: project.names, lastUsed: (path: string) => project.currentFile.lastUsed(path), realPath: realPathOrNull };
        const found = await fileFromTitle(reading, titleProject, this.readers.home ?? homedir());
        if (!isLatest()) return;
        if (found.kind !== 'file') return void project.currentFile.noteWindow(windowNoteFor(found, reading.editor, focused.title));
        this.selectionFile = found.path;
        project.currentFile.noteFocused(found.path, reading.editor);
      })
      .catch((error: unknown) => this.logger.warn('could not read the focused window', error));
  }

  /** X's PRIMARY where there is one; else the clipboard, only if the user opted in. */
  private readSelection(): Promise<SelectionRead> {
    const { selection, clipboard, useClipboard } = this.readers;
    if (selection) return selection();
    if (clipboard && useClipboard?.()) return clipboard().then(selectionOf, () => ({ kind: 'none' }) as const);
    return Promise.resolve({ kind: 'none' });
  }

  /** Releases the readers (the X connection): the core owns them once a shell hands them over. */
  dispose(): void {
    this.readers.dispose?.();
  }

  /** Resolves once the last lookup has updated the current file. */
  settled(): Promise<void> {
    return this.pending;
  }

  /**
   * The selection read at the last shortcut, located in `lines` of `path`; null unless `path`
   * is the file the focused editor showed (a selection in a browser, or in the file Alt+S
   * switched away from, is not about this one) and the selection is there.
   */
  selectionIn(path: string, lines: readonly string[]): SelectionScope | null {
    const read = this.selection;
    if (path !== this.selectionFile) return null;
    if (read.kind === 'too-large') {
      return { kind: 'note', message: `Your selection (${(read.bytes / 1024 / 1024).toFixed(1)} MB or more) is too large to focus on; the question is about the file.` };
    }
    if (read.kind !== 'text') return null;
    const match = findSelection(read.text, lines);
    if (match.kind === 'lines') return match;
    if (match.kind === 'ambiguous') return { kind: 'note', message: `Your selection appears in ${match.places === 3 ? '3 or more' : match.places} places of the file; the question is about the file.` };
    return null;
  }
}

function realPathOrNull(path: string): Promise<string | null> {
  return realpath(path).catch(() => null);
}

/** A window with no title to read: on macOS, what the system withholds without Screen Recording permission. */
function untitledWindowMessage(ownerName: string): string {
  const window = ownerName ? `The focused window (${ownerName})` : 'The focused window';
  if (process.platform === 'darwin') return `${window} showed no title: allow Flint under System Settings › Privacy & Security › Screen Recording, so it can read window titles.`;
  return `${window} has no title, so it names no file.`;
}
