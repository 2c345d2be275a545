/**
 * Runs one request through a provider and keeps everything it delivered.
 */
import type { InferenceProvider, ModelStream, StreamEnd, StreamRequest } from '../../src/main/inference/model-stream';

export interface Collected {
  text: string;
  tool: string;
  deltas: number;
  stream: ModelStream;
  end: Promise<StreamEnd>;
}

export function collect(provider: InferenceProvider, request: StreamRequest): Collected {
  const collected = { text: '', tool: '', deltas: 0 } as Collected;
  collected.stream = provider.stream(request, {
    onDelta: (kind, text) => {
      collected.deltas += 1;
      if (kind === 'text') collected.text += text;
      else collected.tool += text;
    },
    onEnd: () => undefined,
  });
  collected.end = collected.stream.done;
  return collected;
}
