/**
 * Property: no write of Flint's — accept, Add File, Delete File, undo, redo — ever lands
 * outside the project, however a folder on its way is swapped for a symlink while it runs.
 *
 * Each trial races the real applier against a swapper that keeps replacing `sub/` with a
 * link to a folder outside the project and back, at seeded random moments.
 */
import { readdir, readFile, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sleep } from '../../../test/helpers/racing-editor';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { createTempProject } from '../../../test/helpers/temp-project';
import { ProjectFiles } from '../fs/project-files';
import { EditApplier } from './edit-applier';
import { UndoJournal } from './undo-journal';

const BAIT = 'export const app = 1;\n';

async function runTrial(seed: number): Promise<string | null> {
  const random = seededRandom(seed);
  const project = await createTempProject({ 'sub/app.ts': BAIT, 'sub/other.ts': BAIT });
  // The outside folder holds files of the same names, so a write through the link would find them.
  const outside = await createTempProject({ 'app.ts': BAIT, 'other.ts': BAIT });
  try {
    const applier = new EditApplier(new ProjectFiles(project.root), await UndoJournal.open(join(project.root, '.journal.jsonl')), undefined, { quietMs: 0, graceMs: 5 });
    let running = true;
    const swapper = (async () => {
      while (running) {
        await sleep(random() * 2);
        await rename(project.path('sub'), project.path('sub-real')).catch(() => undefined);
        await symlink(outside.root, project.path('sub')).catch(() => undefined);
        await sleep(random() * 2);
        await rm(project.path('sub'), { force: true }).catch(() => undefined);
        await rename(project.path('sub-real'), project.path('sub')).catch(() => undefined);
      }
    })();
    for (let step = 0; step < 8; step += 1) {
      const roll = random();
      const path = random() < 0.5 ? 'sub/app.ts' : 'sub/other.ts';
      // A refusal or an I/O failure is a fine answer here; only a write outside is not.
      const ignoreFailure = () => undefined;
      if (roll < 0.4) await applier.applyHunk({ path, lines: [{ kind: 'remove', text: 'export const app = 1;' }, { kind: 'add', text: `export const app = ${step};` }], base: null }).catch(ignoreFailure);
      else if (roll < 0.55) await applier.deleteFile(path).catch(ignoreFailure);
      else if (roll < 0.7) await applier.createFile(`sub/new-${step}.ts`, ['created']).catch(ignoreFailure);
      else if (roll < 0.85) await applier.undo().catch(ignoreFailure);
      else await applier.redo().catch(ignoreFailure);
    }
    running = false;
    await swapper;
    await applier.dispose();
    const names = (await readdir(outside.root)).sort();
    if (names.join() !== 'app.ts,other.ts') return `seed ${seed}: outside folder holds ${names.join(', ')}`;
    for (const name of names) {
      if ((await readFile(join(outside.root, name), 'utf8')) !== BAIT) return `seed ${seed}: ${name} outside was changed`;
    }
    return null;
  } finally {
    await project.remove();
    await outside.remove();
  }
}

describe('symlinks swapped under Flint’s writes', () => {
  it('never let a write, an undo or a redo land outside the project', { timeout: 600_000 }, async () => {
    const failures: string[] = [];
    const first = baseSeed(1);
    const count = trialCount(150, 2000);
    for (let start = 0; start < count; start += 5) {
      const results = await Promise.all(Array.from({ length: Math.min(5, count - start) }, (_, index) => runTrial(first + start + index)));
      failures.push(...results.filter((result) => result !== null));
    }
    expect(failures).toEqual([]);
  });
});
