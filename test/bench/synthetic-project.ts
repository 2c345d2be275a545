/**
 * Generates synthetic projects for the bench, cached between runs in the temp folder.
 *
 * Shape: nested folders of 50 source files each, a .gitignore, a node_modules
 * and a build folder (hidden, so never indexed beyond one entry each).
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const FILES_PER_FOLDER = 50;
const FOLDERS_PER_FOLDER = 10;

export async function syntheticProject(fileCount: number): Promise<{ root: string; files: string[] }> {
  const root = join(tmpdir(), `flint-bench-${fileCount}`);
  const files: string[] = [];
  const folders: string[] = [];
  // Breadth-first folder paths: src/d0, src/d1, …, src/d0/d0, …
  const queue = ['src'];
  while (folders.length * FILES_PER_FOLDER < fileCount) {
    const folder = queue.shift()!;
    folders.push(folder);
    for (let index = 0; index < FOLDERS_PER_FOLDER; index += 1) queue.push(`${folder}/d${index}`);
  }
  for (const folder of folders) {
    for (let index = 0; index < FILES_PER_FOLDER && files.length < fileCount; index += 1) {
      files.push(`${folder}/module${index}.ts`);
    }
  }
  const marker = join(root, '.flint-bench-complete');
  // A repository (as a monorepo is): opened at once, never held by the size warning.
  const repository = async (): Promise<void> => {
    await mkdir(join(root, '.git'), { recursive: true });
    await writeFile(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  };
  if (existsSync(marker)) {
    await repository();
    return { root, files };
  }

  await rm(root, { recursive: true, force: true });
  for (const folder of folders) await mkdir(join(root, folder), { recursive: true });
  for (let start = 0; start < files.length; start += 500) {
    await Promise.all(
      files.slice(start, start + 500).map((file, offset) =>
        writeFile(join(root, file), `export const value${start + offset} = ${start + offset};\n`),
      ),
    );
  }
  await writeFile(join(root, '.gitignore'), 'build/\n*.log\n');
  for (const hidden of ['node_modules/pkg', 'build']) {
    await mkdir(join(root, hidden), { recursive: true });
    await writeFile(join(root, hidden, 'index.js'), 'module.exports = 1;\n');
  }
  await repository();
  await writeFile(marker, '');
  return { root, files };
}
