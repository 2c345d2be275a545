/**
 * Tracks "the current file": the most recent of three signals of where the user is — the
 * file named by the editor window that had focus when the shortcut was pressed, the file
 * another program last saved, the file selected in Flint. The focused window's file and
 * the last saved/selected one are both kept, so one key can switch between them.
 *
 * Also remembers when each file was last used (saved, selected or focused): a title that
 * names only a base name found in several folders is resolved by it.
 *
 * A service with an event rather than UI state, because the hotkey and the ask bar
 * act on it from main.
 */
import type { CurrentFile, FileCandidate, WindowNote } from '../../shared/project-types';
import { Emitter, type Disposable, type Event } from '../lifecycle';

/** No project, or nothing saved, selected or focused in it yet. */
export const NO_CURRENT_FILE: CurrentFile = { path: null, source: null, at: 0 };

/** Files whose last use is remembered: far more than anyone switches between. */
const MAX_REMEMBERED = 2000;

/**
 * How far a file's modification time may trail the clock that stamps Flint's own signals:
 * the kernel stamps files from its coarse clock, up to a tick (10 ms at HZ=100) behind.
 * A save stamped within this of a pick counts as after it.
 */
const FILE_CLOCK_TICK_MS = 10;

/**
 * A modification time older than this when the save is reported is not when it was saved
 * (`cp -p`, an unpacked archive, a network disk's own clock): such a save is taken as now.
 */
const MAX_REPORT_DELAY_MS = 30_000;

interface Slot extends FileCandidate {
  at: number;
}

export class CurrentFileTracker implements Disposable {
  /** The focused editor window's file (from the last shortcut that found one). */
  private focused: Slot | null = null;
  /** The file last saved by another program or selected in Flint. */
  private recent: Slot | null = null;
  private isFocusedCurrent = false;
  private note: WindowNote | null = null;
  /** Path → when it was last used; insertion order is least recent first (a save reported late goes last: near enough to evict by). */
  private readonly usedAt = new Map<string, number>();
  private readonly _onDidChange = new Emitter<CurrentFile>();

  /** Fires on every change, even to the same file (each is a new "most recent"). */
  readonly onDidChange: Event<CurrentFile> = this._onDidChange.event;

  constructor(private readonly now: () => number = Date.now) {}

  get value(): CurrentFile {
    const current = this.isFocusedCurrent ? this.focused : this.recent;
    const other = this.isFocusedCurrent ? this.recent : this.focused;
    if (!current) return this.note ? { ...NO_CURRENT_FILE, windowNote: this.note } : NO_CURRENT_FILE;
    return {
      path: current.path,
      source: current.source,
      at: current.at,
      ...(current.editor ? { editor: current.editor } : {}),
      ...(other && other.path !== current.path ? { other: candidate(other) } : {}),
      ...(this.note ? { windowNote: this.note } : {}),
    };
  }

  /** The file last saved by another program or selected in Flint (what stays current when a window names none), or null. */
  get savedOrSelected(): string | null {
    return this.recent?.path ?? null;
  }

  /** When `path` was last saved, selected or focused (ms since epoch), or undefined. */
  lastUsed(path: string): number | undefined {
    return this.usedAt.get(path);
  }

  /** The user picked `path` in Flint. */
  select(path: string): CurrentFile {
    return this.setRecent({ path, source: 'selected', at: this.now() });
  }

  /**
   * Another program wrote `path` at `savedAt` (the file's modification time; now if unknown).
   * The watcher reports a save once the writes settle, later still on a busy machine, so a
   * save made before the user picked a file in Flint (or pressed the shortcut) can be
   * reported after it: that save is older news, remembered but not made current.
   */
  noteSaved(path: string, savedAt?: number): CurrentFile {
    const now = this.now();
    const slot: Slot = { path, source: 'saved', at: savedAt !== undefined && now - savedAt <= MAX_REPORT_DELAY_MS ? Math.min(savedAt, now) : now };
    const current = this.isFocusedCurrent ? this.focused : this.recent;
    if (!current || slot.at + FILE_CLOCK_TICK_MS >= current.at) return this.setRecent(slot);
    // Still newer than the last save or selection: the other candidate behind the focused file.
    if (this.isFocusedCurrent && (!this.recent || slot.at >= this.recent.at)) this.recent = slot;
    this.used(path, slot.at);
    return this.changed();
  }

  /** The editor window that had focus when the shortcut was pressed names `path`. */
  noteFocused(path: string, editor: string | null): CurrentFile {
    this.focused = { path, source: 'focused', at: this.now(), ...(editor ? { editor } : {}) };
    this.isFocusedCurrent = true;
    this.note = null;
    this.used(path);
    return this.changed();
  }

  /** The focused window named no project file: the last saved or selected one stays current, and the note says why. */
  noteWindow(note: WindowNote): CurrentFile {
    this.focused = null;
    this.isFocusedCurrent = false;
    this.note = note;
    return this.changed();
  }

  /** Makes the other candidate current (one key in the ask bar); false when there is none. */
  switchToOther(): boolean {
    const other = this.isFocusedCurrent ? this.recent : this.focused;
    if (!other) return false;
    other.at = this.now();
    this.isFocusedCurrent = !this.isFocusedCurrent;
    this.changed();
    return true;
  }

  /** No project, no current file. */
  clear(): void {
    const hadFile = this.focused !== null || this.recent !== null || this.note !== null;
    this.focused = null;
    this.recent = null;
    this.note = null;
    this.isFocusedCurrent = false;
    this.usedAt.clear();
    if (hadFile) this.changed();
  }

  dispose(): void {
    this._onDidChange.dispose();
  }

  private setRecent(slot: Slot): CurrentFile {
    this.recent = slot;
    this.isFocusedCurrent = false;
    // A newer signal than the window's: what the window said is no longer the news.
    this.note = null;
    this.used(slot.path, slot.at);
    return this.changed();
  }

  private used(path: string, at: number = this.now()): void {
    this.usedAt.delete(path);
    this.usedAt.set(path, at);
    if (this.usedAt.size > MAX_REMEMBERED) this.usedAt.delete(this.usedAt.keys().next().value!);
  }

  private changed(): CurrentFile {
    const value = this.value;
    this._onDidChange.fire(value);
    return value;
  }
}

function candidate(slot: Slot): FileCandidate {
  return { path: slot.path, source: slot.source, ...(slot.editor ? { editor: slot.editor } : {}) };
}
