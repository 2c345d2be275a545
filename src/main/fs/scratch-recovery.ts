/**
 * After a crash: puts back files Flint had taken aside mid-write, and clears its scratch
 * files. A swap leaves the name absent for an instant; a crash in that instant must not
 * leave the user's file under a hidden scratch name.
 *
 * Only folders Flint wrote into are looked at (every write is journaled before it
 * starts, so the journal names them all): no project-wide scan at open.
 */
import { readdir, readFile, unlink } from 'node:fs/promises';
import { isScratchName, putBack } from './captured-file';
import { ProjectFolder } from './project-folder';

export interface RecoveryReport {
  /** Files put back under their names. */
  restored: string[];
  /** Scratch files kept under a visible name: their bytes are known to no journal entry. */
  kept: string[];
}

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
      const names = await readdir(folder.entry(''));
      for (const scratch of names.filter(isScratchName)) await recoverOne(folder, scratch, new Set(names), isKnown, report);
    } catch {
      // Unreadable folder: leave it; the scratch files stay where they are.
    } finally {
      await folder.close();
    }
  }
  return report;
}

async function recoverOne(folder: ProjectFolder, scratch: string, names: ReadonlySet<string>, isKnown: (bytes: Uint8Array) => boolean, report: RecoveryReport): Promise<void> {
  if (scratch.endsWith('.tmp')) {
    await unlink(folder.entry(scratch)).catch(() => undefined);
    return;
  }
  // `.name.flint-<12 hex>.aside` → name
  const name = scratch.slice(1, -'.flint-000000000000.aside'.length);
  const bytes = await readFile(folder.entry(scratch));
  const capture = { aside: scratch, isFile: true, bytes, stamp: '', changedSinceRead: async () => false, close: async () => undefined };
  if (!names.has(name)) {
    const kept = await putBack(folder, name, capture);
    if (kept === undefined) report.restored.push(folder.display(name));
    else report.kept.push(kept);
    return;
  }
  if (isKnown(bytes)) {
    await unlink(folder.entry(scratch));
    return;
  }
  // The name is taken, so this keeps the bytes beside it under a visible name.
  const kept = await putBack(folder, name, capture);
  if (kept !== undefined) report.kept.push(kept);
}
