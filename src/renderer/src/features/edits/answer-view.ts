/**
 * The renderer's view of one answer (status, prose, hunk metadata, problems) and how
 * an `ask:update` batch changes it. Pure: hunk lines go to the HunkLineStore instead.
 */
import type { AnswerStatus, AnswerUpdate } from '../../../../shared/ask-types';
import type { HunkUpdate } from '../../../../shared/edits/hunk-types';

/** A hunk without its lines. */
export type HunkMeta = Omit<HunkUpdate, 'appendLines'>;

export interface AnswerView {
  sessionId: string;
  status: AnswerStatus;
  message?: string;
  prose: string;
  /** Hunk ids in the order they first arrived. */
  order: string[];
  hunks: Record<string, HunkMeta>;
  problems: string[];
}

/** The view of an answer main has just started: streaming, nothing in it yet. */
export function startedAnswer(sessionId: string): AnswerView {
  return { sessionId, status: 'streaming', prose: '', order: [], hunks: {}, problems: [] };
}

/** Applies one batch; a batch for another session (an older answer) leaves the view as it is. */
export function applyAnswerUpdate(current: AnswerView | null, update: AnswerUpdate): AnswerView | null {
  if (!current || current.sessionId !== update.sessionId) return current;
  const hunks = { ...current.hunks };
  const order = [...current.order];
  for (const { appendLines: _lines, ...meta } of update.hunks) {
    if (!hunks[meta.id]) order.push(meta.id);
    hunks[meta.id] = meta;
  }
  return {
    ...current,
    hunks,
    order,
    status: update.status ?? current.status,
    ...(update.message !== undefined ? { message: update.message } : {}),
    prose: current.prose + (update.prose ?? ''),
    problems: update.problems ? [...current.problems, ...update.problems] : current.problems,
  };
}

/** How many hunks still await a decision that can be taken now (Accept all's count). */
export function pendingHunkCount(view: AnswerView | null): number {
  return view ? view.order.filter((id) => view.hunks[id]!.state === 'pending').length : 0;
}

/** The status line's words. */
export function describeAnswerStatus(status: AnswerStatus): string {
  switch (status) {
    case 'streaming':
      return 'Streaming…';
    case 'complete':
      return 'Answer complete';
    case 'stopped':
      return 'Stopped';
    case 'failed':
      return 'Failed';
    default: {
      const exhaustive: never = status;
      return exhaustive;
    }
  }
}
