/**
 * The inference part of the contract: providers, keys, the connection. Thin: the service
 * does the work. (Answers stream through edit sessions, which handle questions too.)
 */
import type { EventChannel, EventPayloads } from '../../shared/contract';
import type { LatencyFigures } from '../../shared/inference-types';
import type { RequestHandlers } from '../contract-host';
import type { InferenceService } from '../inference/inference-service';
import type { Disposable } from '../lifecycle';

export type InferenceHandlers = Pick<
  RequestHandlers,
  'getProviders' | 'setActiveProvider' | 'testConnection' | 'setApiKey' | 'deleteApiKey' | 'allowProviderKey' | 'saveProvider' | 'removeProvider' | 'setProviderModel' | 'listModels'
>;

export function createInferenceHandlers(inference: InferenceService): InferenceHandlers {
  return {
    getProviders: () => inference.listProviders(),
    setActiveProvider: ({ providerId }) => inference.setActiveProvider(providerId),
    testConnection: ({ providerId }) => inference.testConnection(providerId),
    setApiKey: ({ providerId, key }) => inference.setKey(providerId, key),
    deleteApiKey: ({ providerId }) => inference.deleteKey(providerId),
    allowProviderKey: ({ providerId, reason, origin }) => inference.allowKey(providerId, reason, origin),
    saveProvider: ({ providerId, draft }) => inference.saveProvider(providerId ?? null, draft),
    removeProvider: ({ providerId }) => inference.removeProvider(providerId),
    setProviderModel: ({ providerId, slot, model }) => inference.setModel(providerId, slot, model),
    listModels: ({ providerId, refresh, filter }) => inference.listModels(providerId, { refresh, filter }),
  };
}

/** Forwards the service's events to the UI; remembers the last figures for a reloading renderer. */
export function forwardInferenceEvents(
  inference: InferenceService,
  emit: <C extends EventChannel>(channel: C, payload: EventPayloads[C]) => void,
  onLatency: (figures: LatencyFigures) => void,
): Disposable[] {
  return [
    inference.onDidChangeConnection((status) => emit('inference:connection', status)),
    inference.onDidMeasure((figures) => {
      onLatency(figures);
      // After the answer's last batch, when its batcher sends it on an immediate scheduled
      // before this one (not when that batch waits for the renderer's acknowledgement): the
      // renderer takes the figures with an app-wide render (5-10 ms on a 2-core machine),
      // which held the answer's last words back when they came first.
      setImmediate(() => emit('inference:latency', figures));
    }),
  ];
}
