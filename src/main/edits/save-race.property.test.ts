/**
 * Property: every byte the user saved is on disk, or kept and reported — whatever the
 * interleaving of the editor's saves with Flint's accepts, deletes, undos and redos.
 *
 * Each trial runs a real editor (atomic, in-place and slow two-piece saves from possibly
 * stale buffers) against the real applier on a real file, with seeded random pauses.
 * A save's bytes are accounted for when they are on disk at the end; or the editor's own
 * next save replaced them; or Flint knowingly replaced them (they are a before-image in
 * the undo journal, so Undo brings them back); or they are in a kept file that Flint
 * reported. Anything else is a lost save.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { versionOfText } from '../../../test/helpers/file-versions';
import { describe, expect, it } from 'vitest';
import { createTempProject } from '../../../test/helpers/temp-project';
import { RacingEditor, sleep, type SaveKind } from '../../../test/helpers/racing-editor';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import { ProjectFiles } from '../fs/project-files';
import { EditApplier } from './edit-applier';
import { UndoJournal } from './undo-journal';

const LINES = Array.from({ length: 12 }, (_, index) => `line ${index}`);
/** FLINT_TRACE=1 prints each trial's steps, to replay a failing seed by hand. */
const trace = (...parts: unknown[]): void => void (process.env.FLINT_TRACE && console.log(...parts));

interface TrialResult {
  lost: string[];
  leftovers: string[];
  unreportedKeeps: string[];
}

async function runTrial(seed: number, kinds: readonly SaveKind[], flintOps: number): Promise<TrialResult> {
  const random = seededRandom(seed);
  const project = await createTempProject({ 'app.ts': `${LINES.join('\n')}\n` });
  try {
    const reports: string[] = [];
    const images: Buffer[] = [];
    const journal = await UndoJournal.open(join(project.root, '.journal', 'journal.jsonl'));
    const applier = new EditApplier(new ProjectFiles(project.root), journal, undefined, {
      quietMs: 4,
      maxQuietWaitMs: 40,
      // Far above any pause of the editor plus scheduling delay on a loaded machine: a writer pausing
      // longer than the grace period mid-save is the documented limit, not what this test is about.
      graceMs: 1000,
      onLateWriter: (report) => reports.push(report.keptAs ?? report.path),
    });
    const editor = new RacingEditor(project.path('app.ts'), `${LINES.join('\n')}\n`, random, String(seed), 12);
    const userSide = (async () => {
      for (let save = 0; save < 5; save += 1) {
        await sleep(random() * 8);
        await editor.typeAndSave(kinds);
        trace(seed, 'saved', save + 1, editor.saves.at(-1)!.kind);
      }
    })();
    const flintSide = (async () => {
      for (let step = 0; step < flintOps; step += 1) {
        await sleep(random() * 8);
        const outcome = await flintStep(applier, random, project.path('app.ts'));
        if (outcome.entry) images.push(...[outcome.entry.before, outcome.entry.after].filter((bytes) => bytes !== null).map((bytes) => Buffer.from(bytes)));
        if (outcome.message !== undefined) reports.push(outcome.message);
        trace(seed, 'flint', step, outcome.message ?? (outcome.entry ? 'written' : 'nothing to do'));
      }
    })();
    await Promise.all([userSide, flintSide]);
    await applier.dispose();
    trace(seed, 'reports', reports);
    return await account(project.root, editor, images, reports);
  } finally {
    await project.remove();
  }
}

type StepOutcome = { entry?: { before: Uint8Array | null; after: Uint8Array | null } | null; message?: string };

