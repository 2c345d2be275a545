/**
 * Runs one request through a provider and keeps everything it delivered.
 */
import type { InferenceProvider, ModelStream, StreamEnd, StreamRequest } from '../../src/main/inference/model-stream';

export interface Collected {
  text: string;
  deltas: number;
  stream: ModelStream;
  end: Promise<StreamEnd>;
}

export function collect(provider: InferenceProvider, request: StreamRequest): Collected {
  const collected = { text: '', deltas: 0 } as Collected;
  collected.stream = provider.stream(request, {
    onDelta: (text) => {
      collected.deltas += 1;
      collected.text += text;
    },
    onEnd: () => undefined,
  });
  collected.end = collected.stream.done;
  return collected;
}
