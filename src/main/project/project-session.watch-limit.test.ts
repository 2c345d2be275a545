/**
 * Past the OS's limit on watches, for real: the session runs in a process of its own inside
 * a user namespace whose inotify limit is lowered (`/proc/sys/user/max_inotify_watches`), so
 * the kernel refuses watches with ENOSPC as it does on a machine at its limit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TreeChange } from '../../shared/project-types';
import { withWatchLimit } from '../../../test/helpers/serve-process';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import type { UnwatchedSummary } from './unwatched-folders';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const CHILD = join(ROOT, 'test', 'helpers', 'watch-limit-child.ts');
/** Watches the kernel grants in the namespace: the root and a few folders of the 84 below. */
const WATCH_LIMIT = 24;

type Line =
  | { type: 'unwatched'; summary: UnwatchedSummary | null }
  | { type: 'changes'; changes: TreeChange[] }
  | { type: 'save'; path: string }
  | { type: 'watching'; unwatched: UnwatchedSummary | null }
  | { type: 'focused'; focus: string[] };

/** The session in a namespace with WATCH_LIMIT watches, and every line it printed. */
function startLimitedSession(root: string, polling: object = {}): { child: ChildProcess; lines: Line[]; errors: string[]; send(command: object): void } {
  const child = spawn(...withWatchLimit([process.execPath, '--import', 'tsx', CHILD, root], WATCH_LIMIT), { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, FLINT_TEST_POLLING: JSON.stringify(polling) } });
  const lines: Line[] = [];
  const errors: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(JSON.parse(line) as Line));
  child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString()));
  return { child, lines, errors, send: (command) => child.stdin!.write(`${JSON.stringify(command)}\n`) };
}

describe('a project past the OS limit on watches', () => {
  let project: TempProject;
  let session: ReturnType<typeof startLimitedSession> | undefined;

  beforeEach(async () => {
    // The root, apps, 40 packages with a src folder each, libs and libs/util: 84 folders.
    const files: Record<string, string> = { 'README.md': '# many folders\n', 'libs/util/index.ts': 'export {};\n' };
    for (let index = 0; index < 40; index += 1) files[`apps/pkg${String(index).padStart(2, '0')}/src/index.ts`] = `export const n = ${index};\n`;
    project = await createTempProject(files);
  });

  afterEach(async () => {
    if (session) {
      const exited = new Promise((resolve) => session!.child.once('exit', resolve));
      session.child.stdin!.end();
      await exited;
      session = undefined;
    }
    await project.remove();
  });

  /** Waits for a line the session printed, failing with what it wrote to stderr if it died. */
  const line = <T extends Line['type']>(what: string, test: (line: Line) => line is Extract<Line, { type: T }>) =>
    waitFor(() => {
      if (session!.child.exitCode !== null) throw new Error(`the session exited (${session!.child.exitCode}): ${session!.errors.join('')}`);
      return session!.lines.find(test);
    }, what, 30_000);
  const addedLine = (path: string) => (candidate: Line): candidate is Extract<Line, { type: 'changes' }> =>
    candidate.type === 'changes' && candidate.changes.some((change) => change.type === 'added' && change.entry.path === path);

  it('names the folders it could not watch, and sees a file added in one of them by reading it', async () => {
    session = startLimitedSession(project.root);
    const watching = await line('the watcher to cover what it can', (candidate): candidate is Extract<Line, { type: 'watching' }> => candidate.type === 'watching');
    const unwatched = watching.unwatched!;
    expect(unwatched).toMatchObject({ code: 'ENOSPC' });
    // 84 folders, WATCH_LIMIT watches: the rest are polled, each a real folder of the project.
    expect(unwatched.count).toBeGreaterThanOrEqual(84 - WATCH_LIMIT);
    expect(unwatched.examples.length).toBe(3);
    for (const folder of unwatched.examples) expect(existsSync(project.path(folder))).toBe(true);

    // A folder the kernel refused: only a read of it can find the file.
    const refused = unwatched.examples[0]!;
    await writeFile(project.path(`${refused}/added.ts`), 'export {};\n');
    await line('the added file, found by polling', addedLine(`${refused}/added.ts`));
    // A watched folder still reports by itself.
    await writeFile(project.path('top.txt'), 'hi\n');
    await line('a file added at the root', addedLine('top.txt'));
  });

  it('reads the folder the user works in often enough that a save there is seen, and drops a removed folder', async () => {
    // One slow round at the start, the next an hour away: only the fast reads of the user's folder can see the save.
    session = startLimitedSession(project.root, { slowRoundMinMs: 3_600_000 });
    const watching = await line('the watcher to cover what it can', (candidate): candidate is Extract<Line, { type: 'watching' }> => candidate.type === 'watching');
    const [, refused, removed] = watching.unwatched!.examples as [string, string, string];
    session.send({ focus: [refused] });
    await line('the focus to be set', (candidate): candidate is Extract<Line, { type: 'focused' }> => candidate.type === 'focused');
    await writeFile(project.path(`${refused}/saved.ts`), 'export const saved = 1;\n');
    await line('the new file in the polled folder', addedLine(`${refused}/saved.ts`));
    // Another size too: a coarse clock may stamp both writes alike.
    await writeFile(project.path(`${refused}/saved.ts`), 'export const saved = 22;\n');
    await line('the save in the polled folder', (candidate): candidate is Extract<Line, { type: 'save' }> => candidate.type === 'save' && candidate.path === `${refused}/saved.ts`);

    const before = session.lines.filter((candidate) => candidate.type === 'unwatched').length;
    await rm(project.path(removed), { recursive: true });
    await line('the removed folder', (candidate): candidate is Extract<Line, { type: 'changes' }> => candidate.type === 'changes' && candidate.changes.some((change) => change.type === 'removed' && change.path === removed));
    const smaller = await line('fewer unwatched folders', (candidate): candidate is Extract<Line, { type: 'unwatched' }> =>
      candidate.type === 'unwatched' && session!.lines.indexOf(candidate) >= before && candidate.summary !== null && !candidate.summary.examples.includes(removed));
    expect(smaller.summary!.count).toBeLessThan(watching.unwatched!.count);
  });

  it('watches every folder again once a .gitignore hides enough of them, and says so', async () => {
    session = startLimitedSession(project.root);
    const watching = await line('the watcher to cover what it can', (candidate): candidate is Extract<Line, { type: 'watching' }> => candidate.type === 'watching');
    // The report of the whole limit comes with the poller's next tick, which may follow `watching`.
    await line('the limit reported', (candidate): candidate is Extract<Line, { type: 'unwatched' }> => candidate.type === 'unwatched' && candidate.summary?.count === watching.unwatched!.count);
    const before = session.lines.length;
    // Left: the root, apps (hidden, watched as an entry), libs and libs/util: 4 watches of the 24.
    await writeFile(project.path('.gitignore'), 'apps/\n');
    await line('every folder watched', (candidate): candidate is Extract<Line, { type: 'unwatched' }> => candidate.type === 'unwatched' && candidate.summary === null);
    const after = session.lines.slice(before).filter((candidate) => candidate.type === 'unwatched');
    expect(after).toEqual([{ type: 'unwatched', summary: null }]);
  });
});
