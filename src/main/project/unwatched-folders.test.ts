import { mkdir, rm, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, waitFor, type TempProject } from '../../../test/helpers/temp-project';
import type { RawChange } from './folder-watches';
import { UnwatchedFolders, type UnwatchedFoldersOptions } from './unwatched-folders';
import { describeWatchLimit } from './watch-limit-message';

describe('UnwatchedFolders', () => {
  let project: TempProject;
  let folders: UnwatchedFolders | undefined;
  let changes: RawChange[];

  beforeEach(async () => {
    project = await createTempProject({ 'a/one.ts': '1\n', 'a/b/two.ts': '2\n', 'node_modules/x/index.js': '', 'c/three.ts': '3\n' });
    changes = [];
  });

  afterEach(async () => {
    folders?.dispose();
    await project.remove();
  });

  function poll(options: Partial<UnwatchedFoldersOptions> = {}): UnwatchedFolders {
    folders = new UnwatchedFolders({ root: project.root, isIgnoredDirectory: (folder) => folder.split('/').includes('node_modules'), slowTickMs: 5, slowRoundMinMs: 0, ...options });
    folders.onDidChange((change) => changes.push(change));
    return folders;
  }
  const seen = (type: RawChange['type'], path: string) => () => changes.some((change) => change.type === type && change.path === path);

  it('reports what changes in a refused folder as the watcher would: adds, saves, removals, a replaced entry', async () => {
    const unwatched = poll();
    // The first read is the baseline: what was there says nothing.
    await unwatched.refuse('a', 'ENOSPC');
    expect(changes).toEqual([]);
    await writeFile(project.path('a/new.ts'), 'new\n');
    await waitFor(seen('add', 'a/new.ts'), 'the added file');
    await writeFile(project.path('a/one.ts'), 'one, saved\n');
    await waitFor(seen('change', 'a/one.ts'), 'the saved file');
    await rm(project.path('a/new.ts'));
    await waitFor(seen('unlink', 'a/new.ts'), 'the removed file');
    await rm(project.path('a/one.ts'));
    await mkdir(project.path('a/one.ts'));
    await waitFor(() => seen('unlink', 'a/one.ts')() && seen('addDir', 'a/one.ts')(), 'a file replaced by a folder');
    expect(changes.filter((change) => change.path === 'a/one.ts' && change.type === 'add')).toEqual([]);
  });

  it('reads a folder made inside a polled one too, from nothing (all it holds is new), but never a hidden one', async () => {
    const unwatched = poll();
    await unwatched.refuse('a', 'ENOSPC');
    // Made with a file in it before any read sees the folder: the index has neither.
    await mkdir(project.path('a/fresh/deeper'), { recursive: true });
    await writeFile(project.path('a/fresh/made-with-it.ts'), 'x\n');
    await mkdir(project.path('a/node_modules'));
    await waitFor(seen('addDir', 'a/fresh'), 'the new folder');
    await waitFor(() => seen('add', 'a/fresh/made-with-it.ts')() && seen('addDir', 'a/fresh/deeper')(), 'what the new folder held');
    expect(unwatched.has('a/fresh')).toBe(true);
    await writeFile(project.path('a/fresh/inside.ts'), 'x\n');
    await waitFor(seen('add', 'a/fresh/inside.ts'), 'a file in the new folder');
    await waitFor(seen('addDir', 'a/node_modules'), 'the hidden folder, as an entry');
    expect(unwatched.has('a/node_modules')).toBe(false);
    unwatched.refuse('node_modules/x', 'ENOSPC');
    expect(unwatched.has('node_modules/x')).toBe(false);
  });

  it('drops a folder that is gone with everything below it, and says when nothing is unwatched any more', async () => {
    const unwatched = poll();
    const summaries: (number | null)[] = [];
    unwatched.onDidChangeSummary((summary) => summaries.push(summary?.count ?? null));
    unwatched.refuse('a', 'ENOSPC');
    unwatched.refuse('a/b', 'ENOSPC');
    unwatched.refuse('c', 'ENOSPC');
    await waitFor(() => summaries.at(-1) === 3, 'three unwatched');
    await rm(project.path('a'), { recursive: true });
    await waitFor(() => summaries.at(-1) === 1, 'a and a/b dropped (found gone by reading them)');
    unwatched.forget('c');
    await waitFor(() => summaries.at(-1) === null, 'nothing unwatched');
  });

  it('reads the user’s folder between slow rounds, and names the shallowest folders first', async () => {
    // A slow round far away: only the fast reads can see the save.
    const unwatched = poll({ slowTickMs: 5, slowRoundMinMs: 3_600_000, fastIntervalMs: 5 });
    await Promise.all([unwatched.refuse('a/b', 'ENOSPC'), unwatched.refuse('c', 'ENOSPC')]);
    unwatched.setFocus(['a/b']);
    await writeFile(project.path('a/b/two.ts'), 'two, saved\n');
    await waitFor(seen('change', 'a/b/two.ts'), 'the save in the user’s folder');
    expect(unwatched.summary()).toMatchObject({ count: 2, examples: ['c', 'a/b'], code: 'ENOSPC', roundMs: 3_600_000 });
  });

  it('says a round takes longer as unwatched entries grow, at a fixed budget per tick (main’s share stays the same)', () => {
    const unwatched = poll({ statBudget: 250, slowTickMs: 250, slowRoundMinMs: 2000 });
    expect(unwatched.summary()).toBeNull();
    for (let index = 0; index < 3_000; index += 1) void unwatched.refuse(`many/${index}`, 'EMFILE');
    // 3,000 folders of at least one entry each: 12 ticks of 250 entries, 3 s.
    expect(unwatched.summary()).toMatchObject({ count: 3_000, code: 'EMFILE', roundMs: 3000 });
  });
});

describe('describeWatchLimit', () => {
  const summary = { count: 812, examples: ['packages', 'packages/a', 'tools/x'], code: 'ENOSPC' as const, roundMs: 41_000, fastIntervalMs: 100 };

  it('says which folders are not watched, what Flint does instead, and how to raise the limit on Linux', () => {
    expect(describeWatchLimit(summary, 'linux')).toEqual({
      unwatchedFolders: 812,
      examples: summary.examples,
      message:
        'The system’s limit on watched folders was reached: 812 folders (packages, packages/a, tools/x and 809 more) are not watched. ' +
        'Flint reads them for changes instead: the current file’s folder every 0.1 s, the others about every 41 s. ' +
        'To watch them all, run sudo sysctl fs.inotify.max_user_watches=1048576 (add fs.inotify.max_user_watches=1048576 to /etc/sysctl.conf to keep it), then open the folder again.',
    });
  });

  it('names the open-file limit for EMFILE, the project folder for the root, and nothing when every folder is watched', () => {
    expect(describeWatchLimit({ ...summary, count: 1, examples: [''], code: 'EMFILE' }, 'darwin')!.message).toMatch(
      /^The limit on open files was reached: 1 folder \(the project folder\) is not watched\. .* raise the open-file limit \(for example, run ulimit -n 65536 before starting Flint\)/,
    );
    expect(describeWatchLimit({ ...summary, code: 'ENOSPC' }, 'win32')!.message).toContain('hide folders you do not need (.gitignore) or open a smaller folder');
    expect(describeWatchLimit(null)).toBeNull();
  });
});
