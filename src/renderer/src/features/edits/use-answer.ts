/**
 * The renderer's copy of the conversation on screen: its view in React state, its hunk
 * lines in a HunkLineStore that cards read imperatively (so streaming lines never
 * re-render the pane), the history list, and the requests that act on them.
 *
 * Main holds the conversations: on every (re)load and reconnect the renderer asks for the
 * list and the whole conversation it shows (use-conversation-sync.ts).
 */
import { useCallback, useRef, useState } from 'react';
import type { AnswerUpdate, AskFocus, AskSubject, ConversationSummary, LineRange } from '../../../../shared/ask-types';
import type { HunkRevision } from '../../../../shared/edits/hunk-types';
import type { AnswerDepth } from '../../../../shared/inference-types';
import { flint } from '../../lib/flint';
import { remember } from '../../lib/tab-memory';
import { applyAnswerUpdate, startedAnswer, type AnswerView } from './answer-view';
import { HunkLineStore } from './hunk-line-store';
import { OutputRateStore } from './output-rate';
import { ProseStore } from './prose-store';
import { applyLines, useConversationSync, type AnswerRefs } from './use-conversation-sync';
import { ViewUpdates } from './view-updates';

export type AnswerHandle = ReturnType<typeof useAnswer>;

/** What the question is about, as the ask bar named it. */
export interface AnswerScope {
  focus: AskFocus;
  path: string | null;
  /** With focus `selection`: the selected lines of `path`. */
  selection?: LineRange | null;
  /** `project`: no file but the outline (and the files the prompt names with `@path`). */
  subject?: AskSubject;
}

/**
 * How a message is sent: a new conversation, a follow-up in the one on screen, a redirect
 * of its streaming answer (interrupt + new turn), or queued for when that answer ends.
 */
export type SendMode = 'new' | 'follow-up' | 'redirect' | 'queue';

type Outcome = { ok: true } | { ok: false; error: { code?: string; message: string } };

/** A request main refused before sending anything, shown where it was asked (the ask bar), not as a notice. */
export interface AskRefusal {
  /** The words that were not sent. */
  prompt: string;
  message: string;
}

