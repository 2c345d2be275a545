/**
 * `npm run sim -- --port N [--script FILE] [--ttft MS] [--tps N] [--chunk-tokens N] [--api-key KEY] [--models A,B]`
 *
 * Runs the inference simulator until interrupted. Base URL for both protocols:
 * http://127.0.0.1:PORT/v1 (Responses WebSocket at ws://127.0.0.1:PORT/v1/responses).
 */
import { parseArgs } from 'node:util';
import { loadSimScript } from './sim-script';
import { startSimulator } from './simulator';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    script: { type: 'string' },
    ttft: { type: 'string' },
    tps: { type: 'string' },
    'chunk-tokens': { type: 'string' },
    'api-key': { type: 'string' },
    /** The models served (and listed by GET /v1/models); others are refused with model_not_found. */
    models: { type: 'string' },
  },
});
const number = (value: string | undefined): number | undefined => (value === undefined ? undefined : Number(value));
const simulator = await startSimulator({
  port: Number(values.port),
  script: values.script ? await loadSimScript(values.script) : undefined,
  ttftMs: number(values.ttft),
  tokensPerSecond: number(values.tps),
  chunkTokens: number(values['chunk-tokens']),
  apiKey: values['api-key'],
  models: values.models ? values.models.split(',').map((name) => name.trim()).filter(Boolean) : undefined,
});
process.stdout.write(`Flint simulator at ${simulator.baseUrl} (Responses WebSocket: ws://127.0.0.1:${simulator.port}/v1/responses)\n`);
const stop = (): void => void simulator.close().finally(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
