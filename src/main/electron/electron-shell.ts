/**
 * The Electron shell: composes the core with windows, IPC, menu and native dialogs.
 */
import { app, BrowserWindow, dialog, globalShortcut, Menu, type Tray } from 'electron';
import { resolve } from 'node:path';
import { createContractHost } from '../contract-host';
import { createFlintCore } from '../core/create-core';
import type { FlintCore } from '../core/flint-core';
import { stderrLogger } from '../logger';
import { APP_NAME, configDirectory } from '../settings/config-directory';
import { buildAppMenu } from './app-menu';
import { bindContractToIpc } from './ipc-binding';
import { formatAccelerator } from '../../shared/accelerator';
import type { AskOpenRequest } from '../../shared/ask-types';
import { GlobalHotkey } from '../hotkey/global-hotkey';
import { createMainWindow } from './main-window';
import { applySecurityBaseline } from './security';
import { createTray } from './tray';

export function startElectronShell(): void {
  app.setName(APP_NAME);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  applySecurityBaseline();
  // Wayland gives apps system-wide shortcuts only through the desktop portal (KDE, GNOME 48+, Hyprland).
  if (process.platform === 'linux' && process.env.XDG_SESSION_TYPE === 'wayland') {
    app.commandLine.appendSwitch('enable-features', 'GlobalShortcutsPortal');
  }
  const logger = stderrLogger;
  let core: FlintCore | null = null;
  let tray: Tray | null = null;

  /** Brings the window forward and opens the ask bar in it. */
  const ask = (trigger: AskOpenRequest['trigger']): void => {
    const window = BrowserWindow.getAllWindows()[0];
    if (window) {
      if (window.isMinimized()) window.restore();
      window.show();
      window.focus();
    }
    core?.openAskBar(trigger);
  };
  const hotkey = new GlobalHotkey({
    shortcut: globalShortcut,
    onPress: () => ask('hotkey'),
    platformNote:
      process.env.XDG_SESSION_TYPE === 'wayland'
        ? 'This is a Wayland session, where apps often cannot take system-wide shortcuts: bind a shortcut in your desktop’s keyboard settings to run “flint --ask” instead.'
        : undefined,
  });

  const chooseFolder = async (): Promise<string | null> => {
    const parent = BrowserWindow.getFocusedWindow();
    const options = { title: 'Open Folder', properties: ['openDirectory' as const] };
    const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  };

  const open = (path: string): void => {
    core?.openProject(path).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const window = BrowserWindow.getAllWindows()[0];
      if (window) void dialog.showMessageBox(window, { type: 'error', message: 'Could not open the folder', detail: message });
    });
  };

  const refreshMenu = (): void => {
    if (!core) return;
    Menu.setApplicationMenu(
      buildAppMenu(core.recentProjects, {
        openFolder: () => void chooseFolder().then((path) => path && open(path)),
        openRecent: open,
        closeFolder: () => void core?.closeProject('closed', 'Project closed.'),
      }),
    );
  };

  // `flint --ask` (bound to a desktop shortcut where apps cannot take one) reaches the running Flint here.
  app.on('second-instance', (_event, argv, workingDirectory) => {
    const folder = folderArgument(argv.slice(1));
    if (folder) open(resolve(workingDirectory, folder));
    if (argv.includes('--ask')) return ask('command-line');
    const window = BrowserWindow.getAllWindows()[0];
    if (window?.isMinimized()) window.restore();
    window?.focus();
  });
  // macOS: clicking the dock icon.
  app.on('activate', () => ask('tray'));

  app.whenReady().then(async () => {
    core = await createFlintCore({
      shell: 'electron',
      configDirectory: configDirectory(process.env, process.platform, app.getPath('userData')),
      logger,
      chooseFolder,
      hotkey,
    });
    const host = createContractHost(core.handlers, logger);
    core.onDidEmit((envelope) => envelope.channel === 'recent:changed' && refreshMenu());
    refreshMenu();
    const { window, rendererUrl } = createMainWindow();
    const binding = bindContractToIpc(host, core.onDidEmit, window.webContents, rendererUrl);
    window.on('closed', () => binding.dispose());
    const folder = folderArgument(process.argv.slice(app.isPackaged ? 1 : 2));
    if (folder) window.webContents.once('did-finish-load', () => open(resolve(folder)));
    if (process.argv.includes('--ask')) window.webContents.once('did-finish-load', () => ask('command-line'));
    const created = createTray(
      { ask: () => ask('tray'), showWindow: () => BrowserWindow.getAllWindows()[0]?.show(), quit: () => app.quit() },
      () => (hotkey.heldAccelerator ? formatAccelerator(hotkey.heldAccelerator, process.platform === 'darwin') : 'no shortcut'),
    );
    tray = created.tray;
    hotkey.onDidChangeStatus(() => created.refresh());
  });

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting || !core) return;
    event.preventDefault();
    quitting = true;
    void core.shutdown().finally(() => app.quit());
  });
  // The shortcut belongs to the OS while Flint runs; give it back.
  app.on('will-quit', () => {
    hotkey.dispose();
    tray?.destroy();
  });
  app.on('window-all-closed', () => app.quit());
}

/** The first argument that is not a switch: `npm start -- <folder>` or `flint <folder>`. */
function folderArgument(args: readonly string[]): string | undefined {
  return args.find((arg) => !arg.startsWith('-') && arg !== '.');
}
