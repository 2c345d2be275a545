/**
 * The one `FlintApi` the renderer uses: Electron's preload if present, else the serve bridge.
 */
import type { FlintApi } from '../../../shared/contract';
import { connectServeBridge } from './serve-bridge';

export const flint: FlintApi = window.flint ?? connectServeBridge();
