/**
 * The renderer's copy of the current answer: its view in React state, its hunk lines in
 * a HunkLineStore that cards read imperatively (so streaming lines never re-render the
 * pane), and the requests that act on it.
 */
import { useCallback, useEffect, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { AnswerUpdate, AskFocus } from '../../../../shared/ask-types';
import type { AnswerDepth } from '../../../../shared/inference-types';
import { flint } from '../../lib/flint';
import { markPainted } from '../../lib/paint-marks';
import { applyAnswerUpdate, startedAnswer, type AnswerView } from './answer-view';
import { HunkLineStore } from './hunk-line-store';

export type AnswerHandle = ReturnType<typeof useAnswer>;

/** What the question is about, as the ask bar named it. */
export interface AnswerScope {
  focus: AskFocus;
  path: string | null;
}

/** The mutable side of an answer, shared by the update subscription and the requests. */
interface AnswerRefs {
  store: HunkLineStore;
  /** The answer on screen: updates for any other are dropped. */
  sessionId: RefObject<string | null>;
  /** When the user asked (epoch ms), to mark "ask → final diff painted". */
  askedAt: RefObject<number | null>;
}

export function useAnswer(onError: (message: string) => void) {
  const [view, setView] = useState<AnswerView | null>(null);
  const storeRef = useRef(new HunkLineStore());
  const sessionIdRef = useRef<string | null>(null);
  const askedAtRef = useRef<number | null>(null);
  const refs: AnswerRefs = { store: storeRef.current, sessionId: sessionIdRef, askedAt: askedAtRef };

  useAnswerUpdates(refs, setView);
  const ask = useAsk(refs, view?.status === 'streaming', setView, onError);

  const call = useCallback(
    async (operation: () => Promise<{ ok: boolean; error?: { message: string } } & object>) => {
      const result = await operation();
      if (!result.ok && 'error' in result && result.error) onError(result.error.message);
    },
    [onError],
  );

  // Stable across frames (they read the session id from a ref): memoized cards stay put,
  // and listeners that use them (Esc stops) are not re-registered every frame.
  const session = (): string => sessionIdRef.current ?? '';
  const accept = useCallback((hunkId: string) => void call(() => flint.acceptHunk({ sessionId: session(), hunkId })), [call]);
  const reject = useCallback((hunkId: string) => void call(() => flint.rejectHunk({ sessionId: session(), hunkId })), [call]);
  const stop = useCallback(() => call(() => flint.stopAnswer({ sessionId: session() })), [call]);
  const acceptAll = useCallback(() => call(() => flint.acceptAllHunks({ sessionId: session() })), [call]);
  const rejectAll = useCallback(() => call(() => flint.rejectAllHunks({ sessionId: session() })), [call]);
  return { view, lines: storeRef.current, ask, stop, accept, reject, acceptAll, rejectAll };
}

/** Follows `ask:update` for the answer on screen: lines into the store, the rest into the view. */
function useAnswerUpdates(refs: AnswerRefs, setView: Dispatch<SetStateAction<AnswerView | null>>): void {
  const { store, sessionId, askedAt } = refs;
  useEffect(
    () =>
      flint.on('ask:update', (update) => {
        if (update.sessionId !== sessionId.current) return;
        appendLines(store, update);
        // Ready for the next batch once this one is on screen (main's UpdateBatcher waits for it).
        requestAnimationFrame(() => void flint.acknowledgeAnswer({ sessionId: update.sessionId }));
        if (update.status === 'complete' && askedAt.current !== null) {
          markPainted('flint:edit-painted', askedAt.current);
          askedAt.current = null;
        }
        setView((current) => applyAnswerUpdate(current, update));
      }),
    // The refs and the store live as long as the hook.
    [],
  );
}

/** Appends a batch's lines, marking when each hunk's first lines reach the renderer. */
function appendLines(store: HunkLineStore, update: AnswerUpdate): void {
  const now = performance.timeOrigin + performance.now();
  for (const hunk of update.hunks) {
    if (hunk.firstLineAtEpochMs !== undefined && store.linesOf(hunk.id).length === 0 && hunk.appendLines.length > 0) {
      performance.mark('flint:hunk-received', { detail: { latencyMs: now - hunk.firstLineAtEpochMs } });
    }
    store.append(hunk.id, hunk.appendLines);
  }
}

/** Asking: a new answer, or, while one streams, a redirect of that answer. Resolves whether it was taken. */
function useAsk(
  refs: AnswerRefs,
  isStreaming: boolean,
  setView: (view: AnswerView) => void,
  onError: (message: string) => void,
) {
  const { store, sessionId, askedAt } = refs;
  return useCallback(
    async (prompt: string, depth: AnswerDepth, scope?: AnswerScope): Promise<boolean> => {
      const keypressEpochMs = performance.timeOrigin + performance.now();
      if (sessionId.current !== null && isStreaming) {
        // Typing while it streams steers the same session.
        const result = await flint.redirectAnswer({ sessionId: sessionId.current, prompt, keypressEpochMs });
        if (!result.ok) onError(result.error.message);
        return result.ok;
      }
      store.clear();
      askedAt.current = keypressEpochMs;
      // The file the bar named, not whatever is current by the time this arrives.
      const result = await flint.askModel({
        prompt,
        depth,
        keypressEpochMs,
        ...(scope ? { focus: scope.focus } : {}),
        ...(scope?.path ? { paths: [scope.path] } : {}),
      });
      if (!result.ok) {
        onError(result.error.message);
        return false;
      }
      sessionId.current = result.value.sessionId;
      setView(startedAnswer(result.value.sessionId));
      return true;
    },
    [store, sessionId, askedAt, isStreaming, setView, onError],
  );
}
