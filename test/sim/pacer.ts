/**
 * Sends chunks at a steady token rate after a first-token delay, catching up in
 * batches when the timer fires late (timers are 1 ms coarse; 5,000 tok/s is 0.2 ms).
 */
export interface PaceOptions {
  ttftMs: number;
  tokensPerSecond: number;
  /** Tokens per chunk (each chunk becomes one delta event). */
  chunkTokens: number;
  /** After token `afterToken` (a chunk ends there), wait for `until` (calling `reached` then), and go on at the same pace from there. */
  hold?: { afterToken: number; reached: () => void; until: Promise<void> };
}

export interface PacedStream {
  /** Stops sending; nothing more is emitted. */
  stop(): void;
  done: Promise<'finished' | 'stopped'>;
}

/** Calls `emit(chunk, index)` for each chunk of `tokens`, paced; `shouldStop(index)` can cut it short. */
export function pace(tokens: readonly string[], options: PaceOptions, emit: (chunk: string, index: number) => void): PacedStream {
  const chunks: string[] = [];
  const size = Math.max(1, Math.floor(options.chunkTokens));
  let holdChunk = -1;
  for (let start = 0, end = 0; start < tokens.length; start = end) {
    end = Math.min(tokens.length, start + size);
    const hold = options.hold?.afterToken;
    if (hold !== undefined && start <= hold && hold < end) {
      end = hold + 1;
      holdChunk = chunks.length;
    }
    chunks.push(tokens.slice(start, end).join(''));
  }
  let started = performance.now() + options.ttftMs;
  const msPerChunk = (1000 * size) / options.tokensPerSecond;
  let next = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let finish: (how: 'finished' | 'stopped') => void = () => undefined;
  const done = new Promise<'finished' | 'stopped'>((resolve) => (finish = resolve));

  const tick = (): void => {
    if (stopped) return;
    const now = performance.now();
    while (next < chunks.length && started + next * msPerChunk <= now) {
      emit(chunks[next]!, next);
      next += 1;
      if (stopped) return;
      if (next - 1 === holdChunk && next < chunks.length) return holdThen();
    }
    if (next >= chunks.length) return finish('finished');
    timer = setTimeout(tick, Math.max(0, started + next * msPerChunk - performance.now()));
  };
  const holdThen = (): void => {
    options.hold!.reached();
    void options.hold!.until.then(() => {
      started = performance.now() - next * msPerChunk;
      tick();
    });
  };
  timer = setTimeout(tick, options.ttftMs);
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      finish('stopped');
    },
    done,
  };
}
