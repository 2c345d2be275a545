/**
 * Where the serve bridge publishes its connection state, for the views that show it.
 *
 * In Electron nothing publishes: the state stays null (there is no serve connection,
 * and IPC does not drop).
 */
import { useSyncExternalStore } from 'react';
import { sameServeConnection, type ServeConnection } from './serve-connection';

/** A value with change events; a repeat of what is shown already is not an event. */
export interface ServeConnectionStore {
  current(): ServeConnection | null;
  /** Calls `listener` after each change; returns the unsubscribe function. */
  onDidChange(listener: () => void): () => void;
  set(connection: ServeConnection): void;
}

export function createServeConnectionStore(): ServeConnectionStore {
  let value: ServeConnection | null = null;
  const listeners = new Set<() => void>();
  return {
    current: () => value,
    onDidChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set: (connection) => {
      if (sameServeConnection(value, connection)) return;
      value = connection;
      for (const listener of [...listeners]) listener();
    },
  };
}

/** The page's one store: the bridge writes it, the status bar and the notices read it. */
export const serveConnectionStore = createServeConnectionStore();

/** The serve shell's connection for a component, re-rendering on change; null in Electron. */
export function useServeConnection(store: ServeConnectionStore = serveConnectionStore): ServeConnection | null {
  return useSyncExternalStore(store.onDidChange, store.current);
}
