/**
 * Keeps keyboard focus inside an open dialog, and gives it back when the dialog closes.
 *
 * - Tab from the last control goes to the first, Shift+Tab from the first to the last.
 * - Focus that falls to the page body (the focused button was disabled or re-rendered
 *   away, e.g. Settings' Test connection, or Accept all in the pane while the ask bar is
 *   open) is pulled back into the dialog, so its keys (Esc) still reach it. A click on a
 *   non-focusable spot outside the dialog is left alone: the user meant it (and pulling
 *   focus would drop the text they are selecting there).
 * - On close, focus returns to the element that had it when the dialog opened.
 *
 * Only the most recently opened trap acts (Settings opened over the ask bar).
 */
import { useLayoutEffect, useRef, type RefObject } from 'react';

/** What Tab does in a trap. */
export type TrapMove =
  /** Focus the control at this position in Tab order. */
  | { kind: 'focus'; index: number }
  /** No control to go to: focus stays on the dialog. */
  | { kind: 'dialog' }
  /** Inside the run of controls: the browser's own Tab is right. */
  | { kind: 'browser' };

/**
 * Where Tab (or Shift+Tab, `isBackward`) goes from control `index` of `count`;
 * `index` is -1 when focus is on the dialog itself or outside it.
 */
export function trapMove(index: number, count: number, isBackward: boolean): TrapMove {
  if (count === 0) return { kind: 'dialog' };
  if (index < 0) return { kind: 'focus', index: isBackward ? count - 1 : 0 };
  if (isBackward && index === 0) return { kind: 'focus', index: count - 1 };
  if (!isBackward && index >= count - 1) return { kind: 'focus', index: 0 };
  return { kind: 'browser' };
}

export interface FocusTrapOptions {
  /** Where focus goes when it falls out (else the control that last had it, else the dialog). */
  fallbackRef?: RefObject<HTMLElement | null>;
  /** Return focus on close (false where the dialog does it itself, as the ask bar does). */
  shouldReturnFocus?: boolean;
}

const TABBABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  'summary',
  '[tabindex]',
  '[contenteditable="true"]',
].join(', ');

/** The dialog's controls in Tab order (document order: Flint sets no positive tabindex). */
function tabbableIn(dialog: HTMLElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(TABBABLE)].filter((element) => element.tabIndex >= 0 && element.getClientRects().length > 0);
}

/** Open traps, newest last: only the newest handles keys and lost focus. */
const openTraps: HTMLElement[] = [];

/** The dialog must be mounted with the component (its ref set during the first commit). */
export function useFocusTrap(dialogRef: RefObject<HTMLElement | null>, options: FocusTrapOptions = {}): void {
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useLayoutEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.contains(document.activeElement)) (optionsRef.current.fallbackRef?.current ?? dialog).focus();
    openTraps.push(dialog);
    const stopTrapping = trapFocus(dialog, () => optionsRef.current.fallbackRef?.current ?? null);
    const shouldReturnFocus = optionsRef.current.shouldReturnFocus ?? true;
    return () => {
      stopTrapping();
      openTraps.splice(openTraps.indexOf(dialog), 1);
      if (shouldReturnFocus && previous?.isConnected) previous.focus();
    };
  }, [dialogRef]);
}

/** The listeners behind the hook; returns their removal. */
function trapFocus(dialog: HTMLElement, fallback: () => HTMLElement | null): () => void {
  const isTop = (): boolean => openTraps.at(-1) === dialog;
  let lastInside: HTMLElement | null = null;
  let isPointerOutside = false;
  let rescue: ReturnType<typeof setTimeout> | undefined;

  const onKeyDown = (event: KeyboardEvent): void => {
    // Bubble phase on the document: the dialog's own handlers (the ask bar's Tab queues) ran first.
    if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || !isTop()) return;
    const stops = tabbableIn(dialog);
    const move = trapMove(stops.indexOf(document.activeElement as HTMLElement), stops.length, event.shiftKey);
    if (move.kind === 'browser') return;
    event.preventDefault();
    (move.kind === 'focus' ? stops[move.index]! : dialog).focus();
  };
  const onFocusIn = (event: FocusEvent): void => {
    if (event.target instanceof HTMLElement && dialog.contains(event.target)) lastInside = event.target;
  };
  const onPointerDown = (event: PointerEvent): void => {
    // The focus change this press causes comes in the same task.
    isPointerOutside = !dialog.contains(event.target as Node);
    setTimeout(() => (isPointerOutside = false));
  };
  const onFocusOut = (event: FocusEvent): void => {
    if (event.relatedTarget !== null || isPointerOutside || !isTop()) return;
    clearTimeout(rescue);
    // The browser moves focus to the body after this event; look once it has.
    rescue = setTimeout(() => {
      const active = document.activeElement;
      if (!isTop() || (active !== null && active !== document.body)) return;
      for (const target of [lastInside, fallback(), dialog]) {
        if (!target?.isConnected) continue;
        target.focus();
        if (document.activeElement === target) return;
      }
    });
  };

  document.addEventListener('keydown', onKeyDown);
  document.addEventListener('focusin', onFocusIn);
  document.addEventListener('focusout', onFocusOut, true);
  document.addEventListener('pointerdown', onPointerDown, true);
  return () => {
    clearTimeout(rescue);
    document.removeEventListener('keydown', onKeyDown);
    document.removeEventListener('focusin', onFocusIn);
    document.removeEventListener('focusout', onFocusOut, true);
    document.removeEventListener('pointerdown', onPointerDown, true);
  };
}
