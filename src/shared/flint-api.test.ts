import { describe, expect, it } from 'vitest';
import { requests, type EventEnvelope } from './contract';
import { createFlintApi, type FlintTransport } from './flint-api';
import { ok } from './result';

/** A transport that records what went through it, and answers every request ok. */
function recordingTransport() {
  const invoked: string[] = [];
  const sent: Array<{ channel: string; input: unknown }> = [];
  const transport: FlintTransport = {
    invoke: async (channel) => {
      invoked.push(channel);
      return ok(null);
    },
    sendOneWay: (channel, input) => void sent.push({ channel, input }),
    subscribe: (_listener: (envelope: EventEnvelope) => void) => () => undefined,
  };
  return { transport, invoked, sent };
}

describe('window.flint built from the contract', () => {
  it('sends a one-way request at once, and resolves it without waiting for main', async () => {
    const { transport, invoked, sent } = recordingTransport();
    const flint = createFlintApi(transport);
    const call = flint.acknowledgeAnswer({ sessionId: 's1' });
    expect(sent).toEqual([{ channel: requests.acknowledgeAnswer.channel, input: { sessionId: 's1' } }]);
    expect(await call).toEqual({ ok: true, value: null });
    expect(invoked).toEqual([]);
  });

  it('invokes a request and gives back what main answered', async () => {
    const { transport, invoked, sent } = recordingTransport();
    const flint = createFlintApi(transport);
    expect(await flint.listConversations({})).toEqual({ ok: true, value: null });
    expect(invoked).toEqual([requests.listConversations.channel]);
    expect(sent).toEqual([]);
  });

  it('makes only acknowledgements one way: every other request is answered', () => {
    const oneWay = Object.entries(requests).filter(([, definition]: [string, { oneWay?: true }]) => definition.oneWay).map(([name]) => name);
    expect(oneWay).toEqual(['acknowledgeAnswer']);
  });
});
