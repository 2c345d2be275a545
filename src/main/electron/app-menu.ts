/**
 * The application menu: File > Open Folder…, Open Recent, Close Folder.
 */
import { Menu, type MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openFolder(): void;
  openRecent(path: string): void;
  closeFolder(): void;
}

export function buildAppMenu(recent: readonly string[], actions: MenuActions): Menu {
  const recentItems: MenuItemConstructorOptions[] =
    recent.length === 0
      ? [{ label: 'No Recent Folders', enabled: false }]
      : recent.map((path) => ({ label: path, click: () => actions.openRecent(path) }));
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Open Folder…', accelerator: 'CommandOrControl+O', click: () => actions.openFolder() },
        { label: 'Open Recent', submenu: recentItems },
        { type: 'separator' },
        { label: 'Close Folder', click: () => actions.closeFolder() },
        { type: 'separator' },
        process.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ];
  return Menu.buildFromTemplate(template);
}
