/**
 * Keeps a row on one line: collapses its items, least important first, until it fits.
 *
 * The applied steps are written to the row as a space-separated `data-collapse` attribute
 * (CSS says what each step does, with `[data-collapse~='step']`), straight on the DOM:
 * React never sets that attribute, and a measure-then-write before paint does not flash
 * the overflowing row the way a state update per step would. Measured again after every
 * render (what the items say may have changed) and whenever the row's width changes.
 */
import { useLayoutEffect, type RefObject } from 'react';
import { stepsToFit } from './fit-steps';

export function useFitSteps(rowRef: RefObject<HTMLElement | null>, steps: readonly string[]): void {
  // After every render: the items' text is what decides, and it comes from many props.
  useLayoutEffect(() => {
    const row = rowRef.current;
    if (row) fit(row, steps);
  });
  useLayoutEffect(() => {
    const row = rowRef.current;
    if (!row) return;
    let width = row.clientWidth;
    const observer = new ResizeObserver(() => {
      // Collapsing changes the row's content, never its width: only a new width re-fits.
      if (row.clientWidth === width) return;
      width = row.clientWidth;
      fit(row, steps);
    });
    observer.observe(row);
    return () => observer.disconnect();
  }, [rowRef, steps]);
}

function fit(row: HTMLElement, steps: readonly string[]): void {
  const applied = stepsToFit(steps, (tried) => {
    row.dataset.collapse = tried.join(' ');
    return row.scrollWidth > row.clientWidth;
  });
  row.dataset.collapse = applied.join(' ');
}
