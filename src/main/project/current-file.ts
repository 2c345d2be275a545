/**
 * Tracks "the current file": whichever is more recent of the file the user selected
 * in Flint and the file another program last saved in the project.
 *
 * A service with an event rather than UI state, because the hotkey and the ask bar
 * act on it from main.
 */
import type { CurrentFile } from '../../shared/project-types';
import { Emitter, type Disposable, type Event } from '../lifecycle';

/** No project, or nothing saved or selected in it yet. */
export const NO_CURRENT_FILE: CurrentFile = { path: null, source: null, at: 0 };

export class CurrentFileTracker implements Disposable {
  private current: CurrentFile = NO_CURRENT_FILE;
  private readonly _onDidChange = new Emitter<CurrentFile>();

  /** Fires on every selection and every save, even of the same file (each is a new "most recent"). */
  readonly onDidChange: Event<CurrentFile> = this._onDidChange.event;

  constructor(private readonly now: () => number = Date.now) {}

  get value(): CurrentFile {
    return this.current;
  }

  /** The user picked `path` in Flint. */
  select(path: string): CurrentFile {
    return this.set({ path, source: 'selected', at: this.now() });
  }

  /** Another program wrote `path`. */
  noteSaved(path: string): CurrentFile {
    return this.set({ path, source: 'saved', at: this.now() });
  }

  /** No project, no current file. */
  clear(): void {
    if (this.current.path !== null) this.set(NO_CURRENT_FILE);
  }

  dispose(): void {
    this._onDidChange.dispose();
  }

  private set(next: CurrentFile): CurrentFile {
    this.current = next;
    this._onDidChange.fire(next);
    return next;
  }
}
