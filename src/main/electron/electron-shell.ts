/**
 * The Electron shell: composes the core with windows, IPC, menu and native dialogs.
 */
import { app, BrowserWindow, clipboard, dialog, globalShortcut, Menu, type Tray } from 'electron';
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
import { systemDesktopReaders } from '../desktop/desktop-readers';
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
  const shell = new ElectronShell();
  // `flint --ask` (bound to a desktop shortcut where apps cannot take one) reaches the running Flint here.
  app.on('second-instance', (_event, argv, workingDirectory) => shell.secondInstance(argv, workingDirectory));
  // macOS: clicking the dock icon.
  app.on('activate', () => shell.ask('tray'));
  void app.whenReady().then(() => shell.ready());
  app.on('before-quit', (event) => shell.beforeQuit(event));
  // The shortcut belongs to the OS while Flint runs; give it back.
  app.on('will-quit', () => shell.willQuit());
  app.on('window-all-closed', () => app.quit());
}

/** What the shell holds while the app runs: the core, the tray, the system-wide shortcut. */
class ElectronShell {
  private core: FlintCore | null = null;
  private tray: Tray | null = null;
  private quitting = false;
  private readonly logger = stderrLogger;
  private readonly hotkey = new GlobalHotkey({
    shortcut: globalShortcut,
    onPress: () => this.ask('hotkey'),
    platformNote:
      process.env.XDG_SESSION_TYPE === 'wayland'
        ? 'This is a Wayland session, where apps often cannot take system-wide shortcuts: bind a shortcut in your desktop’s keyboard settings to run “flint --ask” instead.'
        : undefined,
  });

  /** Opens the ask bar and brings the window forward (the core reads the focused window first). */
  ask(trigger: AskOpenRequest['trigger']): void {
    this.core?.openAskBar(trigger);
    const window = BrowserWindow.getAllWindows()[0];
    if (window) {
      if (window.isMinimized()) window.restore();
      window.show();
      window.focus();
    }
  }

  secondInstance(argv: readonly string[], workingDirectory: string): void {
    const folder = folderArgument(argv.slice(1));
    if (folder) this.open(resolve(workingDirectory, folder));
    if (argv.includes('--ask')) return this.ask('command-line');
    const window = BrowserWindow.getAllWindows()[0];
    if (window?.isMinimized()) window.restore();
    window?.focus();
  }

  async ready(): Promise<void> {
    const core = await createFlintCore({
      shell: 'electron',
      configDirectory: configDirectory(process.env, process.platform, app.getPath('userData')),
      logger: this.logger,
      chooseFolder: () => this.chooseFolder(),
      hotkey: this.hotkey,
      // macOS and Windows have no desktop-wide selection: the clipboard, if the user opts in (Settings).
      desktop: { ...systemDesktopReaders(process.platform, process.env, this.logger), ...(process.platform === 'linux' ? {} : { clipboard: () => clipboard.readText() }) },
    });
    this.core = core;
    const host = createContractHost(core.handlers, this.logger);
    core.onDidChangeRecent(() => this.refreshMenu());
    this.refreshMenu();
    const { window, rendererUrl } = createMainWindow();
    const binding = bindContractToIpc(host, core.onDidEmit, window.webContents, rendererUrl, this.logger);
    window.on('closed', () => binding.dispose());
    const folder = folderArgument(process.argv.slice(app.isPackaged ? 1 : 2));
    if (folder) window.webContents.once('did-finish-load', () => this.open(resolve(folder)));
    if (process.argv.includes('--ask')) window.webContents.once('did-finish-load', () => this.ask('command-line'));
    const created = createTray(
      { ask: () => this.ask('tray'), showWindow: () => BrowserWindow.getAllWindows()[0]?.show(), quit: () => app.quit() },
      () => (this.hotkey.heldAccelerator ? formatAccelerator(this.hotkey.heldAccelerator, process.platform === 'darwin') : 'no shortcut'),
    );
    this.tray = created.tray;
    this.hotkey.onDidChangeStatus(() => created.refresh());
  }

  /** Quitting waits for the project to close (writes finished, watcher released). */
  beforeQuit(event: { preventDefault(): void }): void {
    if (this.quitting || !this.core) return;
    event.preventDefault();
    this.quitting = true;
    void this.core.shutdown().finally(() => app.quit());
  }

  willQuit(): void {
    this.hotkey.dispose();
    this.tray?.destroy();
  }

  private async chooseFolder(): Promise<string | null> {
    const parent = BrowserWindow.getFocusedWindow();
    const options = { title: 'Open Folder', properties: ['openDirectory' as const] };
    const result = parent ? await dialog.showOpenDialog(parent, options) : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  }

  private open(path: string): void {
    this.core?.openProject(path).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const window = BrowserWindow.getAllWindows()[0];
      if (window) void dialog.showMessageBox(window, { type: 'error', message: 'Could not open the folder', detail: message });
    });
  }

  private refreshMenu(): void {
    const core = this.core;
    if (!core) return;
    Menu.setApplicationMenu(
      buildAppMenu(core.recentProjects, {
        openFolder: () => void this.chooseFolder().then((path) => path && this.open(path)),
        openRecent: (path) => this.open(path),
        closeFolder: () => void core.closeProject('closed', 'Project closed.'),
      }),
    );
  }
}

/** The first argument that is not a switch: `npm start -- <folder>` or `flint <folder>`. */
function folderArgument(args: readonly string[]): string | undefined {
  return args.find((arg) => !arg.startsWith('-') && arg !== '.');
}
