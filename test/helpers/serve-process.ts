/**
 * Runs the real serve shell (`node out/main/serve.js`) as a child process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const SERVE_ENTRY = join(import.meta.dirname, '..', '..', 'out', 'main', 'serve.js');

export interface ServeProcess {
  url: string;
  /** The port it listens on: pass `--port` with it to start the next one on the same port. */
  port: number;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<void>;
}

/** Starts `node out/main/serve.js ...args` (e.g. a folder, `--port N`) and resolves once it printed its URL. */
export async function startServeProcess(args: string[], env: Record<string, string>, options: ServeProcessOptions = {}): Promise<ServeProcess> {
  if (!existsSync(SERVE_ENTRY)) throw new Error(`${SERVE_ENTRY} is missing: run \`electron-vite build\` first (npm test does).`);
  const command = [process.execPath, SERVE_ENTRY, ...args];
  const child = spawn(...withWatchLimit(command, options.watchLimit), { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no URL; stderr: ${stderr}`)), 20_000);
    lines.once('line', (line) => {
      clearTimeout(timer);
      // The token rides in the fragment, which browsers never send.
      const match = /http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]+/.exec(line);
      if (match) resolve(match[0]);
      else reject(new Error(`unexpected first line: ${line}`));
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}; stderr: ${stderr}`)));
  });
  return {
    url,
    port: Number(new URL(url).port),
    child,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The serve shell's environment for a run against the simulator: its own config folder,
 * the FLINT_* provider on the simulator with a key, and no keychain (no D-Bus).
 */
export function simulatorServeEnv(configDirectory: string, baseUrl: string, apiKey: string): Record<string, string> {
  return {
    FLINT_CONFIG_DIR: configDirectory,
    FLINT_PROVIDER: 'openai-responses',
    FLINT_BASE_URL: baseUrl,
    FLINT_MODEL: 'gpt-5.3-codex-spark',
    FLINT_API_KEY: apiKey,
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
  };
}

export interface ServeProcessOptions {
  /** Run in a user namespace whose inotify limit is this many watches: the kernel refuses the rest (ENOSPC). */
  watchLimit?: number;
}

/**
 * The command as spawn takes it, inside a user namespace with `limit` inotify watches when
 * given (`/proc/sys/user/max_inotify_watches` is the namespace's own). The shell execs the
 * command: the child's pid is the command's, and a signal reaches it.
 */
export function withWatchLimit([file, ...args]: string[], limit: number | undefined): [string, string[]] {
  if (limit === undefined) return [file!, args];
  return ['unshare', ['--user', '--map-root-user', 'sh', '-c', `echo ${limit} > /proc/sys/user/max_inotify_watches && exec "$0" "$@"`, file!, ...args]];
}
