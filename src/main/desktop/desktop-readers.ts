/**
 * What Flint reads of the desktop when the shortcut is pressed, as one bundle the shells
 * hand to the core: the focused window, the selection, and how to tell Flint's own windows.
 */
import type { Logger } from '../logger';
import { createFocusedWindowReader, type FocusedWindowReader } from './focused-window';
import { createXclipSelectionReader, type SelectionReader } from './primary-selection';
import { X11Desktop } from './x11/x11-desktop';

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
  /** Releases what the readers hold (the X connection); the core calls it when it shuts down. */
  dispose?: () => void;
}

/**
 * The readers for this system. On X11, one connection to the X server, opened now, follows
 * the focused window and its title, so a press reads memory; the selection (PRIMARY) is
 * read on it too. Without that connection (it failed, or the server went away) and on
 * Wayland without XWayland, the per-press readers answer: get-windows through xprop, and
 * xclip. macOS and Windows: get-windows at press time, and no selection to read without
 * the clipboard, which Flint leaves alone.
 */
export function systemDesktopReaders(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env, logger?: Logger): DesktopReaders {
  // Flint's windows belong to its main process (Electron's browser process).
  const isOwnProcess = (processId: number): boolean => processId === process.pid;
  const focusedWindow = createFocusedWindowReader({ platform, env });
  if (platform !== 'linux') return { focusedWindow, isOwnProcess };
  const selection = createXclipSelectionReader(env);
  if (!env.DISPLAY) return { focusedWindow, selection, isOwnProcess };
  const x11 = new X11Desktop({ display: env.DISPLAY, fallback: { focusedWindow, selection }, logger });
  return { focusedWindow: x11.focusedWindow, selection: x11.selection, isOwnProcess, dispose: () => x11.dispose() };
}
