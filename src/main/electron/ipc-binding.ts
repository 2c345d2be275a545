/**
 * Binds the contract to Electron IPC: one `handle` per request channel, a listener per
 * notice's (sent one way), events to the window.
 *
 * Generic over the contract, like the serve shell: no handler lives here.
 */
import { ipcMain, type WebContents } from 'electron';
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
  const definitions: Array<{ channel: string; notice?: true }> = Object.values(requests);
  const channels = definitions.filter((definition) => !definition.notice).map((definition) => definition.channel);
  const notices = definitions.filter((definition) => definition.notice).map((definition) => definition.channel);
  for (const channel of channels) {
    ipcMain.handle(channel, (event, input: unknown) => {
      if (!isTrustedSender(event, contents, rendererUrl)) {
        return fail('untrusted-sender', 'Refused: this request did not come from the Flint window.');
      }
      return host.invoke(channel, input);
    });
  }
  // Notices come one way (ipcRenderer.send): nothing is answered, a refusal is only logged.
  for (const channel of notices) {
    ipcMain.on(channel, (event, input: unknown) => {
      if (!isTrustedSender(event, contents, rendererUrl)) return logger.warn(`notice ${channel} refused: untrusted-sender`);
      void host.invoke(channel, input).then((result) => {
        if (!result.ok) logger.warn(`notice ${channel} refused: ${result.error.code}`);
      });
    });
  }
  const subscription = events((envelope) => {
    if (!contents.isDestroyed()) contents.send(EVENT_ENVELOPE_CHANNEL, envelope);
  });
  return toDisposable(() => {
    subscription.dispose();
    for (const channel of channels) ipcMain.removeHandler(channel);
    for (const channel of notices) ipcMain.removeAllListeners(channel);
  });
}
