/**
 * What Flint reads of the desktop when the shortcut is pressed, as one bundle the shells
 * hand to the core: the focused window, the selection, and how to tell Flint's own windows.
 */
import { createFocusedWindowReader, type FocusedWindowReader } from './focused-window';
import { createXclipSelectionReader, type SelectionReader } from './primary-selection';

export interface DesktopReaders {
  focusedWindow?: FocusedWindowReader;
  selection?: SelectionReader;
  /** The clipboard's text (macOS, Windows: no desktop-wide selection), read only while `useClipboard` says so. */
  clipboard?: () => Promise<string>;
  /** The user opted in to the clipboard standing in for the selection. */
  useClipboard?: () => boolean;
  /** Whether a window's process is Flint's own (then Flint had focus: the current file stays as it was). */
  isOwnProcess?: (processId: number) => boolean;
  /** For `~/` in titles. */
  home?: string;
}

/**
 * The readers for this system: the focused window everywhere get-windows reads it; the
 * selection on Linux (X11's PRIMARY, through xclip: a child process, so a huge selection
 * never blocks main). macOS and Windows have no selection to read without the clipboard,
 * which Flint leaves alone.
 */
export function systemDesktopReaders(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): DesktopReaders {
  return {
    focusedWindow: createFocusedWindowReader({ platform, env }),
    ...(platform === 'linux' ? { selection: createXclipSelectionReader(env) } : {}),
    // Flint's windows belong to its main process (Electron's browser process).
    isOwnProcess: (processId) => processId === process.pid,
  };
}
