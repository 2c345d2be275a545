/**
 * Real temporary folders for tests, removed afterwards.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface TempProject {
  /** Real path of the folder (tmpdir may be a symlink). */
  root: string;
  /** Writes files (creating folders) from a map of relative path → contents. */
  write(files: Record<string, string | Uint8Array>): Promise<void>;
  path(relative: string): string;
  remove(): Promise<void>;
}

export async function createTempProject(files: Record<string, string | Uint8Array> = {}): Promise<TempProject> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'flint-test-')));
  const project: TempProject = {
    root,
    path: (relative) => join(root, ...relative.split('/')),
    write: async (more) => {
      for (const [relative, contents] of Object.entries(more)) {
        const target = project.path(relative);
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, contents);
      }
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
  await project.write(files);
  return project;
}

/** Resolves when `predicate` holds, polling; rejects with `what` after `timeoutMs`. */
export async function waitFor<T>(read: () => T | undefined | null | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