export function useAnswer(onError: (message: string) => void) {
  const [view, setView] = useState<AnswerView | null>(null);
  const [conversations, setConversations] = useState<ConversationSummary[]>([]);
  const refusals = useAskRefusal();
  const storeRef = useRef(new HunkLineStore());
  const ratesRef = useRef(new OutputRateStore());
  const viewsRef = useRef<ViewUpdates | null>(null);
  // A drawn hunk's card waits for the preview's paint (hunk-previews.ts).
  viewsRef.current ??= new ViewUpdates(setView, (run) => storeRef.current.previews.whenPainted(run));
  const refs: AnswerRefs = {
    store: storeRef.current,
    prose: useRef(new ProseStore()).current,
    rates: ratesRef.current,
    sessionId: useRef<string | null>(null),
    askedAt: useRef<number | null>(null),
    loading: useRef<string | null>(null),
    early: useRef<AnswerUpdate[] | null>(null),
    views: viewsRef.current,
  };
  const { show } = useConversationSync(refs, setView, setConversations, onError);

  const call = useCallback(
    async (operation: () => Promise<Outcome>): Promise<boolean> => {
      const result = await operation();
      if (!result.ok) onError(result.error.message);
      return result.ok;
    },
    [onError],
  );

  // Stable across frames (they read the session id from a ref): memoized cards stay put,
  // and listeners that use them (Esc stops) are not re-registered every frame.
  const session = (): string => refs.sessionId.current ?? '';
  const accept = useCallback(
    (hunkId: string, revision?: HunkRevision) => call(() => flint.acceptHunk({ sessionId: session(), hunkId, ...(revision ? { revision } : {}) })),
    [call],
  );
  const reject = useCallback((hunkId: string) => call(() => flint.rejectHunk({ sessionId: session(), hunkId })), [call]);
  const revert = useCallback((hunkId: string) => call(() => flint.revertHunk({ sessionId: session(), hunkId })), [call]);
  const restore = useCallback((hunkId: string) => call(() => flint.restoreHunk({ sessionId: session(), hunkId })), [call]);
  const stop = useCallback(() => call(() => flint.stopAnswer({ sessionId: session() })), [call]);
  const acceptAll = useCallback(
    (revisions?: Record<string, HunkRevision>) => call(() => flint.acceptAllHunks({ sessionId: session(), ...(revisions && Object.keys(revisions).length > 0 ? { revisions } : {}) })),
    [call],
  );
  const rejectAll = useCallback(() => call(() => flint.rejectAllHunks({ sessionId: session() })), [call]);
  const retry = useCallback((turn: number, depth: AnswerDepth) => call(() => flint.retryTurn({ sessionId: session(), turn, depth })), [call]);
  const cancelRetry = useCallback(() => call(() => flint.cancelRetry({ sessionId: session() })), [call]);

  const send = useCallback(
    async (prompt: string, depth: AnswerDepth, mode: SendMode, scope?: AnswerScope): Promise<boolean> => {
      const keypressEpochMs = performance.timeOrigin + performance.now();
      const sessionId = refs.sessionId.current;
      refusals.clear();
      const isRefused = (outcome: Outcome) => refusals.check(prompt, outcome);
      if (sessionId !== null && (mode === 'redirect' || mode === 'queue')) {
        const outcome = mode === 'redirect' ? await flint.redirectAnswer({ sessionId, prompt, keypressEpochMs, depth }) : await flint.queueAnswer({ sessionId, prompt, depth });
        return isRefused(outcome) ? false : call(async () => outcome);
      }
      const followUp = sessionId !== null && mode === 'follow-up';
      refs.askedAt.current = keypressEpochMs;
      // The new conversation's first updates can come before its id does: kept until then.
      if (!followUp) refs.early.current = [];
      // The file the bar named, not whatever is current by the time this arrives.
      const result = await flint.askModel({ prompt, depth, keypressEpochMs, ...(followUp ? { conversationId: sessionId } : askedAbout(scope)) });
      const early = refs.early.current ?? [];
      refs.early.current = null;
      if (!result.ok) {
        if (!isRefused(result)) onError(result.error.message);
        return false;
      }
      if (!followUp) showStarted(refs, result.value.sessionId, prompt, early, setView);
      return true;
    },
    // The refs live as long as the hook.
    [call, onError, refusals.clear, refusals.check],
  );

  return { view, conversations, refusal: refusals.refusal, lines: storeRef.current, prose: refs.prose, rates: ratesRef.current, send, show, stop, accept, reject, revert, restore, acceptAll, rejectAll, retry, cancelRetry };
}

/** What a new question is about, as the bar showed it: the file, its focus (and selection), or the project. */
function askedAbout(scope: AnswerScope | undefined) {
  if (!scope) return {};
  return {
    focus: scope.focus,
    ...(scope.focus === 'selection' && scope.selection ? { selection: scope.selection } : {}),
    ...(scope.path ? { paths: [scope.path] } : {}),
    ...(scope.subject === 'project' ? { subject: 'project' as const } : {}),
  };
}

/** A new conversation goes on screen, with whatever of it arrived before its id. */
function showStarted(refs: AnswerRefs, sessionId: string, prompt: string, early: readonly AnswerUpdate[], setView: (view: AnswerView | null) => void): void {
  refs.store.clear();
  refs.prose.clear();
  refs.rates.clear();
  refs.views.drop();
  refs.sessionId.current = sessionId;
  refs.loading.current = null;
  remember('conversation', '', sessionId);
  let view: AnswerView | null = startedAnswer(sessionId, prompt);
  for (const update of early) {
    if (update.sessionId !== sessionId) continue;
    // Not on screen yet: its cards draw these hunks.
    applyLines(refs.store, update, false);
    refs.prose.take(update);
    refs.rates.take(update);
    view = applyAnswerUpdate(view, update);
  }
  setView(view);
}

/** Alt+Enter without a deep model: said in the bar, next to the words that stay unsent (not as a notice). */
function useAskRefusal() {
  const [refusal, setRefusal] = useState<AskRefusal | null>(null);
  const check = useCallback((prompt: string, outcome: Outcome): boolean => {
    if (outcome.ok || outcome.error.code !== 'no-deep-model') return false;
    setRefusal({ prompt, message: outcome.error.message });
    return true;
  }, []);
  const clear = useCallback(() => setRefusal(null), []);
  return { refusal, check, clear };
}
