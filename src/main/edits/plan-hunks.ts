/**
 * Plans several hunks of one file at once — Accept all — on one version of its text,
 * and builds what the file becomes in one pass: linear in the file plus the hunks, where
 * applying them one after another costs hunks × file.
 *
 * The result equals accepting the hunks one by one in order: hunks that land on separate
 * lines land together; a hunk overlapping an earlier one is planned again on the text the
 * earlier ones leave (as a single accept after them would be).
 */
import type { Tolerance } from '../../shared/edits/anchor-hunk';
import { spliceMany, type FileText, type Splice } from '../fs/file-text';
import { FileVersion } from './file-version';
import { nonOverlapping, planHunk, type HunkPlan, type HunkToApply } from './hunk-plan';

/** How one hunk of the batch fared. */
export type PlannedOutcome =
  | { status: 'planned'; tolerances: Tolerance[]; merged: boolean; appended: boolean }
  | Exclude<HunkPlan, { status: 'planned' }>;

export interface PlannedHunks {
  /** What the file becomes (the same version when nothing lands). */
  next: FileVersion;
  /** One per hunk, in the order given. */
  outcomes: PlannedOutcome[];
}

export function planHunks(current: FileVersion, hunks: readonly HunkToApply[], path: string): PlannedHunks {
  const outcomes: PlannedOutcome[] = [];
  const landing: Array<{ splice: Splice; order: number }> = [];
  hunks.forEach((hunk, order) => {
    const plan = planHunk(current, hunk, path);
    outcomes[order] = outcomeOf(plan);
    if (plan.status === 'planned') landing.push({ splice: plan.splice, order });
  });
  const { together, overlapping } = nonOverlapping(landing);
  let next = together.length > 0 ? FileVersion.of(spliceMany(current.text, together.map((plan) => plan.splice))) : current;
  for (const { order } of overlapping.sort((a, b) => a.order - b.order)) {
    const hunk = hunks[order]!;
    // As a single accept after the others: on the text they left, directly if it anchors there.
    const direct = planHunk(next, { ...hunk, base: null }, path);
    const plan = direct.status === 'planned' ? direct : planHunk(next, hunk, path);
    outcomes[order] = outcomeOf(plan);
    if (plan.status === 'planned') next = FileVersion.of(spliceOne(next.text, plan.splice));
  }
  return { next, outcomes };
}

function outcomeOf(plan: HunkPlan): PlannedOutcome {
  return plan.status === 'planned' ? { status: 'planned', tolerances: plan.tolerances, merged: plan.merged, appended: plan.appended } : plan;
}

function spliceOne(text: FileText, splice: Splice): FileText {
  return spliceMany(text, [splice]);
}
