/**
 * Runs the inference simulator in its own process (`npm run sim`), so a bench measures
 * Flint's client without the server competing for the same event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = join(import.meta.dirname, '..', '..');

export interface SimProcess {
  baseUrl: string;
  port: number;
  stop(): Promise<void>;
}

export async function startSimProcess(args: string[]): Promise<SimProcess> {
  const child: ChildProcess = spawn(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), join(ROOT, 'test', 'sim', 'cli.ts'), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}`)));
  });
  const baseUrl = /http:\/\/127\.0\.0\.1:\d+\/v1/.exec(line)?.[0];
  if (!baseUrl) throw new Error(`unexpected simulator output: ${line}`);
  return {
    baseUrl,
    port: Number(new URL(baseUrl).port),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
