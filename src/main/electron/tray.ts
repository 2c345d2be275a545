/**
 * The tray icon: a click opens the ask bar; its menu opens the window or quits.
 * (On macOS the dock icon does the same through the app's `activate` event.)
 */
import { Menu, nativeImage, Tray } from 'electron';

/** resources/icon.png (32×32), inlined so the tray needs no file lookup in a packed app. */
const ICON_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAYAAABzenr0AAAAy0lEQVR42u2XwQmFMAyGHcEJFN4QPXrvXj04gtt0nR7fAIVYISd5L6QmqRUM/BcV/q9JjHEY3nhSfNfFFYWiWJSKMirhteOeszD2aABMHc96LfOtwvisTWI8Vp6aysZ4BeCv+TR/foqCUE37BQB+ObDhwAAAWI3JqbsAIHLeczAEAHJO4CCxBgii9CsARAogNQBIFEBuAJC7Bri9BBqzX9SEoQFAEA8ioZx4FJukv+ZjJJBvsQXpbEfKpYjPW8luX0q7Wcu7+DF5wzJ2ZVV2OgqHUdoAAAAASUVORK5CYII=';

export interface TrayActions {
  ask(): void;
  showWindow(): void;
  quit(): void;
}

/** The tray, and `refresh()` to rebuild its menu (the shortcut's label changed). */
export function createTray(actions: TrayActions, shortcutLabel: () => string): { tray: Tray; refresh: () => void } {
  const icon = nativeImage.createFromBuffer(Buffer.from(ICON_PNG_BASE64, 'base64'));
  const tray = new Tray(icon.resize({ width: 16, height: 16 }));
  tray.setToolTip('Flint');
  const refreshMenu = (): void =>
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: `Ask Flint…  (${shortcutLabel()})`, click: () => actions.ask() },
        { label: 'Show Flint', click: () => actions.showWindow() },
        { type: 'separator' },
        { label: 'Quit Flint', click: () => actions.quit() },
      ]),
    );
  refreshMenu();
  // Linux shows the context menu on click and has no 'click' event for most desktops:
  // the menu's first item asks there.
  tray.on('click', () => actions.ask());
  return { tray, refresh: refreshMenu };
}
