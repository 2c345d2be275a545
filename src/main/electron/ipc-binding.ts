/**
 * Binds the contract to Electron IPC: one `handle` per request channel, events to the window.
 *
 * Generic over the contract, like the serve shell: no handler lives here.
 */
import { ipcMain, type WebContents } from 'electron';
import { EVENT_ENVELOPE_CHANNEL, requests, type EventEnvelope } from '../../shared/contract';
import { fail } from '../../shared/result';
import type { ContractHost } from '../contract-host';
import { toDisposable, type Disposable, type Event } from '../lifecycle';
import { isTrustedSender } from './security';

export function bindContractToIpc(
  host: ContractHost,
  events: Event<EventEnvelope>,
  contents: WebContents,
  rendererUrl: string,
): Disposable {
  const channels = Object.values(requests).map((definition) => definition.channel);
  for (const channel of channels) {
    ipcMain.handle(channel, (event, input: unknown) => {
      if (!isTrustedSender(event, contents, rendererUrl)) {
        return fail('untrusted-sender', 'Refused: this request did not come from the Flint window.');
      }
      return host.invoke(channel, input);
    });
  }
  const subscription = events((envelope) => {
    if (!contents.isDestroyed()) contents.send(EVENT_ENVELOPE_CHANNEL, envelope);
  });
  return toDisposable(() => {
    subscription.dispose();
    for (const channel of channels) ipcMain.removeHandler(channel);
  });
}
