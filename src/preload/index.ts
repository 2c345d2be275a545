/**
 * Exposes the contract as `window.flint` — one function per request, plus `on` for events.
 *
 * Nothing else crosses: no ipcRenderer, no Node.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { EVENT_ENVELOPE_CHANNEL, type EventEnvelope } from '../shared/contract';
import { createFlintApi } from '../shared/flint-api';
import type { Result } from '../shared/result';

const api = createFlintApi({
  invoke: (channel, input) => ipcRenderer.invoke(channel, input) as Promise<Result<unknown>>,
  sendOneWay: (channel, input) => ipcRenderer.send(channel, input),
  subscribe: (listener) => {
    const handler = (_event: Electron.IpcRendererEvent, envelope: EventEnvelope): void => listener(envelope);
    ipcRenderer.on(EVENT_ENVELOPE_CHANNEL, handler);
    return () => ipcRenderer.removeListener(EVENT_ENVELOPE_CHANNEL, handler);
  },
});

contextBridge.exposeInMainWorld('flint', api);
