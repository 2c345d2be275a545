/**
 * Settings opened from a "no key" step (the welcome screen, the ask bar): focus goes to the
 * provider in use — its key field, or first the button that lets a held-back key go — once
 * the providers are in, so the key can be typed at once.
 */
import { useEffect, type RefObject } from 'react';

/** Marks the controls, in a provider's card, that a "no key" step focuses (the first one present wins). */
export const KEY_FOCUS_ATTRIBUTE = 'data-key-focus';

export function useKeyFocus(dialogRef: RefObject<HTMLElement | null>, isAtKey: boolean, isLoaded: boolean): void {
  useEffect(() => {
    if (!isAtKey || !isLoaded) return;
    dialogRef.current?.querySelector<HTMLElement>(`.provider-card.is-active [${KEY_FOCUS_ATTRIBUTE}]`)?.focus();
  }, [dialogRef, isAtKey, isLoaded]);
}
