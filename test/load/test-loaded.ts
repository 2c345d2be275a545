/**
 * `npm run test:loaded`: the whole suite (`npm test`) with two CPU burners beside it, as on
 * a busy machine of the same kind. A test that fails only here assumed an idle CPU: find
 * the race (wait for the event that proves the state), never retry it away.
 *
 * Extra arguments go to `npm test` (`npm run test:loaded -- src/shared`); FLINT_BURNERS sets
 * how many burners run (default 2).
 */
import { spawn } from 'node:child_process';
import { startCpuBurners } from './cpu-burners';

const count = Number(process.env.FLINT_BURNERS ?? 2);
const burners = startCpuBurners(Number.isInteger(count) && count >= 0 ? count : 2);
process.stdout.write(`test:loaded: ${burners.count} CPU burners running beside the suite\n`);
const started = Date.now();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const suite = spawn(npm, ['test', '--', ...process.argv.slice(2)], { stdio: 'inherit' });

const finish = async (code: number): Promise<never> => {
  await burners.stop();
  process.stdout.write(`test:loaded: ${code === 0 ? 'passed' : 'FAILED'} in ${Math.round((Date.now() - started) / 1000)} s with ${burners.count} burners\n`);
  process.exit(code);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    suite.kill(signal);
    void finish(130);
  });
}
suite.on('exit', (code, signal) => void finish(code ?? (signal ? 1 : 0)));
