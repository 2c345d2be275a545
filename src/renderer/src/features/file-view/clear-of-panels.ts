/**
 * Keeps the current hunk out from under the floating ask bar. The bar floats over the top of
 * the file view; CodeMirror hears that band is covered (scroll margins), so every scroll to
 * a hunk (reveal, focus, following the stream) places it below the bar. When the bar opens,
 * grows, or another hunk becomes current, a current hunk whose header sits under the bar is
 * scrolled clear. The user's own scrolling is left alone.
 *
 * At most half the view counts as covered: a bar taller than that leaves the view's lower
 * half to show the hunk in.
 */
import { EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';
import { coveredTop, onCoverChange } from '../../lib/covering-panels';
import { setCurrentHunk } from '../review/review-extension';

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
      if (update.transactions.some((tr) => tr.effects.some((effect) => effect.is(setCurrentHunk)))) this.check();
    }

    private check(): void {
      this.view.requestMeasure<number>({
        key: this,
        read: (view) => {
          const header = view.contentDOM.querySelector<HTMLElement>('.cm-flint-hunk-header.is-current');
          const band = coveredBand(view);
          if (!header || band === 0) return 0;
          const area = view.scrollDOM.getBoundingClientRect();
          const top = header.getBoundingClientRect().top - area.top;
          // Under the bar: how far to scroll so it sits just below. Scrolled out of view, it is
          // left where the user put it (the bar resizes as its answer streams).
          return top >= 0 && top < band + GAP_PX ? top - band - GAP_PX : 0;
        },
        write: (delta, view) => {
          if (delta !== 0) view.scrollDOM.scrollTop += delta;
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
