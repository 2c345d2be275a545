/**
 * The main window: sandboxed renderer, context isolation, preload as the only bridge.
 */
import { BrowserWindow } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface MainWindow {
  window: BrowserWindow;
  /** The exact URL the renderer is loaded from; IPC from anything else is refused. */
  rendererUrl: string;
}

export function createMainWindow(): MainWindow {
  const here = import.meta.dirname;
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 640,
    minHeight: 400,
    show: false,
    title: 'Flint',
    backgroundColor: '#1e1f22',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  const devServer = process.env.ELECTRON_RENDERER_URL;
  const rendererFile = join(here, '../renderer/index.html');
  const rendererUrl = devServer ?? pathToFileURL(rendererFile).href;
  if (devServer) void window.loadURL(devServer);
  else void window.loadFile(rendererFile);
  return { window, rendererUrl };
}
