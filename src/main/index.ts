/** Electron's entry point. The composition lives in the adapter; the logic in the core. */
import './v8-memory-profile';
import { startElectronShell } from './electron/electron-shell';

startElectronShell();
