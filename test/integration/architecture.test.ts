/**
 * The layering rules the folder tree promises, checked on the source.
 */
import { parse } from '@babel/parser';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE = join(ROOT, 'src');

/**
 * Main's folders, lowest layer first. A folder imports only folders of lower layers
 * (never its own layer, never a higher one), so no two folders import each other.
 * The files at main's root (lifecycle, logger, contract-host, node-version) are below
 * every folder; index.ts is the entry and may import the electron shell.
 */
const MAIN_LAYERS: readonly (readonly string[])[] = [
  ['fs'],
  ['settings', 'credentials', 'hotkey', 'project', 'context', 'desktop'],
  ['inference', 'edits'],
  ['workspace'],
  ['ask'],
  ['core'],
  ['serve', 'electron'],
];
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

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

  it('layers main: each folder imports only folders below it, and the root files none', async () => {
    const layerOf = new Map(MAIN_LAYERS.flatMap((folders, layer) => folders.map((folder) => [folder, layer] as const)));
    const main = join(SOURCE, 'main');
    const offenders: string[] = [];
    for (const file of await sourceFiles(main)) {
      const [folder, ...rest] = relative(main, file).split('/');
      // main's root files (lifecycle, logger, contract-host…) sit below every folder; index.ts is the entry.
      const own = rest.length === 0 ? (folder === 'index.ts' ? Infinity : -1) : layerOf.get(folder!);
      if (own === undefined) {
        offenders.push(`${folder}/ is in no layer: add it to MAIN_LAYERS`);
        continue;
      }
      for (const target of await importedFolders(file, main)) {
        const imported = layerOf.get(target);
        if (imported === undefined || imported >= own) offenders.push(`${relative(SOURCE, file)} imports ${target}/`);
      }
    }
    expect([...new Set(offenders)]).toEqual([]);
  });

  it(`keeps every source and test file under ${MAX_FILE_LINES} lines`, async () => {
    const offenders: string[] = [];
    for (const file of [...(await sourceFiles(SOURCE)), ...(await sourceFiles(join(ROOT, 'test')))]) {
      const lines = (await readFile(file, 'utf8')).trimEnd().split('\n').length;
      if (lines > MAX_FILE_LINES) offenders.push(`${relative(ROOT, file)}: ${lines} lines`);
    }
    expect(offenders).toEqual([]);
  });

  it(`keeps every function and component in src under ${MAX_FUNCTION_LINES} lines`, async () => {
    const offenders: string[] = [];
    for (const file of (await sourceFiles(SOURCE)).filter((path) => !path.endsWith('.test.ts'))) {
      const program = parse(await readFile(file, 'utf8'), { sourceType: 'module', plugins: ['typescript', ...(file.endsWith('.tsx') ? (['jsx'] as const) : [])] });
      for (const { name, lines, line } of longFunctions(program, MAX_FUNCTION_LINES)) offenders.push(`${relative(ROOT, file)}:${line} ${name}: ${lines} lines`);
    }
    expect(offenders).toEqual([]);
  });

  it('keeps zod (the runtime schemas) out of everything the renderer and preload bundle', async () => {
    const offenders = [
      ...(await filesImporting(join(SOURCE, 'renderer'), /contract-schemas|from ['"]zod['"]/)),
      ...(await filesImporting(join(SOURCE, 'preload'), /contract-schemas|from ['"]zod['"]/)),
    ];
    expect(offenders).toEqual([]);
  });
});

/** Every module specifier a file names: static and dynamic imports, re-exports, require. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^import\s+)['"]([^'"]+)['"]/gm;

/** The folders of main (its first path segment) that `file` imports from, resolved, not its own. */
async function importedFolders(file: string, main: string): Promise<string[]> {
  const own = relative(main, file).split('/')[0];
  const folders = new Set<string>();
  for (const [, specifier] of (await readFile(file, 'utf8')).matchAll(SPECIFIER)) {
    if (!specifier!.startsWith('.')) continue;
    const target = relative(main, resolve(dirname(file), specifier!));
    if (target.startsWith('..')) continue;
    const [first, ...rest] = target.split('/');
    // A root module (lifecycle, logger…) is below every folder; a folder's own files are its own.
    if (rest.length > 0 && first !== own) folders.add(first!);
  }
  return [...folders];
}

interface SyntaxNode {
  type: string;
  loc?: { start: { line: number }; end: { line: number } };
  body?: unknown;
  id?: { name?: string } | null;
  key?: { name?: string };
}

/** Every function (declaration, expression, arrow, method) whose body spans more than `limit` lines. */
function longFunctions(root: unknown, limit: number): Array<{ name: string; lines: number; line: number }> {
  const found: Array<{ name: string; lines: number; line: number }> = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const node = value as SyntaxNode;
    if (typeof node.type === 'string' && /Function|Method/.test(node.type) && node.body && typeof node.body === 'object') {
      const body = node.body as SyntaxNode;
      const lines = body.loc ? body.loc.end.line - body.loc.start.line + 1 : 0;
      if (lines > limit) found.push({ name: node.id?.name ?? node.key?.name ?? '(anonymous)', lines, line: body.loc!.start.line });
    }
    for (const [key, child] of Object.entries(node)) if (key !== 'loc' && key !== 'start' && key !== 'end') visit(child);
  };
  visit(root);
  return found;
}
