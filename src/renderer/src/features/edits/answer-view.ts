/**
 * The renderer's view of one conversation — its turns, hunk metadata, problems — and how
 * an `ask:update` batch changes it. Pure: hunk lines go to the HunkLineStore and prose to
 * the ProseStore instead, so that a batch of lines or prose renders none of it. A full
 * update (a (re)load) replaces the view.
 */
import type { AnswerStatus, AnswerUpdate, TurnFields } from '../../../../shared/ask-types';
import type { HunkUpdate } from '../../../../shared/edits/hunk-types';

/** A hunk without its lines (they live in the HunkLineStore, the line still arriving too). */
export type HunkMeta = Omit<HunkUpdate, 'appendLines' | 'replaceLines' | 'partialLine'>;

export interface AnswerView {
  sessionId: string;
  title: string;
  status: AnswerStatus;
  message?: string;
  /** By index order (turn 1 first); their prose is in the ProseStore. */
  turns: TurnFields[];
  /** Hunk ids in the order they first arrived. */
  order: string[];
  hunks: Record<string, HunkMeta>;
  problems: string[];
}

/** The view of a conversation main has just started: streaming, nothing in it yet. */
export function startedAnswer(sessionId: string, title = ''): AnswerView {
  return { sessionId, title, status: 'streaming', turns: [], order: [], hunks: {}, problems: [] };
}

/**
 * Applies one batch. A batch for another conversation leaves the view as it is; a full
 * one (the whole conversation) replaces it. A batch that only brings lines or prose (most of
 * them, while an answer streams) returns the same view: React then renders nothing for it.
 */
export function applyAnswerUpdate(current: AnswerView | null, update: AnswerUpdate): AnswerView | null {
  if (update.full) return applyAnswerUpdate(startedAnswer(update.sessionId, update.full.title), { ...update, full: undefined });
  if (!current || current.sessionId !== update.sessionId) return current;
  const changed = update.hunks.filter((hunk) => !sameMeta(current.hunks[hunk.id], hunk));
  const onlyLines = changed.length === 0 && changesNothing({ ...update, hunks: [] });
  if (onlyLines) return current;
  const hunks = { ...current.hunks };
  const order = [...current.order];
  for (const { appendLines: _lines, replaceLines: _whole, partialLine: _partial, ...meta } of changed) {
    if (!hunks[meta.id]) order.push(meta.id);
    hunks[meta.id] = meta;
  }
  return {
    ...current,
    title: current.title || (update.turns?.[0]?.index === 1 ? update.turns[0].text : ''),
    hunks,
    order,
    turns: applyTurns(current.turns, update),
    status: update.status ?? current.status,
    // A status brings its own message or none (as main's batcher sends them).
    message: update.status !== undefined ? update.message : (update.message ?? current.message),
    problems: update.problems ? [...current.problems, ...update.problems] : current.problems,
  };
}

/**
 * Whether `update` brings nothing the view holds, hunks aside: prose, its tail and a rate
 * only (their stores take them, outside React). applyAnswerUpdate returns the view it is
 * given for such a batch; this says so without a turn of React (a state update and a render
 * pass per batch, at hundreds of batches a second). The fields it may carry are listed, not
 * the ones it may not: a field added to AnswerUpdate counts as a change until listed here.
 */
export function changesNothing(update: AnswerUpdate): boolean {
  const { sessionId: _session, prose: _prose, proseTail: _tail, rate: _rate, hunks, ...rest } = update;
  return hunks.length === 0 && Object.values(rest).every((value) => value === undefined);
}

/** Whether an update says nothing new about a hunk but its lines. */
function sameMeta(meta: HunkMeta | undefined, update: HunkUpdate): boolean {
  if (!meta) return false;
  const keys = Object.keys(update).filter((key) => key !== 'appendLines' && key !== 'replaceLines' && key !== 'partialLine') as Array<keyof HunkMeta>;
  return keys.length === Object.keys(meta).length && keys.every((key) => meta[key] === update[key]);
}

/** Turns whose fields changed replace theirs (their prose is not the view's). */
function applyTurns(turns: readonly TurnFields[], update: AnswerUpdate): TurnFields[] {
  if (!update.turns) return turns as TurnFields[];
  const next = [...turns];
  for (const meta of update.turns) next[meta.index - 1] = { ...meta };
  return next;
}

/** How many hunks Accept all would take (a superseded one is only accepted on its own). */
export function pendingHunkCount(view: AnswerView | null): number {
  return view ? view.order.filter((id) => view.hunks[id]!.state === 'pending' && !view.hunks[id]!.superseded).length : 0;
}

/** The ids of a turn's hunks, in order: the current ones, and those a redirect superseded. */
export function hunksOfTurn(view: AnswerView, turn: number): { current: string[]; superseded: string[] } {
  const current: string[] = [];
  const superseded: string[] = [];
  for (const id of view.order) {
    const hunk = view.hunks[id]!;
    if (hunk.turn !== turn) continue;
    (hunk.superseded ? superseded : current).push(id);
  }
  return { current, superseded };
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
