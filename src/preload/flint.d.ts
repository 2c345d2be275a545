import type { FlintApi } from '../shared/contract';

declare global {
  interface Window {
    /** Present in Electron (from the preload); the serve shell builds it over a WebSocket. */
    flint?: FlintApi;
  }
}

export {};
