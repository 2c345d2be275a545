/**
 * The bar floats over the top of the file view. It tells the view where it is (the view then
 * scrolls the hunk waiting for a decision clear of it), and when the view cannot (the hunk
 * is at the top of a short file) it docks at the bottom of the window instead, while it
 * stays open (the bar is mounted per opening).
 */
import { useEffect, useState, type RefObject } from 'react';
import { coverWith, onClearRequest, overlaps } from '../../lib/covering-panels';

export function useDocking(dialogRef: RefObject<HTMLElement | null>): boolean {
  const [isDocked, setDocked] = useState(false);
  useEffect(() => {
    const element = dialogRef.current;
    if (!element) return undefined;
    const forget = coverWith(element);
    const stop = onClearRequest((rect) => overlaps(element.getBoundingClientRect(), rect) && setDocked(true));
    return () => {
      stop();
      forget();
    };
  }, [dialogRef]);
  return isDocked;
}
