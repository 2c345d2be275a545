import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE_VERSION, unsupportedNodeMessage } from './node-version';

const MODULE_URL = pathToFileURL(join(import.meta.dirname, 'node-version.ts')).href;

/** Runs the check in a fresh Node whose `process.versions.node` claims to be `version`. */
function runCheckAs(version: string) {
  const script = [
    `Object.defineProperty(process.versions, 'node', { value: ${JSON.stringify(version)} });`,
    `const { exitIfUnsupportedNode } = await import(${JSON.stringify(MODULE_URL)});`,
    'exitIfUnsupportedNode();',
    "process.stdout.write('went on');",
  ].join('\n');
  return spawnSync(process.execPath, ['--no-warnings', '--input-type=module', '--eval', script], { encoding: 'utf8' });
}

describe('unsupportedNodeMessage', () => {
  it('lets the minimum and anything newer through', () => {
    for (const version of ['22.22.0', 'v22.22.0', '22.22.1', '22.23.0', '24.0.0', 'v24.21.0', '100.0.0']) {
      expect(unsupportedNodeMessage(version, '22.22.0')).toBeNull();
    }
  });

  it('refuses anything older, comparing numerically, with one line naming both versions', () => {
    for (const version of ['22.21.9', 'v22.9.0', '20.19.5', '18.0.0', '9.99.99']) {
      const message = unsupportedNodeMessage(version, '22.22.0');
      expect(message).toContain('Flint needs Node 22.22.0 or newer');
      expect(message).toContain(`this is Node ${version.replace(/^v/, '')}`);
      expect(message).not.toContain('\n');
    }
  });

  it('lets an unreadable version through rather than refusing a working runtime', () => {
    expect(unsupportedNodeMessage('', '22.22.0')).toBeNull();
    expect(unsupportedNodeMessage('nightly', '22.22.0')).toBeNull();
  });

  it('uses the same minimum as package.json engines', () => {
    const engines = (JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
      engines: { node: string };
    }).engines.node;
    const minimum = /^>=\s*(\d+(?:\.\d+){0,2})$/.exec(engines)?.[1];
    expect(minimum).toBeDefined();
    const padded = [...minimum!.split('.'), '0', '0'].slice(0, 3).join('.');
    expect(MINIMUM_NODE_VERSION).toBe(padded);
  });
});

describe('exitIfUnsupportedNode in a process', () => {
  it('prints one line to stderr and exits 1 on an old Node, before anything else runs', () => {
    const run = runCheckAs('22.21.0');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([unsupportedNodeMessage('22.21.0')]);
  });

  it('returns quietly on a supported Node', () => {
    const run = runCheckAs(MINIMUM_NODE_VERSION);
    expect(run).toMatchObject({ status: 0, stdout: 'went on', stderr: '' });
  });
});
