/**
 * The packaging recipe works without downloading Electron: electron-builder packs the
 * built app into app.asar, with keytar's native module unpacked beside it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

describe('packaging', () => {
  let scratch: string | undefined;

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('packs the built app into app.asar with keytar unpacked', { timeout: 120_000 }, async () => {
    expect(existsSync(join(ROOT, 'out', 'main', 'index.js')), 'run `electron-vite build` first (npm test does)').toBe(true);
    scratch = await mkdtemp(join(tmpdir(), 'flint-package-'));
    // A stand-in for the Electron binary, which cannot be downloaded here.
    const electronDist = join(scratch, 'electron-dist');
    await run('mkdir', ['-p', electronDist]);
    await writeFile(join(electronDist, 'electron'), '');
    await chmod(join(electronDist, 'electron'), 0o755);
    const output = join(scratch, 'dist');
    await run(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'electron-builder', 'cli.js'),
        '--linux',
        'dir',
        `-c.electronDist=${electronDist}`,
        '-c.npmRebuild=false',
        `-c.directories.output=${output}`,
      ],
      { cwd: ROOT, env: { ...process.env, CI: 'true' } },
    );
    const resources = join(output, 'linux-unpacked', 'resources');
    expect((await readdir(resources)).sort()).toEqual(['app.asar', 'app.asar.unpacked']);
    expect(existsSync(join(resources, 'app.asar.unpacked', 'node_modules', 'keytar', 'build', 'Release', 'keytar.node'))).toBe(true);
  });
});
