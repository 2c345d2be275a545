/**
 * The first thing both entry points do: refuse a Node older than package.json's `engines`.
 *
 * On an older runtime the serve shell got as far as printing its URL and then died in a
 * native module (keytar, exit 139) without a word. This module imports nothing, so an
 * entry can run it before anything else is loaded (see src/main/index.ts and
 * src/main/serve/cli.ts). Only erasable TypeScript here: a test runs it with Node's own
 * type stripping in a child process.
 */

/** The oldest supported Node; equal to package.json's `engines.node` (a test keeps them in step). */
export const MINIMUM_NODE_VERSION = '22.22.0';

/**
 * The one line to print when `version` (e.g. `22.21.1` or `v20.0.0`) is older than
 * `minimum`, or null when it is supported. A version that cannot be read is let through:
 * refusing an odd but working runtime would be worse than the crash this guards against.
 */
export function unsupportedNodeMessage(version: string, minimum: string = MINIMUM_NODE_VERSION): string | null {
  const given = parseVersion(version);
  const needed = parseVersion(minimum);
  if (given === null || needed === null || compareVersions(given, needed) >= 0) return null;
  return `Flint needs Node ${minimum} or newer, but this is Node ${given.join('.')}; install a newer Node (see DEVELOPERS.md) and run it again.`;
}

/**
 * Writes that line to stderr and exits with status 1 if this runtime is too old.
 * Called first thing by both entries, before they load the rest of the app.
 */
export function exitIfUnsupportedNode(version: string = process.versions.node): void {
  const message = unsupportedNodeMessage(version);
  if (message === null) return;
  // stderr is synchronous for files, TTYs and (on POSIX) pipes, so the line is out before exit.
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function parseVersion(text: string): [number, number, number] | null {
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let index = 0; index < 3; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
