/**
 * A private, real Secret Service for tests: its own D-Bus session bus and an unlocked
 * gnome-keyring, with keyrings in a temp folder (the user's keychain is never touched).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface SecretService {
  /** Put this in the environment before the first keychain call of the process. */
  busAddress: string;
  stop(): Promise<void>;
}

export async function startSecretService(): Promise<SecretService> {
  const home = await mkdtemp(join(tmpdir(), 'flint-keyring-'));
  const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const busAddress = await firstLine(bus, 'dbus-daemon');
  const env = {
    ...process.env,
    DBUS_SESSION_BUS_ADDRESS: busAddress,
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_RUNTIME_DIR: home,
  };
  const keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
    env,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  keyring.stdin!.end('flint-test-password\n');
  keyring.once('error', () => undefined);
  try {
    await waitForBusName(busAddress, 'org.freedesktop.secrets');
  } catch (error) {
    await Promise.all([stop(keyring), stop(bus)]);
    await rm(home, { recursive: true, force: true });
    throw error;
  }
  return {
    busAddress,
    stop: async () => {
      await Promise.all([stop(keyring), stop(bus)]);
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** Polls the bus until `name` has an owner: gnome-keyring prints nothing when it is ready. */
async function waitForBusName(busAddress: string, name: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { stdout } = await execFileAsync(
      'dbus-send',
      ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', `string:${name}`],
      { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: busAddress } },
    ).catch(() => ({ stdout: '' }));
    if (stdout.includes('boolean true')) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${name} never appeared on the test bus (is gnome-keyring installed?)`);
}

function firstLine(child: ChildProcess, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), 10_000);
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
    child.once('error', (error) => reject(new Error(`${name} could not start: ${error.message}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
