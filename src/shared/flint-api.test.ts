import { describe, expect, it } from 'vitest';
import { requests, type EventEnvelope } from './contract';
import { createFlintApi, type FlintTransport } from './flint-api';
import { ok } from './result';

/** A transport that records what went through it, and answers every request ok. */
function recordingTransport() {
  const invoked: string[] = [];
  const notified: Array<{ channel: string; input: unknown }> = [];
  const transport: FlintTransport = {
    invoke: async (channel) => {
      invoked.push(channel);
      return ok(null);
    },
    notify: (channel, input) => void notified.push({ channel, input }),
    subscribe: (_listener: (envelope: EventEnvelope) => void) => () => undefined,
  };
  return { transport, invoked, notified };
}

describe('window.flint built from the contract', () => {
  it('sends a notice one way, at once, and resolves it without waiting for main', async () => {
    const { transport, invoked, notified } = recordingTransport();
    const flint = createFlintApi(transport);
    const call = flint.acknowledgeAnswer({ sessionId: 's1' });
    expect(notified).toEqual([{ channel: requests.acknowledgeAnswer.channel, input: { sessionId: 's1' } }]);
    expect(await call).toEqual({ ok: true, value: null });
    expect(invoked).toEqual([]);
  });

  it('invokes a request and gives back what main answered', async () => {
    const { transport, invoked, notified } = recordingTransport();
    const flint = createFlintApi(transport);
    expect(await flint.listConversations({})).toEqual({ ok: true, value: null });
    expect(invoked).toEqual([requests.listConversations.channel]);
    expect(notified).toEqual([]);
  });

  it('makes only acknowledgements notices: every other request is answered', () => {
    const notices = Object.entries(requests).filter(([, definition]: [string, { notice?: true }]) => definition.notice).map(([name]) => name);
    expect(notices).toEqual(['acknowledgeAnswer']);
  });
});
