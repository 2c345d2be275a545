/**
 * What accepting one hunk costs in main: the real applier writing to real files (guarded
 * swap, fsync, journal). Accept all is measured in scale-bench.ts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EditApplier } from '../../src/main/edits/edit-applier';
import { ProjectFiles } from '../../src/main/fs/project-files';
import { UndoJournal } from '../../src/main/edits/undo-journal';
import { median, round } from './statistics';

export interface ApplyFigures {
  /** One hunk accepted in a 5,000-line file, median (ms). */
  accept_one_ms: number;
  /** One hunk accepted in a 100,000-line file, median (ms): a single accept reads, plans and writes the whole file. */
  accept_one_100k_ms: number;
}

export async function measureApply(log: (line: string) => void): Promise<ApplyFigures> {
  log('Accepting hunks with the real applier (guarded writes, fsync, journal)…');
  const single: number[] = [];
  for (let run = 0; run < 15; run += 1) single.push(await acceptAll(5_000, 1));
  const large: number[] = [];
  for (let run = 0; run < 5; run += 1) large.push(await acceptAll(100_000, 1));
  // Accept all (one plan, one write per file) is in the scale group: accept_all_100k_ms, accept_all_1000_hunks_ms.
  return { accept_one_ms: round(median(single)), accept_one_100k_ms: round(median(large)) };
}

/** Milliseconds to accept `hunks` one-line hunks one after another, spread over a `lines`-line file. */
async function acceptAll(lines: number, hunks: number): Promise<number> {
  const folder = await mkdtemp(join(tmpdir(), 'flint-bench-apply-'));
  try {
    const text = Array.from({ length: lines }, (_, index) => `export const value${index} = ${index};`).join('\n');
    await writeFile(join(folder, 'big.ts'), `${text}\n`);
    const applier = new EditApplier(new ProjectFiles(folder), await UndoJournal.open(join(folder, '.journal.jsonl')), undefined, { quietMs: 0 });
    const step = Math.floor(lines / hunks);
    const started = performance.now();
    for (let hunk = 0; hunk < hunks; hunk += 1) {
      const index = hunk * step;
      const result = await applier.applyHunk({
        path: 'big.ts',
        lines: [
          { kind: 'remove', text: `export const value${index} = ${index};` },
          { kind: 'add', text: `export const value${index} = ${index + 1};` },
        ],
        base: null,
      });
      if (result.status !== 'applied') throw new Error(`hunk ${hunk} was ${result.status}`);
    }
    const elapsed = performance.now() - started;
    await applier.dispose();
    return elapsed;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
