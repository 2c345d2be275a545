/**
 * The review, keyboard-first: which hunk the keys act on, the decisions (with what the
 * user chose or edited in the file view), moving on to the next hunk after each, and the
 * keys that do it from anywhere in the app (review-keys.ts).
 *
 * The file view registers itself as the review's surface: it says what Accept takes of a
 * hunk drawn there (selected lines, edited text) and brings a hunk into view.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { HunkRevision } from '../../../../shared/edits/hunk-types';
import { flint } from '../../lib/flint';
import { isMac } from '../../lib/platform';
import type { AnswerHandle } from '../edits/use-answer';
import { currentHunkOf, neighbourOf } from './review-order';
import { reviewKeyAction, type KeyTarget, type ReviewKeyAction } from './review-keys';

/** What the file view offers the review. */
export interface ReviewSurface {
  /** What Accept takes of `hunkId` if it is drawn there: selected lines, edited text, or undefined (all). */
  revisionOf(hunkId: string): HunkRevision | undefined;
  /** Puts the cursor on the hunk's first added (or changed) line and focuses the code view, if the hunk is drawn there. */
  focusHunk(hunkId: string): boolean;
}

/** Where focus goes with a newly current hunk: its card, the code view at it, or nowhere (it stays). */
export type FocusTarget = 'card' | 'code' | 'stay';

export type ReviewHandle = ReturnType<typeof useReview>;

export interface ReviewOptions {
  answer: AnswerHandle;
  openFile: (path: string) => void;
  onError: (message: string) => void;
  onNotice: (message: string) => void;
}

export function useReview({ answer, openFile, onError, onNotice }: ReviewOptions) {
  const [chosen, setChosen] = useState<string | null>(null);
  /** Bumped to ask the file view to bring the current hunk into view. */
  const [revealTick, setRevealTick] = useState(0);
  const [isSheetOpen, setSheetOpen] = useState(false);
  const surface = useRef<ReviewSurface | null>(null);
  const view = answer.view;
  // The handle is a new object every render; its callbacks are stable (memoized cards rely on it).
  const { accept, reject, acceptAll, rejectAll } = answer;
  const current = currentHunkOf(view, chosen);
  const latest = useRef({ view, current, chosen });
  latest.current = { view, current, chosen };

  /** Where focus goes once the current hunk is drawn in the file view (consumed there). */
  const pendingFocus = useRef<{ hunkId: string; target: FocusTarget } | null>(null);

  /** Makes `hunkId` current: its file opens, it comes into view, and focus goes to `target`. */
  const select = useCallback(
    (hunkId: string, target: FocusTarget) => {
      const hunk = latest.current.view?.hunks[hunkId];
      if (!hunk) return;
      setChosen(hunkId);
      if (hunk.operation === 'update' || hunk.operation === 'add') openFile(hunk.path);
      setRevealTick((tick) => tick + 1);
      if (target === 'card') focusCardOf(hunkId);
      // The code view may still be loading the file: it takes focus once the hunk is drawn.
      else if (target === 'code' && !surface.current?.focusHunk(hunkId)) pendingFocus.current = { hunkId, target };
    },
    [openFile],
  );

  const decide = useCallback(
    async (decision: 'accept' | 'reject', hunkId?: string): Promise<void> => {
      const { view: before, current: now } = latest.current;
      const target = hunkId ?? now;
      if (target === null) return onNotice('No hunk is waiting for a decision.');
      const next = neighbourOf(before, target, 1);
      const revision = decision === 'accept' ? surface.current?.revisionOf(target) : undefined;
      const ok = decision === 'accept' ? await accept(target, revision) : await reject(target);
      if (ok && next !== null && next !== target) select(next, focusAfterDecision());
    },
    [accept, reject, onNotice, select],
  );

  const move = useCallback(
    (step: 1 | -1) => {
      // The first move goes to the first (or last) hunk; later ones from the current one.
      const { view: now, chosen: from } = latest.current;
      const next = neighbourOf(now, from !== null && now?.hunks[from] ? from : null, step);
      if (next === null) onNotice('No hunk is waiting for a decision.');
      else select(next, focusAfterDecision());
    },
    [onNotice, select],
  );

  const undo = useCallback(async () => {
    const result = await flint.undoWrite({});
    if (!result.ok) onError(result.error.message);
    else if (result.value.status === 'conflict' || result.value.status === 'refused') onError(result.value.message);
    else onNotice(result.value.message);
  }, [onError, onNotice]);

  const run = useCallback(
    (action: ReviewKeyAction): void => {
      if (action === 'accept' || action === 'reject') void decide(action);
      else if (action === 'next' || action === 'previous') move(action === 'next' ? 1 : -1);
      else if (action === 'accept-all') void acceptAll();
      else if (action === 'reject-all') void rejectAll();
      else if (action === 'undo') void undo();
      else setSheetOpen(true);
    },
    [acceptAll, rejectAll, decide, move, undo],
  );

  useReviewKeys(run, latest);
  return { current, revealTick, select, decide, move, undo, surface, pendingFocus, isSheetOpen, closeSheet: () => setSheetOpen(false), openSheet: () => setSheetOpen(true) };
}

/** The keys, listened to first (capture) so no text box or editor takes them. */
function useReviewKeys(run: (action: ReviewKeyAction) => void, latest: { current: { current: string | null } }): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      const element = event.composedPath()[0];
      // Settings and the shortcuts sheet are modal: the review waits behind them.
      if (element instanceof Element && element.closest('[aria-modal="true"]')) return;
      const action = reviewKeyAction(event, targetOf(element), isMac);
      if (action === null) return;
      // With nothing to decide, Ctrl+Enter in the ask bar still sends the question.
      if ((action === 'accept' || action === 'reject') && latest.current.current === null && isTextBox(element)) return;
      event.preventDefault();
      event.stopPropagation();
      run(action);
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [run, latest]);
}

function isTextBox(element: EventTarget | undefined): element is HTMLInputElement | HTMLTextAreaElement {
  return element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(element.type));
}

/**
 * In the code view Ctrl/Cmd+Backspace rejects, as in Cursor's inline diffs (typing there is
 * editing a hunk, and Undo there is the editor's own); in a text box it deletes a word.
 */
function targetOf(element: EventTarget | undefined): KeyTarget {
  if (isTextBox(element)) return { isTyping: true, hasText: element.value.length > 0 };
  if (element instanceof HTMLElement && element.isContentEditable) return { isTyping: true, hasText: false };
  return { isTyping: false, hasText: false };
}

/**
 * After a decision focus follows the review: in the code view it moves to the next hunk
 * there; in the ask bar it stays (the user is typing); anywhere else the next card takes it.
 */
function focusAfterDecision(): FocusTarget {
  const active = document.activeElement;
  if (active?.closest('.file-view')) return 'code';
  if (active?.closest('.ask-bar')) return 'stay';
  return 'card';
}

function focusCardOf(hunkId: string): void {
  // After React has drawn the card's new state.
  requestAnimationFrame(() => {
    const card = document.querySelector<HTMLElement>(`.hunk-card[data-hunk-id="${CSS.escape(hunkId)}"]`);
    card?.focus({ preventScroll: true });
    card?.scrollIntoView({ block: 'nearest' });
  });
}
