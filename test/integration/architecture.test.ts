/**
 * The layering rules the folder tree promises, checked on the source.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SOURCE = join(import.meta.dirname, '..', '..', 'src');

async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

async function filesImporting(folder: string, pattern: RegExp): Promise<string[]> {
  const matches: string[] = [];
  for (const file of await sourceFiles(folder)) {
    if (pattern.test(await readFile(file, 'utf8'))) matches.push(relative(SOURCE, file));
  }
  return matches.sort();
}

const IMPORTS_ELECTRON = /from ['"]electron['"]|require\(['"]electron['"]\)/;

describe('the layering', () => {
  it('keeps electron out of main, except the one adapter folder', async () => {
    const offenders = (await filesImporting(join(SOURCE, 'main'), IMPORTS_ELECTRON)).filter(
      (file) => !file.startsWith('main/electron/'),
    );
    expect(offenders).toEqual([]);
  });

  it('keeps shared code free of electron, Node built-ins and the DOM shells', async () => {
    expect(await filesImporting(join(SOURCE, 'shared'), /from ['"](electron|node:[a-z/]+|react)['"]/)).toEqual([]);
  });

  it('keeps the renderer away from Node, electron and main', async () => {
    const offenders = await filesImporting(join(SOURCE, 'renderer'), /from ['"](electron|node:[a-z/]+)['"]|from ['"][./]+\/main\//);
    expect(offenders).toEqual([]);
  });

  it('keeps fs/ the lowest layer of main: it imports no other folder of main', async () => {
    // `../x` is a sibling folder of main; `../../shared` (and tests' `../../../test`) are outside it.
    expect(await filesImporting(join(SOURCE, 'main', 'fs'), /from '\.\.\/(?!\.\.\/)/)).toEqual([]);
  });

  it('keeps zod (the runtime schemas) out of everything the renderer and preload bundle', async () => {
    const offenders = [
      ...(await filesImporting(join(SOURCE, 'renderer'), /contract-schemas|from ['"]zod['"]/)),
      ...(await filesImporting(join(SOURCE, 'preload'), /contract-schemas|from ['"]zod['"]/)),
    ];
    expect(offenders).toEqual([]);
  });
});
