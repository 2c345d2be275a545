/**
 * The inference socket's figures: send overhead on a warm socket, the spare taking over
 * after an interrupt, and Flint's streaming overhead against a bare `ws` reader.
 */
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { createMemoryLogger } from '../../src/main/logger';
import { ResponsesProvider } from '../../src/main/inference/responses/responses-provider';
import type { StreamEnd } from '../../src/main/inference/model-stream';
import { startSimProcess } from '../helpers/sim-process';
import { median, percentile, round } from './statistics';

const MODEL = 'gpt-5.3-codex-spark';
const SEND_SAMPLES = 200;
const RECONNECT_SAMPLES = 40;
const OVERHEAD_RUNS = 7;
/** ~2,000 simulated tokens (the simulator counts about four characters a token). */
const LONG_ANSWER = 'tok '.repeat(2000).trim();

export interface SocketFigures {
  socket_send_p95_ms: number;
  socket_reconnect_ms: number;
  stream_overhead_pct: number;
}

export async function measureSocket(log: (line: string) => void): Promise<SocketFigures> {
  // Fast answers for the send and reconnect figures; a 5,000 tok/s stream for the overhead.
  const script = JSON.stringify({ defaultAnswer: 'ok', rules: [{ match: { inputIncludes: 'long answer' }, answer: { text: LONG_ANSWER }, tokensPerSecond: 5000, ttftMs: 0 }] });
  const { writeFile, mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const folder = await mkdtemp(join(tmpdir(), 'flint-bench-sim-'));
  await writeFile(join(folder, 'script.json'), script);
  const sim = await startSimProcess(['--script', join(folder, 'script.json'), '--ttft', '0', '--tps', '100000', '--chunk-tokens', '4']);
  const provider = new ResponsesProvider({ baseUrl: sim.baseUrl, apiKey: 'sk-bench', model: MODEL, logger: createMemoryLogger() });
  try {
    provider.warm();
    await waitUntilReady(provider);

    log(`Timing ${SEND_SAMPLES} requests on a warm socket…`);
    const sends: number[] = [];
    for (let index = 0; index < SEND_SAMPLES; index += 1) {
      const end = await runOne(provider, 'short');
      sends.push(end.latency.keypressToWriteMs);
    }

    log(`Interrupting ${RECONNECT_SAMPLES} answers and timing the next request on the spare…`);
    const reconnects: number[] = [];
    for (let index = 0; index < RECONNECT_SAMPLES; index += 1) {
      await waitUntilReady(provider, 2);
      const running = provider.stream({ model: MODEL, input: 'long answer' }, { onDelta: () => undefined, onEnd: () => undefined });
      await new Promise((resolve) => setTimeout(resolve, 5));
      running.cancel();
      const end = await runOne(provider, 'short');
      reconnects.push(end.latency.keypressToWriteMs);
    }

    log(`Comparing ${OVERHEAD_RUNS} 2,000-token answers at 5,000 tok/s with a bare ws reader…`);
    const flintTimes: number[] = [];
    const bareTimes: number[] = [];
    const bare = await openBare(sim.baseUrl);
    for (let run = 0; run < OVERHEAD_RUNS; run += 1) {
      await waitUntilReady(provider, 2);
      flintTimes.push((await runOne(provider, 'long answer')).latency.totalMs);
      bareTimes.push(await bareRead(bare));
    }
    bare.close();
    const flint = median(flintTimes);
    const reference = median(bareTimes);
    return {
      socket_send_p95_ms: round(percentile(sends, 0.95), 2),
      socket_reconnect_ms: round(percentile(reconnects, 0.95), 2),
      stream_overhead_pct: round(((flint - reference) / reference) * 100, 2),
    };
  } finally {
    provider.dispose();
    await sim.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

function runOne(provider: ResponsesProvider, input: string): Promise<StreamEnd> {
  return provider.stream({ model: MODEL, input, keypressAt: performance.now() }, { onDelta: () => undefined, onEnd: () => undefined }).done;
}

async function waitUntilReady(provider: ResponsesProvider, idle = 1): Promise<void> {
  const pool = (provider as unknown as { pool: { idleCount: number } }).pool;
  const deadline = performance.now() + 10_000;
  while (pool.idleCount < idle) {
    if (performance.now() > deadline) throw new Error('the pool never became ready');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

function openBare(baseUrl: string): Promise<WebSocket> {
  const socket = new WebSocket(`${baseUrl.replace('http:', 'ws:')}/responses`, { headers: { Authorization: 'Bearer sk-bench' }, perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** The reference: send, parse each frame, stop at response.completed. Nothing else. */
function bareRead(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => {
    const started = performance.now();
    const onMessage = (data: WebSocket.RawData): void => {
      const event = JSON.parse(data.toString()) as { type: string };
      if (event.type === 'response.completed') {
        socket.off('message', onMessage);
        resolve(performance.now() - started);
      }
    };
    socket.on('message', onMessage);
    socket.send(JSON.stringify({ type: 'response.create', model: MODEL, store: false, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'long answer' }] }] }));
  });
}
