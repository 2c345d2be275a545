/**
 * The serve shell's process: parse the arguments, build the core, start the server,
 * print the URL, open the folder, stop cleanly on a signal.
 *
 * Loaded by cli.ts only after the Node version check, so nothing here runs on an
 * unsupported runtime.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createContractHost } from '../contract-host';
import { createFlintCore } from '../core/create-core';
import { systemDesktopReaders } from '../desktop/desktop-readers';
import { stderrLogger } from '../logger';
import { configDirectory } from '../settings/config-directory';
import { startServeServer } from './serve-server';

/**
 * Runs `npm run serve -- [folder] [--port N]` until SIGINT/SIGTERM. `rendererFolder` comes
 * from the entry file, whose place in out/main is fixed (this module may land in a chunk).
 * Prints exactly one line on stdout, the URL; everything else goes to stderr.
 */
export async function runServeShell(rendererFolder: string): Promise<void> {
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
  const core = await createFlintCore({ shell: 'serve', askCommand: `kill -USR1 ${process.pid}`, configDirectory: configDirectory(), logger, desktop: systemDesktopReaders(process.platform, process.env, logger) });
  const server = await startServeServer({
    host: createContractHost(core.handlers, logger),
    events: core.onDidEmit,
    rendererFolder,
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
  // What `flint --ask` does in the app: a desktop shortcut can run `kill -USR1 <pid>` to open
  // the bar about the file in the focused editor window.
  process.on('SIGUSR1', () => core.openAskBar('command-line'));
}

/** Reports a failed start on stderr and exits 1 (the entry's last resort). */
export function failServeShell(error: unknown): never {
  stderrLogger.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
