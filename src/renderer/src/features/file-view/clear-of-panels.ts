/**
 * Keeps the current hunk out from under the floating ask bar. The bar floats over the top of
 * the file view; CodeMirror hears that band is covered (scroll margins), so every scroll to
 * a hunk (reveal, focus, following the stream) places it below the bar. When the bar opens,
 * grows, or another hunk becomes current, a current hunk whose header sits under the bar is
 * scrolled clear; one the view cannot scroll down far enough (near the top of a short file)
 * asks the bar to move off it. The user's own scrolling is left alone.
 *
 * At most half the view counts as covered: a bar taller than that leaves the view's lower
 * half to show the hunk in.
 */
import { EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';
import { askToClear, coveredTop, onCoverChange } from '../../lib/covering-panels';
import { setCurrentHunk, setReviewBlocks } from '../review/review-extension';

/** Room left between the bar and the header it would cover. */
const GAP_PX = 8;

function coveredBand(view: EditorView): number {
  const area = view.scrollDOM.getBoundingClientRect();
  return Math.min(coveredTop(area), area.height / 2);
}

const keepCurrentClear = ViewPlugin.fromClass(
  class {
    private readonly stop: () => void;

    constructor(private readonly view: EditorView) {
      this.stop = onCoverChange(() => this.check());
    }

    update(update: ViewUpdate): void {
      // Another hunk became current, or the hunks were drawn again (the current one's header may be new).
      if (update.transactions.some((tr) => tr.effects.some((effect) => effect.is(setCurrentHunk) || effect.is(setReviewBlocks)))) this.check();
    }

    private check(): void {
      this.view.requestMeasure<{ delta: number; header: DOMRect | null }>({
        key: this,
        read: (view) => {
          const header = view.contentDOM.querySelector<HTMLElement>('.cm-flint-hunk-header.is-current');
          const band = coveredBand(view);
          if (!header || band === 0) return { delta: 0, header: null };
          const area = view.scrollDOM.getBoundingClientRect();
          const rect = header.getBoundingClientRect();
          const top = rect.top - area.top;
          // Under the bar: how far to scroll so it sits just below. Scrolled out of view, it is
          // left where the user put it (the bar resizes as its answer streams).
          if (top < 0 || top >= band + GAP_PX) return { delta: 0, header: null };
          const delta = top - band - GAP_PX;
          // Scrolling up stops at the top of the file: short of that, the bar is asked to move.
          return { delta, header: -delta > view.scrollDOM.scrollTop ? rect : null };
        },
        write: ({ delta, header }, view) => {
          if (delta !== 0) view.scrollDOM.scrollTop += delta;
          if (header) askToClear(header);
        },
      });
    }

    destroy(): void {
      this.stop();
    }
  },
);

/** The file view's scrolls keep clear of the floating bar (see the header). */
export const clearOfPanels = [EditorView.scrollMargins.of((view) => ({ top: coveredBand(view) })), keepCurrentClear];
