/**
 * After a crash: puts back files Flint had taken aside mid-write, and clears its scratch
 * files. A swap leaves the name absent for an instant; a crash in that instant must not
 * leave the user's file under a hidden scratch name.
 *
 * Only folders Flint wrote into are looked at (every write is journaled before it
 * starts, and the journal remembers the path even of writes that failed): no
 * project-wide scan at open.
 */
import { lstat, readdir, readFile, unlink } from 'node:fs/promises';
import { exists, keepBeside, parseScratchName, putBack, type ScratchKind } from './captured-file';
import { ProjectFolder } from './project-folder';

export interface RecoveryReport {
  /** Files put back under their names. */
  restored: string[];
  /** Scratch files kept under a visible name: their bytes are known to no journal entry. */
  kept: string[];
}

/**
 * The order scratch files are settled in: the user's captured file first (it gets the
 * name back), then Flint's own, then finished writes' leftovers, then temp files.
 */
const ORDER: readonly ScratchKind[] = ['aside', 'ours', 'grace', 'tmp'];

/**
 * Looks through `folders` (real project-relative paths) of the project at `root`.
 * `isKnown` says whether bytes are in the undo journal (then a leftover is safe to drop).
 */
export async function recoverScratchFiles(root: string, folders: Iterable<string>, isKnown: (bytes: Uint8Array) => boolean): Promise<RecoveryReport> {
  const report: RecoveryReport = { restored: [], kept: [] };
  for (const relativeFolder of new Set(folders)) {
    let folder: ProjectFolder;
    try {
      folder = await ProjectFolder.open(root, relativeFolder, { create: false });
    } catch {
      continue; // Gone, or no longer a folder inside the project: nothing of Flint's to recover there.
    }
    try {
      const scratch = (await readdir(folder.entry('')))
        .map((name) => ({ name, parsed: parseScratchName(name) }))
        .filter((entry) => entry.parsed !== null)
        .sort((a, b) => ORDER.indexOf(a.parsed!.kind) - ORDER.indexOf(b.parsed!.kind));
      for (const { name, parsed } of scratch) {
        await recoverOne(folder, name, parsed!.kind, parsed!.of, isKnown, report).catch(() => undefined);
      }
    } catch {
      // Unreadable folder: leave it; the scratch files stay where they are.
    } finally {
      await folder.close();
    }
  }
  return report;
}

async function recoverOne(folder: ProjectFolder, scratch: string, kind: ScratchKind, name: string, isKnown: (bytes: Uint8Array) => boolean, report: RecoveryReport): Promise<void> {
  const stats = await lstat(folder.entry(scratch));
  if (!stats.isFile()) return; // Not something Flint made.
  if (kind === 'tmp') return unlink(folder.entry(scratch));
  // A capture mid-swap (or Flint's own file mid-restore) goes back if the name is free: the
  // write never finished. A finished write's leftover never does: a delete stays done.
  if ((kind === 'aside' || kind === 'ours') && !(await exists(folder.entry(name)))) {
    const kept = await putBack(folder, name, scratch);
    if (kept === undefined) report.restored.push(folder.display(name));
    else report.kept.push(kept);
    return;
  }
  if (isKnown(await readFile(folder.entry(scratch)))) return unlink(folder.entry(scratch));
  report.kept.push(await keepBeside(folder, name, scratch));
}
