/**
 * Electron's entry point. The composition lives in the adapter; the logic in the core.
 *
 * The Node version check is the first import, so it runs before any other module of the
 * app (Electron brings its own Node, so it fires only on a mismatched Electron). The
 * adapter stays a static import on purpose: main-window.ts finds the preload and the
 * renderer relative to this file, which a dynamically imported chunk would not be.
 */
import './check-node-version';
import './v8-memory-profile';
import { startElectronShell } from './electron/electron-shell';

startElectronShell();
