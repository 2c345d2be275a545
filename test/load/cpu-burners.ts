/**
 * CPU burners: processes that keep a core busy, so the suite (and the bench) can be run the
 * way a busy machine runs it. Each is a plain `node` spinning in a loop at normal priority
 * (competing with the suite as a build or an editor would), gone with its parent.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface CpuBurners {
  readonly count: number;
  stop(): Promise<void>;
}

/** Starts `count` burners; `stop` kills them and waits until they are gone. */
export function startCpuBurners(count: number): CpuBurners {
  const children: ChildProcess[] = [];
  for (let index = 0; index < count; index += 1) {
    // A tight loop that also exits if its parent dies (its stdin closes), so none is ever left behind.
    const child = spawn(process.execPath, ['-e', "process.stdin.on('end', () => process.exit(0)); process.stdin.resume(); setImmediate(function spin() { const until = Date.now() + 50; while (Date.now() < until); setImmediate(spin); });"], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    children.push(child);
  }
  return {
    count,
    stop: async () => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              child.once('exit', () => resolve());
              child.kill('SIGKILL');
            }),
        ),
      );
    },
  };
}