/** One random Flint action: accept a hunk (fresh or stale base), delete, re-create, undo or redo. */
async function flintStep(applier: EditApplier, random: () => number, path: string): Promise<StepOutcome> {
  const roll = random();
  const current = await readFile(path, 'utf8').catch(() => null);
  const lines = current?.split('\n').filter(Boolean) ?? [];
  if (roll < 0.5 && current !== null && lines.length > 0) {
    const target = lines[Math.floor(random() * lines.length)]!;
    const base = random() < 0.5 ? versionOfText(current.replace(/\n$/, '')) : null;
    await sleep(random() * 4);
    const result = await applier.applyHunk({ path: 'app.ts', lines: [{ kind: 'remove', text: target }, { kind: 'add', text: `flint ${roll.toFixed(6)}` }], base });
    return result.status === 'applied' ? { entry: result.entry } : { message: 'message' in result ? result.message : undefined };
  }
  if (roll < 0.6 && current !== null) {
    const result = await applier.deleteFile('app.ts');
    return result.status === 'applied' ? { entry: result.entry } : { message: 'message' in result ? result.message : undefined };
  }
  if (roll < 0.65 && current === null) {
    const result = await applier.createFile('app.ts', ['created by flint']);
    return result.status === 'applied' ? { entry: result.entry } : {};
  }
  const outcome = roll < 0.85 ? await applier.undo() : await applier.redo();
  if (outcome.status === 'done') return { entry: outcome.entries[0] };
  return outcome.status === 'empty' ? {} : { message: outcome.message };
}

async function account(root: string, editor: RacingEditor, images: Buffer[], reports: string[]): Promise<TrialResult> {
  const final = await readFile(join(root, 'app.ts')).catch(() => null);
  const names = await readdir(root);
  const kept = await Promise.all(names.filter((name) => name.includes('.flint-kept-')).map(async (name) => ({ name, bytes: await readFile(join(root, name)) })));
  const lost: string[] = [];
  editor.saves.forEach((save, index) => {
    const next = editor.saves[index + 1];
    const accounted =
      (final !== null && final.equals(save.bytes)) ||
      (next?.replaced != null && next.replaced.equals(save.bytes)) ||
      images.some((image) => image.equals(save.bytes)) ||
      kept.some((file) => file.bytes.equals(save.bytes));
    if (!accounted) lost.push(`save ${index + 1} (${save.kind})`);
  });
  return {
    lost,
    leftovers: names.filter((name) => name.includes('.flint-') && !name.includes('.flint-kept-')),
    unreportedKeeps: kept.filter((file) => !reports.some((report) => report.includes(file.name))).map((file) => file.name),
  };
}

/** Runs trials a few at a time (each mostly waits on the disk and its own pauses). */
async function runTrials(first: number, count: number, kinds: readonly SaveKind[], flintOps: number): Promise<string[]> {
  const failures: string[] = [];
  const parallel = 6;
  for (let start = 0; start < count; start += parallel) {
    const seeds = Array.from({ length: Math.min(parallel, count - start) }, (_, index) => first + start + index);
    const results = await Promise.all(seeds.map((seed) => runTrial(seed, kinds, flintOps)));
    results.forEach((result, index) => {
      const problems = [...result.lost.map((what) => `lost ${what}`), ...result.leftovers.map((name) => `left ${name}`), ...result.unreportedKeeps.map((name) => `kept ${name} unreported`)];
      if (problems.length > 0) failures.push(`seed ${seeds[index]}: ${problems.join(', ')}`);
    });
  }
  return failures;
}

describe('saves racing Flint’s writes', () => {
  it('never lose a saved byte across mixed interleavings of saves, accepts, deletes, undo and redo', { timeout: 600_000 }, async () => {
    const failures = await runTrials(baseSeed(1), trialCount(300, 3000), ['atomic', 'in-place', 'slow-in-place'], 6);
    expect(failures).toEqual([]);
  });

  it('never lose a saved byte when slow in-place saves race accepts and deletes', { timeout: 600_000 }, async () => {
    const failures = await runTrials(baseSeed(100_000), trialCount(200, 2000), ['slow-in-place'], 6);
    expect(failures).toEqual([]);
  });
});
