/**
 * After a crash: puts back files Flint had taken aside mid-write, and clears its scratch
 * files. A swap leaves the name absent for an instant; a crash in that instant must not
 * leave the user's file under a scratch name.
 *
 * Only folders Flint wrote into are looked at (every write is journaled before it
 * starts, and the journal remembers the path even of writes that failed): their mirrors in
 * the scratch area, and the folders themselves (an older Flint kept scratch files beside
 * the file). No project-wide scan at open.
 */
import { lstat, readdir, readFile, unlink } from 'node:fs/promises';
import { exists, keepBeside, parseScratchName, putBack, type ScratchKind, type SwapPlace } from './captured-file';
import { ProjectFolder } from './project-folder';
import type { ScratchArea } from './scratch-area';

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
 * Looks through `folders` (real project-relative paths) of the project whose scratch area
 * is `area`. `isKnown` says whether bytes are in the undo journal (then a leftover is safe to drop).
 */
export async function recoverScratchFiles(area: ScratchArea, folders: Iterable<string>, isKnown: (bytes: Uint8Array) => boolean): Promise<RecoveryReport> {
  const report: RecoveryReport = { restored: [], kept: [] };
  for (const relativeFolder of new Set(folders)) {
    let folder: ProjectFolder;
    try {
      folder = await ProjectFolder.open(area.root, relativeFolder, { create: false });
    } catch {
      continue; // Gone, or no longer a folder inside the project: nothing of Flint's to recover there.
    }
    let mirrors: ProjectFolder[] = [];
    try {
      // An area that cannot be read is left alone: the folder itself (an older Flint's scratch files) is still settled.
      mirrors = await area.existingMirrors(relativeFolder).catch(() => []);
      for (const scratch of [...mirrors, folder]) await recoverIn(folder, scratch, isKnown, report);
    } finally {
      for (const mirror of mirrors) await mirror.close();
      await folder.close();
    }
  }
  return report;
}

/** Settles the scratch files found in `scratch` that belong to files of `folder`. */
async function recoverIn(folder: ProjectFolder, scratch: ProjectFolder, isKnown: (bytes: Uint8Array) => boolean, report: RecoveryReport): Promise<void> {
  try {
    const found = (await readdir(scratch.entry('')))
      .map((name) => ({ name, parsed: parseScratchName(name) }))
      .filter((entry) => entry.parsed !== null)
      .sort((a, b) => ORDER.indexOf(a.parsed!.kind) - ORDER.indexOf(b.parsed!.kind));
    for (const { name, parsed } of found) {
      await recoverOne({ folder, name: parsed!.of, scratch }, name, parsed!.kind, isKnown, report).catch(() => undefined);
    }
  } catch {
    // Unreadable folder: leave it; the scratch files stay where they are.
  }
}

async function recoverOne(place: SwapPlace, scratch: string, kind: ScratchKind, isKnown: (bytes: Uint8Array) => boolean, report: RecoveryReport): Promise<void> {
  const entry = place.scratch.entry(scratch);
  const stats = await lstat(entry);
  if (!stats.isFile()) return; // Not something Flint made.
  if (kind === 'tmp') return unlink(entry);
  // A capture mid-swap (or Flint's own file mid-restore) goes back if the name is free: the
  // write never finished. A finished write's leftover never does: a delete stays done.
  if ((kind === 'aside' || kind === 'ours') && !(await exists(place.folder.entry(place.name)))) {
    const kept = await putBack(place, scratch);
    if (kept === undefined) report.restored.push(place.folder.display(place.name));
    else report.kept.push(kept);
    return;
  }
  if (isKnown(await readFile(entry))) return unlink(entry);
  report.kept.push(await keepBeside(place, scratch));
}
