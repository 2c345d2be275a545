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

/**
 * Where a planned hunk's lines are in what the file becomes, and the lines they took the
 * place of: what a revert of that one hunk puts back (see revert-plan.ts).
 */
export interface LandedLines {
  /** 0-based line of the new text where `written` starts. */
  start: number;
  /** The lines the hunk's splice wrote (its kept lines included). */
  written: string[];
  /** The lines they replaced, as the file had them (not as the hunk quoted them), and each one's ending. */
  replaced: string[];
  endings: string[];
}

/** How one hunk of the batch fared; `landed` is null when a later hunk of the batch wrote over its lines. */
export type PlannedOutcome =
  | { status: 'planned'; tolerances: Tolerance[]; merged: boolean; appended: boolean; landed: LandedLines | null }
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
  const landed = new Map<number, LandedLines | null>();
  // In text order: each lands shifted by what the splices above it added or took away.
  let shift = 0;
  for (const { splice, order } of together) {
    landed.set(order, landedLines(current.text, splice, splice.start + shift));
    shift += splice.replacement.length - (splice.end - splice.start);
  }
  for (const { order } of overlapping.sort((a, b) => a.order - b.order)) {
    const hunk = hunks[order]!;
    // As a single accept after the others: on the text they left, directly if it anchors there.
    const direct = planHunk(next, { ...hunk, base: null }, path);
    const plan = direct.status === 'planned' ? direct : planHunk(next, hunk, path);
    outcomes[order] = outcomeOf(plan);
    if (plan.status !== 'planned') continue;
    for (const [other, lines] of landed) landed.set(other, lines && movedBy(lines, plan.splice));
    landed.set(order, landedLines(next.text, plan.splice, plan.splice.start));
    next = FileVersion.of(spliceOne(next.text, plan.splice));
  }
  for (const [order, lines] of landed) outcomes[order] = { ...(outcomes[order] as Extract<PlannedOutcome, { status: 'planned' }>), landed: lines };
  return { next, outcomes };
}

function outcomeOf(plan: HunkPlan): PlannedOutcome {
  return plan.status === 'planned' ? { status: 'planned', tolerances: plan.tolerances, merged: plan.merged, appended: plan.appended, landed: null } : plan;
}

function landedLines(text: FileText, splice: Splice, start: number): LandedLines {
  return { start, written: [...splice.replacement], replaced: text.lines.slice(splice.start, splice.end), endings: text.terminators.slice(splice.start, splice.end) };
}

/** Where landed lines are once `splice` is made below, above or around them; null when it changes them. */
function movedBy(lines: LandedLines, splice: Splice): LandedLines | null {
  if (splice.end <= lines.start) return { ...lines, start: lines.start + splice.replacement.length - (splice.end - splice.start) };
  if (splice.start >= lines.start + lines.written.length) return lines;
  return null;
}

function spliceOne(text: FileText, splice: Splice): FileText {
  return spliceMany(text, [splice]);
}
