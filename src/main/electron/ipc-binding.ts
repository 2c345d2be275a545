/**
 * Binds the contract to Electron IPC: one `handle` per request channel, a listener per
 * one-way request's (sent, never answered), events to the window.
 *
 * Generic over the contract, like the serve shell: no handler lives here.
 */
import { ipcMain, type IpcMainEvent, type WebContents } from 'electron';
import { EVENT_ENVELOPE_CHANNEL, requests, type EventEnvelope } from '../../shared/contract';
import { fail } from '../../shared/result';
import type { ContractHost } from '../contract-host';
import type { Logger } from '../logger';
import { toDisposable, type Disposable, type Event } from '../lifecycle';
import { isTrustedSender } from './security';

export function bindContractToIpc(
  host: ContractHost,
  events: Event<EventEnvelope>,
  contents: WebContents,
  rendererUrl: string,
  logger: Logger,
): Disposable {
  const definitions: Array<{ channel: string; oneWay?: true }> = Object.values(requests);
  const channels = definitions.filter((definition) => !definition.oneWay).map((definition) => definition.channel);
  const oneWayChannels = definitions.filter((definition) => definition.oneWay).map((definition) => definition.channel);
  for (const channel of channels) {
    ipcMain.handle(channel, (event, input: unknown) => {
      if (!isTrustedSender(event, contents, rendererUrl)) {
        return fail('untrusted-sender', 'Refused: this request did not come from the Flint window.');
      }
      return host.invoke(channel, input);
    });
  }
  // One-way requests come by ipcRenderer.send: nothing is answered. A refusal is logged, once per channel and reason.
  const refused = new Set<string>();
  const refuse = (channel: string, code: string): void => {
    if (refused.has(`${channel} ${code}`)) return;
    refused.add(`${channel} ${code}`);
    logger.warn(`one-way request ${channel} refused: ${code}`);
  };
  const listeners = oneWayChannels.map((channel) => {
    const listener = (event: IpcMainEvent, input: unknown): void => {
      if (!isTrustedSender(event, contents, rendererUrl)) return refuse(channel, 'untrusted-sender');
      void host.invoke(channel, input).then((result) => result.ok || refuse(channel, result.error.code));
    };
    ipcMain.on(channel, listener);
    return { channel, listener };
  });
  const subscription = events((envelope) => {
    if (!contents.isDestroyed()) contents.send(EVENT_ENVELOPE_CHANNEL, envelope);
  });
  return toDisposable(() => {
    subscription.dispose();
    for (const channel of channels) ipcMain.removeHandler(channel);
    for (const { channel, listener } of listeners) ipcMain.removeListener(channel, listener);
  });
}
