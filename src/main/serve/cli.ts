/**
 * `npm run serve -- [folder] [--port N]`: the loopback shell's entry point.
 *
 * Prints exactly one line on stdout, the URL with its token; everything else goes to stderr.
 */
import '../v8-memory-profile';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createContractHost } from '../contract-host';
import { createFlintCore } from '../core/create-core';
import { stderrLogger } from '../logger';
import { configDirectory } from '../settings/config-directory';
import { startServeServer } from './serve-server';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    options: { port: { type: 'string', default: '0' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  if (values.help) {
    process.stderr.write('Usage: npm run serve -- [folder] [--port N]\n');
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0–65535, not ${values.port}`);

  const logger = stderrLogger;
  const core = await createFlintCore({ shell: 'serve', configDirectory: configDirectory(), logger });
  const server = await startServeServer({
    host: createContractHost(core.handlers, logger),
    events: core.onDidEmit,
    rendererFolder: join(dirname(fileURLToPath(import.meta.url)), '..', 'renderer'),
    logger,
    port,
  });
  process.stdout.write(`Flint is serving at ${server.url}\n`);

  const folder = positionals[0];
  if (folder !== undefined) {
    await core.openProject(resolve(folder)).catch((error: unknown) => {
      logger.error(`could not open ${folder}: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void Promise.all([core.shutdown(), server.close()]).finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  stderrLogger.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
