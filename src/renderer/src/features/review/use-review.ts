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
  /** Puts the cursor on the hunk's first added (or changed) line (`selectLine`: selects it) and focuses the code view, if the hunk is drawn there. */
  focusHunk(hunkId: string, selectLine?: boolean): boolean;
  /** The hunk the cursor is in while the code view has focus (the keys then act on it), or null. */
  hunkAtCursor(): string | null;
  /** The hunks edited in place, with their edits: Accept all writes those, not the model's text. */
  editedRevisions(): Record<string, HunkRevision>;
  /** The cursor is in added text of a hunk the user edited (word deletion there is typing). */
  isEditingAtCursor(): boolean;
}

/**
 * Focus asked for a hunk before the file view had drawn it: taken there once it has, unless
 * the user moved focus elsewhere meanwhile (it is theirs then).
 */
export interface PendingFocus {
  hunkId: string;
  target: FocusTarget;
  /** What had focus when it was asked for. */
  from: Element | null;
}

/** Whether focus is still where it was when `pending` was asked for, or on the page itself (where a closed bar's falls). */
export function isFocusUnmoved(pending: PendingFocus): boolean {
  const active = document.activeElement;
  return active === pending.from || active === null || active === document.body;
}

/** Where focus goes with a newly current hunk: its card, the code view at it (`lines`: its first line selected), or nowhere (it stays). */
export type FocusTarget = 'card' | 'code' | 'lines' | 'stay';

export type ReviewHandle = ReturnType<typeof useReview>;

export interface ReviewOptions {
  answer: AnswerHandle;
  /** Shows a file and makes it current, as a pick in the tree does. */
  openFile: (path: string) => void;
  /** The file the view shows now. */
  fileOnView: string | null;
  onError: (message: string) => void;
  /** A word about what a key did; `subject` says what it is about (a newer one about it replaces it). */
  onNotice: (message: string, subject?: string) => void;
}

/** The subjects of the review's notices: nothing waits (over once a hunk does), and the last Undo or Redo. */
export const NOTICE_SUBJECTS = { nothingWaits: 'review:nothing-waits', undo: 'review:undo' } as const;

export function useReview({ answer, openFile, fileOnView, onError, onNotice }: ReviewOptions) {
  // Per conversation: hunk ids repeat from one to the next ("1.0").
  const [choice, setChoice] = useState<{ sessionId: string; hunkId: string } | null>(null);
  /** Bumped to ask the file view to bring the current hunk into view. */
  const [revealTick, setRevealTick] = useState(0);
  const [isSheetOpen, setSheetOpen] = useState(false);
  const surface = useRef<ReviewSurface | null>(null);
  const view = answer.view;
  const chosen = choice !== null && choice.sessionId === view?.sessionId ? choice.hunkId : null;
  const setChosen = useCallback((hunkId: string) => setChoice(latest.current.view ? { sessionId: latest.current.view.sessionId, hunkId } : null), []);
  // The handle is a new object every render; its callbacks are stable (memoized cards rely on it).
  const { accept, reject, acceptAll, rejectAll } = answer;
  const current = currentHunkOf(view, chosen);
  const latest = useRef({ view, current, chosen, fileOnView });
  latest.current = { view, current, chosen, fileOnView };

  // Where focus goes once the current hunk is drawn in the file view (consumed there).
  const pendingFocus = useRef<PendingFocus | null>(null);

  /** Makes `hunkId` current: its file opens, it comes into view, and focus goes to `target`. */
  const select = useCallback(
    (hunkId: string, target: FocusTarget) => {
      const hunk = latest.current.view?.hunks[hunkId];
      if (!hunk) return;
      setChosen(hunkId);
      // Another file is opened (a pick: it becomes current); the file on view is not picked again (focus on its hunk is no choice of file, and a pick's time decides against a save made just before it).
      if ((hunk.operation === 'update' || hunk.operation === 'add') && hunk.path !== latest.current.fileOnView) openFile(hunk.path);
      setRevealTick((tick) => tick + 1);
      if (target === 'card') focusCardOf(hunkId);
      // The code view may still be loading the file: it takes focus once the hunk is drawn.
      else if ((target === 'code' || target === 'lines') && !surface.current?.focusHunk(hunkId, target === 'lines')) pendingFocus.current = { hunkId, target, from: document.activeElement };
    },
    [openFile, setChosen],
  );

  /**
   * Accepts or rejects `hunkId` (by default the hunk the cursor is in, else the current
   * one). An edit made in the file is always what Accept takes; a selection of lines only
   * when the decision comes from the file (its keys, its header), never from a card.
   */
  const decide = useCallback(
    async (decision: 'accept' | 'reject', hunkId?: string, from: 'file' | 'card' = 'file'): Promise<void> => {
      const { view: before, current: now } = latest.current;
      // The hunk the user is in (the cursor in the file view), else the current one.
      const target = hunkId ?? surface.current?.hunkAtCursor() ?? now;
      if (target === null) return onNotice('No hunk is waiting for a decision.', NOTICE_SUBJECTS.nothingWaits);
      const next = neighbourOf(before, target, 1);
      const asRevised = decision === 'accept' ? surface.current?.revisionOf(target) : undefined;
      const revision = from === 'card' && asRevised?.kind === 'lines' ? undefined : asRevised;
      const ok = decision === 'accept' ? await accept(target, revision) : await reject(target);
      if (ok && next !== null && next !== target) select(next, focusAfterDecision());
    },
    [accept, reject, onNotice, select],
  );

  // From the current hunk (where closing the bar puts focus): the first Alt+↓ goes on to the next.
  const move = useCallback(
    (step: 1 | -1) => {
      const { view: now, current: from } = latest.current;
      const next = neighbourOf(now, from, step);
      if (next === null) onNotice('No hunk is waiting for a decision.', NOTICE_SUBJECTS.nothingWaits);
      else select(next, focusAfterDecision());
    },
    [onNotice, select],
  );

  const focusCurrent = useFocusCurrent(latest, select);

  /** Accept all, with the edits made in the file view (never the model's text over them). */
  const acceptEverything = useCallback(() => acceptAll(surface.current?.editedRevisions()), [acceptAll]);

  const undo = useUndoDecision('undo', onError, onNotice);
  const redo = useUndoDecision('redo', onError, onNotice);

  const run = useCallback((action: ReviewKeyAction) => runAction(action, { decide, move, acceptAll: acceptEverything, rejectAll, undo, redo, openSheet: () => setSheetOpen(true) }), [acceptEverything, rejectAll, decide, move, undo, redo]);
  useReviewKeys(run, latest, surface);
  const closeSheet = useCallback(() => setSheetOpen(false), []);
  const openSheet = useCallback(() => setSheetOpen(true), []);
  return { current, revealTick, select, setChosen, decide, move, focusCurrent, undo, acceptAll: acceptEverything, surface, pendingFocus, isSheetOpen, closeSheet, openSheet };
}

