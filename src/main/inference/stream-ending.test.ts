import { describe, expect, it } from 'vitest';
import { KEY_HIDDEN, shortestHiddenKeyStart } from './key-redactor';
import { LatencyRecorder } from './latency-recorder';
import type { StreamEnd, StreamSink } from './model-stream';
import { StreamEnding } from './stream-ending';

const KEY = 'sk-test-9d8c7b6a5f4e';

function recordingSink(): StreamSink & { events: string[] } {
  const events: string[] = [];
  return {
    events,
    onDelta: (text) => events.push(`text:${text}`),
    onEnd: (end: StreamEnd) => events.push(`end:${end.outcome}${end.message !== undefined ? `:${end.message}` : ''}`),
  };
}

const endingFor = (sink: StreamSink) => new StreamEnding(sink, new LatencyRecorder('m'), KEY);

describe('StreamEnding', () => {
  it('hides a key split across prose deltas', () => {
    const sink = recordingSink();
    const ending = endingFor(sink);
    ending.deliver(`echo: ${KEY.slice(0, 9)}`);
    ending.deliver(`${KEY.slice(9)} done`);
    ending.end('completed');
    expect(sink.events.join('|')).not.toContain(KEY.slice(0, 8));
    expect(sink.events).toEqual(['text:echo: ', `text:${KEY_HIDDEN} done`, 'end:completed']);
  });

  it('passes a delta that ends in a short start of the key on at once, and hides the rest if the key goes on', () => {
    const sink = recordingSink();
    const ending = endingFor(sink);
    ending.deliver('a word ending in s');
    ending.deliver(`: ${KEY.slice(0, 3)}`);
    ending.deliver(`${KEY.slice(3)} done`);
    ending.end('completed');
    expect(sink.events).toEqual(['text:a word ending in s', 'text:: sk-', `text:${KEY_HIDDEN} done`, 'end:completed']);
  });

  it('hides a held key start at the end, however the stream ends', () => {
    for (const outcome of ['completed', 'failed', 'cancelled', 'incomplete'] as const) {
      const sink = recordingSink();
      const ending = endingFor(sink);
      ending.deliver('ask sk-');
      ending.deliver('test-9');
      ending.end(outcome);
      expect(sink.events).toEqual(['text:ask sk-', `text:${KEY_HIDDEN}`, `end:${outcome}`]);
    }
  });

  it('hides a stream that stops mid-key, however it ends, at every length from the threshold on', () => {
    for (const outcome of ['completed', 'failed', 'cancelled', 'incomplete'] as const) {
      for (let length = 1; length < KEY.length; length += 1) {
        const sink = recordingSink();
        const ending = endingFor(sink);
        ending.deliver(`ask ${KEY.slice(0, Math.ceil(length / 2))}`);
        ending.deliver(KEY.slice(Math.ceil(length / 2), length));
        ending.end(outcome, 'The connection dropped.');
        const shown = sink.events.join('|');
        expect(shown, `${outcome} after ${length} characters`).not.toContain(KEY.slice(0, shortestHiddenKeyStart(KEY.length)));
        // The first delta's start of the key was shown with it when it was 3 characters at most.
        const first = Math.ceil(length / 2) <= 3 ? KEY.slice(0, Math.ceil(length / 2)) : '';
        if (length >= shortestHiddenKeyStart(KEY.length)) expect(sink.events).toEqual([`text:ask ${first}`, `text:${KEY_HIDDEN}`, `end:${outcome}:The connection dropped.`]);
      }
    }
  });

  it('hides the key in the end message and in `done`', async () => {
    const sink = recordingSink();
    const ending = endingFor(sink);
    ending.end('failed', `The provider said: bad key ${KEY}.`);
    expect(sink.events).toEqual([`end:failed:The provider said: bad key ${KEY_HIDDEN}.`]);
    expect((await ending.done).message).toBe(`The provider said: bad key ${KEY_HIDDEN}.`);
  });

  it('still tells the sink the end, and settles `done`, when the sink throws on the held tail', async () => {
    const events: string[] = [];
    const sink: StreamSink = {
      onDelta: (text) => {
        events.push(`text:${text}`);
        if (text === KEY_HIDDEN) throw new Error('sink bug');
      },
      onEnd: (end) => events.push(`end:${end.outcome}`),
    };
    const ending = endingFor(sink);
    ending.deliver('ask sk-test-9');
    expect(() => ending.end('completed')).toThrow('sink bug');
    expect(events).toEqual(['text:ask ', `text:${KEY_HIDDEN}`, 'end:completed']);
    expect((await ending.done).outcome).toBe('completed');
  });

  it('drops deltas that arrive after the end', () => {
    const sink = recordingSink();
    const ending = endingFor(sink);
    ending.end('cancelled');
    ending.deliver('late');
    ending.end('failed', 'late too');
    expect(sink.events).toEqual(['end:cancelled']);
  });
});
