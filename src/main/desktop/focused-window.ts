/**
 * The window that has focus on the desktop: its title and owner, read with `get-windows`
 * (X11 through `xprop`/`xwininfo`, macOS and Windows natively). Never throws and never
 * hangs: where it cannot be read (Wayland, no X display, `xprop` missing, a window without
 * the properties) the answer says why in words the ask bar can show.
 */
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

export type FocusedWindow =
  | {
      kind: 'window';
      title: string;
      /** The owner's window class (X11), app name (macOS) or description (Windows). */
      ownerName: string;
      processId: number;
      /** The owner's executable, when the system says (it tells a browser from an editor: window-owners.ts). */
      ownerPath?: string;
      /** macOS: the owner's bundle id. */
      bundleId?: string;
    }
  | { kind: 'unavailable'; reason: string };

/** Reads the focused window; injected so tests and shells can replace it. */
export type FocusedWindowReader = () => Promise<FocusedWindow>;

export interface FocusedWindowOptions {
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
  /** A lookup slower than this gives up (a stuck X server must not hold the ask bar). */
  timeoutMs?: number;
}

/** Well above a lookup's 10–20 ms, well below what a user waits for. */
const DEFAULT_TIMEOUT_MS = 400;

export function createFocusedWindowReader(options: FocusedWindowOptions = {}): FocusedWindowReader {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return async () => {
    const obstacle = await platformObstacle(platform, env);
    if (obstacle) return { kind: 'unavailable', reason: obstacle };
    return withTimeout(readActiveWindow(), timeoutMs, { kind: 'unavailable', reason: `The focused window did not answer within ${timeoutMs} ms.` });
  };
}

/** Why the focused window cannot be read on this system at all, or null. */
async function platformObstacle(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (platform === 'darwin' || platform === 'win32') return null;
  if (platform !== 'linux') return `Reading the focused window is not supported on ${platform}.`;
  if (env.XDG_SESSION_TYPE === 'wayland' && !env.DISPLAY) {
    return 'This is a Wayland session, where apps cannot read other windows’ titles: Flint uses the file you last saved or selected.';
  }
  if (!env.DISPLAY) return 'No X display (DISPLAY is not set): Flint cannot see which window has focus.';
  for (const tool of ['xprop', 'xwininfo']) {
    if (!(await onPath(tool, env))) return `${tool} is not installed (Debian/Ubuntu: apt install x11-utils), so Flint cannot see which window has focus.`;
  }
  return null;
}

/** On X11, get-windows runs xprop with Flint's own environment (its DISPLAY and PATH). */
async function readActiveWindow(): Promise<FocusedWindow> {
  try {
    // get-windows is ESM with per-platform modules: loaded on first use, off the startup path.
    const { activeWindow } = await import('get-windows');
    const window = await activeWindow();
    if (!window) return { kind: 'unavailable', reason: 'No window has focus (or the window manager does not say which: _NET_ACTIVE_WINDOW is unset).' };
    const { owner } = window;
    return {
      kind: 'window',
      title: window.title ?? '',
      ownerName: owner.name ?? '',
      processId: owner.processId,
      ...(owner.path ? { ownerPath: owner.path } : {}),
      ...('bundleId' in owner && owner.bundleId ? { bundleId: owner.bundleId } : {}),
    };
  } catch (error) {
    // A window without _NET_WM_PID, a window that closed mid-lookup, a permission prompt on macOS.
    return { kind: 'unavailable', reason: `The focused window could not be read: ${error instanceof Error ? error.message : String(error)}.` };
  }
}

async function onPath(tool: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder === '') continue;
    try {
      await access(join(folder, tool), constants.X_OK);
      return true;
    } catch {
      // Not in this folder.
    }
  }
  return false;
}

/** `work`'s value, or `fallback` if it fails or takes longer than `ms` (a desktop that stops answering never holds a press). */
export function withTimeout<T>(work: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    void work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}