/** What a review key does. */
interface ReviewDoes {
  decide: (decision: 'accept' | 'reject') => Promise<void>;
  move: (step: 1 | -1) => void;
  acceptAll: () => Promise<unknown>;
  rejectAll: () => Promise<unknown>;
  undo: () => Promise<void>;
  redo: () => Promise<void>;
  openSheet: () => void;
}

function runAction(action: ReviewKeyAction, does: ReviewDoes): void {
  if (action === 'accept' || action === 'reject') void does.decide(action);
  else if (action === 'next' || action === 'previous') does.move(action === 'next' ? 1 : -1);
  else if (action === 'accept-all') void does.acceptAll();
  else if (action === 'reject-all') void does.rejectAll();
  else if (action === 'undo') void does.undo();
  else if (action === 'redo') void does.redo();
  else does.openSheet();
}

/** Focus on the current hunk (in the file view where it is drawn there, else its card); false when none waits. */
function useFocusCurrent(latest: { current: { view: AnswerHandle['view']; current: string | null } }, select: (hunkId: string, target: FocusTarget) => void): () => boolean {
  return useCallback((): boolean => {
    const { view: now, current: hunkId } = latest.current;
    const hunk = hunkId === null ? undefined : now?.hunks[hunkId];
    if (!hunk || hunkId === null) return false;
    select(hunkId, hunk.operation === 'update' ? 'code' : 'card');
    return true;
  }, [latest, select]);
}

/** Undoes (or redoes) the last decision; a conflict or refusal is an error, success a notice. */
function useUndoDecision(which: 'undo' | 'redo', onError: (message: string) => void, onNotice: ReviewOptions['onNotice']): () => Promise<void> {
  return useCallback(async () => {
    const result = which === 'undo' ? await flint.undoDecision({}) : await flint.redoDecision({});
    if (!result.ok) onError(result.error.message);
    else if (result.value.status === 'conflict' || result.value.status === 'refused') onError(result.value.message);
    // Each Undo or Redo replaces the word about the last one.
    else onNotice(result.value.message, NOTICE_SUBJECTS.undo);
  }, [which, onError, onNotice]);
}

/** The keys, listened to first (capture) so no text box or editor takes them. */
function useReviewKeys(run: (action: ReviewKeyAction) => void, latest: { current: { current: string | null } }, surface: { current: ReviewSurface | null }): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      const element = event.composedPath()[0];
      // Settings and the shortcuts sheet are modal: the review waits behind them, wherever focus is.
      if (document.querySelector('[aria-modal="true"]')) return;
      const action = reviewKeyAction(event, targetOf(element, surface.current), isMac);
      if (action === null) return;
      // A held key decides one hunk, not every hunk after it (moving may repeat).
      if (event.repeat && action !== 'next' && action !== 'previous') return event.preventDefault();
      // With nothing to decide, Ctrl+Enter in the ask bar still sends the question.
      if ((action === 'accept' || action === 'reject') && latest.current.current === null && isTextBox(element)) return;
      event.preventDefault();
      event.stopPropagation();
      run(action);
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [run, latest, surface]);
}

function isTextBox(element: EventTarget | undefined): element is HTMLInputElement | HTMLTextAreaElement {
  return element instanceof HTMLTextAreaElement || (element instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit'].includes(element.type));
}

/**
 * In the code view Ctrl/Cmd+Backspace rejects, as in Cursor's inline diffs — unless the
 * cursor is in added text the user has been editing, where it deletes a word; in a text
 * box with text it deletes a word.
 */
function targetOf(element: EventTarget | undefined, surface: ReviewSurface | null): KeyTarget {
  if (isTextBox(element)) return { isTyping: true, hasText: element.value.length > 0 };
  if (element instanceof HTMLElement && element.isContentEditable) return { isTyping: true, hasText: surface?.isEditingAtCursor() ?? false };
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
