/**
 * The Electron security baseline that is not a BrowserWindow option.
 *
 * No navigation, no new windows, no <webview>, no permission grants. The CSP is in
 * the built index.html (see electron.vite.config.ts), because file:// pages get no headers.
 */
import { app, session, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';

export function applySecurityBaseline(): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
  app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    session.defaultSession.setPermissionCheckHandler(() => false);
  });
}

/** True if an IPC call comes from our window's main frame showing our renderer. */
export function isTrustedSender(event: IpcMainInvokeEvent | IpcMainEvent, contents: WebContents, rendererUrl: string): boolean {
  const frame = event.senderFrame;
  if (event.sender !== contents || !frame || frame !== contents.mainFrame) return false;
  return frame.url === rendererUrl || frame.url.startsWith(`${rendererUrl}#`) || frame.url.startsWith(`${rendererUrl}?`);
}
