/**
 * Which hunk the review keys act on, and which comes next: pure reads of the answer view.
 *
 * The review walks the hunks still waiting for a decision (ready, conflicting, unmatched,
 * cut off) in the order they arrived; those a redirect superseded are left out, as they
 * are of Accept all (each is still decided from its own card).
 */
import { isUndecided } from '../../../../shared/edits/hunk-state';
import type { AnswerView, HunkMeta } from '../edits/answer-view';

/** Waiting for the user: complete and undecided, not superseded. */
export function isReviewable(hunk: HunkMeta): boolean {
  return !hunk.superseded && isUndecided(hunk.state);
}

export function reviewableIds(view: AnswerView | null): string[] {
  return view ? view.order.filter((id) => isReviewable(view.hunks[id]!)) : [];
}

/** The hunk the keys act on: the chosen one while it waits, else the first that waits. */
export function currentHunkOf(view: AnswerView | null, chosen: string | null): string | null {
  if (!view) return null;
  if (chosen !== null && view.hunks[chosen] && isReviewable(view.hunks[chosen])) return chosen;
  return reviewableIds(view)[0] ?? null;
}

/**
 * The waiting hunk after (or before) `from` in arrival order, wrapping around; `from`
 * itself only when it is the one left. Null when nothing waits.
 */
export function neighbourOf(view: AnswerView | null, from: string | null, step: 1 | -1): string | null {
  if (!view) return null;
  const waiting = new Set(reviewableIds(view));
  if (waiting.size === 0) return null;
  const order = view.order;
  const start = from === null ? (step === 1 ? -1 : order.length) : order.indexOf(from);
  for (let offset = 1; offset <= order.length; offset += 1) {
    const index = (((start + step * offset) % order.length) + order.length) % order.length;
    const id = order[index]!;
    if (waiting.has(id) && (id !== from || waiting.size === 1)) return id;
  }
  return null;
}

/** The sticky header's words: "3 of 7 pending · 2 files". */
export function reviewSummary(view: AnswerView): { pending: number; total: number; files: number; streaming: number } {
  const shown = view.order.map((id) => view.hunks[id]!).filter((hunk) => !hunk.superseded);
  return {
    pending: shown.filter((hunk) => hunk.state === 'pending').length,
    total: shown.length,
    files: new Set(shown.map((hunk) => hunk.path)).size,
    streaming: shown.filter((hunk) => hunk.state === 'streaming').length,
  };
}
