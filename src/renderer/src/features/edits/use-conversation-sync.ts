/**
 * Keeps the renderer's conversation in step with main's: follows `ask:update` for the
 * conversation on screen, the history list (`ask:conversations`), and on every load and
 * reconnect asks main for the list and the whole conversation it shows — so a reload or
 * a restart loses nothing, and a conversation can be shown again from the history.
 *
 * Main sends what it had batched before it answers with a whole conversation, and the
 * wire keeps order: updates for a conversation being loaded are already in the load.
 */
import { useCallback, useEffect, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { AnswerUpdate, ConversationSummary } from '../../../../shared/ask-types';
import { flint } from '../../lib/flint';
import { markLatency, markPainted } from '../../lib/paint-marks';
import { RECONNECTED_EVENT } from '../../lib/serve-bridge';
import { isString, recall, remember } from '../../lib/tab-memory';
import { applyAnswerUpdate, type AnswerView } from './answer-view';
import type { HunkLineStore } from './hunk-line-store';
import type { OutputRateStore } from './output-rate';
import type { ProseStore } from './prose-store';
import type { ViewUpdates } from './view-updates';

/** The mutable side of the conversation on screen, shared by the subscription and the requests. */
export interface AnswerRefs {
  store: HunkLineStore;
  /** Each turn's prose, which TurnProse follows outside React state. */
  prose: ProseStore;
  /** The model's output rate in the conversation on screen. */
  rates: OutputRateStore;
  /** The conversation on screen: updates for any other are not applied. */
  sessionId: RefObject<string | null>;
  /** When the user asked (epoch ms), to mark "ask → final diff painted". */
  askedAt: RefObject<number | null>;
  /** The conversation whose whole state was asked for and has not arrived. */
  loading: RefObject<string | null>;
  /** While a new question is asked: updates of conversations not on screen, kept for the one it starts. */
  early: RefObject<AnswerUpdate[] | null>;
  /** How batches reach the view (after the paint of a hunk they drew: view-updates.ts). */
  views: ViewUpdates;
}

/** The tab's choice of conversation survives a reload (ids are unique: one not in the list is passed over). */
const SHOWN = 'conversation';

export function useConversationSync(
  refs: AnswerRefs,
  setView: Dispatch<SetStateAction<AnswerView | null>>,
  setConversations: (list: ConversationSummary[]) => void,
  onError: (message: string) => void,
) {
  const { store, prose, rates, sessionId, askedAt, loading, early, views } = refs;

  /** Shows a conversation of the history: its whole state from main. */
  const show = useCallback(async (id: string): Promise<void> => {
    loading.current = id;
    sessionId.current = id;
    remember(SHOWN, '', id);
    const result = await flint.getConversation({ sessionId: id });
    if (loading.current !== id) return;
    loading.current = null;
    views.drop();
    if (!result.ok) {
      sessionId.current = null;
      setView(null);
      return onError(result.error.message);
    }
    store.clear();
    rates.clear();
    for (const hunk of result.value.hunks) store.append(hunk.id, hunk.appendLines);
    prose.take(result.value);
    setView(applyAnswerUpdate(null, result.value));
  }, []);

  useEffect(() => {
    const load = async (): Promise<void> => {
      const result = await flint.listConversations({});
      if (!result.ok) return;
      setConversations(result.value);
      const ids = result.value.map((summary) => summary.sessionId);
      const wanted = [sessionId.current, recall(SHOWN, '', isString)].find((id) => id !== null && ids.includes(id)) ?? ids[0];
      if (wanted !== undefined) void show(wanted);
      else forget();
    };
    const forget = (): void => {
      sessionId.current = null;
      views.drop();
      setView(null);
    };
    const subscriptions = [
      flint.on('ask:update', (update) => {
        // Ready for the next batch once this one is in the DOM (main's UpdateBatcher waits for
        // it): at once if the view rendered it or its prose was written, else at the next
        // frame (lines only, a card waiting for its hunk's paint, another conversation's batch).
        const acknowledge = (): void => void flint.acknowledgeAnswer({ sessionId: update.sessionId });
        if (takeUpdate(refs, update) === 'rendered') acknowledge();
        else requestAnimationFrame(acknowledge);
      }),
      flint.on('ask:conversations', (list) => {
        setConversations(list);
        const ids = list.map((summary) => summary.sessionId);
        // The history came back (a restart) or went with its project; a question being asked shows its own conversation.
        if (early.current !== null) return;
        if (sessionId.current === null && ids.length > 0) void show(ids[0]!);
        else if (sessionId.current !== null && loading.current === null && !ids.includes(sessionId.current) && !isJustAsked(askedAt)) forget();
      }),
    ];
    const onReconnected = (): void => void load();
    window.addEventListener(RECONNECTED_EVENT, onReconnected);
    void load();
    return () => {
      for (const unsubscribe of subscriptions) unsubscribe();
      window.removeEventListener(RECONNECTED_EVENT, onReconnected);
    };
  }, [show]);

  return { show };
}

/**
 * Takes an `ask:update` batch in: what the view did with it (see ViewUpdates.take; prose
 * written counts as rendered), or 'elsewhere' (not the conversation shown).
 */
function takeUpdate({ store, prose, rates, sessionId, askedAt, loading, early, views }: AnswerRefs, update: AnswerUpdate): ReturnType<ViewUpdates['take']> | 'elsewhere' {
  if (update.sessionId !== sessionId.current) {
    early.current?.push(update);
    return 'elsewhere';
  }
  if (loading.current === update.sessionId) return 'elsewhere';
  const drewHunk = applyLines(store, update);
  // Its characters are in the page when this returns (TurnProse.tsx); a turn's first ones
  // once views.take has rendered the TurnProse they mount (useHasProse), or, if the batch
  // waits for a hunk's paint, in React's microtask (this task still, before the paint).
  const wroteProse = prose.take(update);
  rates.take(update);
  if (update.status === 'complete' && askedAt.current !== null) {
    markPainted('flint:edit-painted', askedAt.current);
    askedAt.current = null;
  }
  // A batch of lines or prose only returns the same view: React renders nothing for it (a
  // transition instead measured worse: its slices keep the thread busy longer).
  const taken = views.take(update, drewHunk);
  return taken === 'unchanged' && wroteProse ? 'rendered' : taken;
}

/**
 * Takes a batch's lines and previews into the store, drawing a new hunk at once (before
 * React renders its card), and marks when each hunk's first update reaches the renderer.
 * True if it drew a new hunk.
 */
export function applyLines(store: HunkLineStore, update: AnswerUpdate, draw = true): boolean {
  const now = performance.timeOrigin + performance.now();
  const isNew = (hunk: AnswerUpdate['hunks'][number]): boolean => hunk.state === 'streaming' && !store.isFollowed(hunk.id) && store.linesOf(hunk.id).length === 0;
  // New hunks first: their first row is what the user waits for; the rest only grows what is on screen.
  const hunks = update.hunks.length > 1 && update.hunks.some(isNew) ? [...update.hunks.filter(isNew), ...update.hunks.filter((hunk) => !isNew(hunk))] : update.hunks;
  let drew = false;
  for (const hunk of hunks) {
    if (hunk.firstByteAtEpochMs !== undefined && isNew(hunk)) markLatency('flint:hunk-received', now - hunk.firstByteAtEpochMs);
    // A hunk accepted as the user revised it comes back whole, once.
    if (hunk.replaceLines) store.replace(hunk.id, hunk.replaceLines);
    else store.append(hunk.id, hunk.appendLines);
    store.preview(hunk.id, hunk.state === 'streaming' ? (hunk.partialLine ?? null) : null);
    if (draw && store.previews.take(hunk)) drew = true;
  }
  return drew;
}

/** A question sent a moment ago may not be in a list main sent just before it. */
function isJustAsked(askedAt: RefObject<number | null>): boolean {
  return askedAt.current !== null && performance.timeOrigin + performance.now() - askedAt.current < 2_000;
}
