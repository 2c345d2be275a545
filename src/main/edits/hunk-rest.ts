/**
 * The rest of a hunk accepted in part: the changed lines the user did not choose, offered
 * as a hunk of its own on what the file holds after the write, so they can still be
 * accepted (all, or some of them) or rejected. It is planned on the written version
 * directly: its old text is exactly what was written there.
 *
 * When the hunk it is the rest of goes back off disk (Undo, Revert) while the rest is still
 * undecided, the whole hunk is undecided again and the rest no longer applies on its own:
 * it is refused, with the reason.
 */
import type { FileRecord, HunkRecord } from './edit-records';
import type { FileVersion } from './file-version';
import { applyInput } from './hunk-kinds';
import { planHunk } from './hunk-plan';
import type { Outcome } from './hunk-planner';

/** Plans `rest` (its lines set, still streaming) on `written`, the version its part's write left: the state it settles in. */
export function planRest(rest: HunkRecord, of: HunkRecord, file: FileRecord, written: FileVersion): Outcome {
  rest.base = written;
  const plan = planHunk(written, { ...applyInput(rest, file), base: null }, file.path);
  if (plan.status !== 'planned') return { event: { type: 'settled', outcome: plan.status }, change: { message: plan.message } };
  rest.baseRange = { start: plan.anchorLine, count: rest.lines.filter((line) => line.kind !== 'add').length };
  return { event: { type: 'settled', outcome: 'pending' }, change: { anchorLine: plan.anchorLine, message: `The lines you left of hunk ${of.number}: accept or reject them too.` } };
}

/** Why an undecided rest is refused once its hunk is back off disk. */
export function restRetiredWords(of: HunkRecord): string {
  return `Hunk ${of.number} is undecided again with all its lines, so these lines it left no longer apply on their own.`;
}
