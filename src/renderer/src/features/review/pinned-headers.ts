/**
 * Keeps each hunk's header in reach. A header is a block widget inside the code, which is as
 * wide as the file's longest line: with long lines its Accept and Reject sat past the right
 * edge of the view, and scrolled away with the code. Here it is pinned (sticky) just right of
 * the gutters and as wide as the visible part of the view, so its buttons stay where the
 * user looks however far the code scrolls sideways.
 *
 * CodeMirror lays out outside React: the widths are measured in its measure phase and set
 * as CSS variables on the editor, which the theme's sticky header reads.
 */
import { EditorView, ViewPlugin, type ViewUpdate } from '@codemirror/view';

interface Pin {
  /** The gutters' width: the header sticks just right of them. */
  left: number;
  /** The visible width right of the gutters. */
  width: number;
}

const measurePins = ViewPlugin.fromClass(
  class {
    private last: Pin | null = null;

    constructor(private readonly view: EditorView) {
      this.measure();
    }

    update(update: ViewUpdate): void {
      // The view's size, or the gutters' width (more digits in the line numbers), changed.
      if (update.geometryChanged || update.docChanged) this.measure();
    }

    private measure(): void {
      this.view.requestMeasure<Pin>({
        key: this,
        read: (view) => {
          const gutters = view.scrollDOM.querySelector<HTMLElement>('.cm-gutters');
          // Fractional widths, the header's cut down to whole pixels: it never pokes past the view's edge.
          const left = gutters?.getBoundingClientRect().width ?? 0;
          return { left, width: Math.max(0, Math.floor(view.scrollDOM.clientWidth - left)) };
        },
        write: (pin, view) => {
          if (this.last?.left === pin.left && this.last.width === pin.width) return;
          this.last = pin;
          view.dom.style.setProperty('--flint-pin-left', `${pin.left}px`);
          view.dom.style.setProperty('--flint-pin-width', `${pin.width}px`);
        },
      });
    }
  },
);

const pinnedTheme = EditorView.theme({
  '.cm-flint-hunk-header': {
    position: 'sticky',
    left: 'var(--flint-pin-left, 0px)',
    width: 'var(--flint-pin-width, auto)',
    boxSizing: 'border-box',
    // Over the code's own layers (selection, cursor) as it slides across them.
    zIndex: '2',
  },
});

/** Hunk headers pinned to the visible part of the file view (see the header). */
export const pinnedHeaders = [measurePins, pinnedTheme];
