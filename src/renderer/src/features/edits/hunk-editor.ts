/**
 * The lines of one hunk in its card, grown in place as they stream in, and its +/− counts.
 *
 * Plain DOM, not a CodeMirror view per hunk: a hunk is a few read-only lines, and a
 * CodeMirror view costs a shadow root and its own stylesheet each (measured: a 60 ms
 * task for the first hunk, and work per hunk after). Appending is one fragment per
 * batch; nothing already shown is touched. Once the hunk is complete it is drawn again
 * reduced to what really changes (review-lines.ts). Lines stay selectable and copyable.
 */
import type { HunkLine } from '../../../../shared/edits/edit-types';
import { markElementPainted } from '../../lib/paint-marks';
import { changeCounts, reviewLinesOf } from '../review/review-lines';

const PREFIX = { context: ' ', remove: '-', add: '+' } as const;

export class HunkEditor {
  private readonly container: HTMLElement;
  private added = 0;
  private removed = 0;
  private painted = false;

  /**
   * `paintId` and `firstLineAt` (when main saw the first line) mark when the first line
   * is painted, for the bench (paint-marks.ts).
   */
  constructor(
    host: HTMLElement,
    private readonly counts: HTMLElement,
    private readonly paintId: string,
    private readonly firstLineAt: number | undefined,
  ) {
    this.container = document.createElement('div');
    this.container.className = 'hunk-lines';
    host.append(this.container);
  }

  /** Draws `lines` from scratch: as they came while streaming, reduced once complete. */
  show(lines: readonly HunkLine[], complete: boolean): void {
    this.container.replaceChildren();
    this.added = 0;
    this.removed = 0;
    if (!complete) return this.append(lines);
    const shown = reviewLinesOf(lines);
    this.draw(shown);
    const counts = changeCounts(shown);
    this.setCounts(counts.added, counts.removed);
  }

  /** Appends lines at the end. */
  append(lines: readonly HunkLine[]): void {
    if (lines.length === 0) return;
    this.draw(lines);
    for (const line of lines) {
      if (line.kind === 'add') this.added += 1;
      else if (line.kind === 'remove') this.removed += 1;
    }
    this.setCounts(this.added, this.removed);
  }

  private draw(lines: readonly HunkLine[]): void {
    const fragment = document.createDocumentFragment();
    for (const line of lines) {
      const row = document.createElement('div');
      row.className = `hunk-row is-${line.kind}`;
      row.textContent = `${PREFIX[line.kind]}${line.text}`;
      fragment.append(row);
    }
    this.container.append(fragment);
    const first = this.container.firstElementChild;
    if (!this.painted && first && this.firstLineAt !== undefined) {
      this.painted = true;
      markElementPainted(first, this.paintId, this.firstLineAt);
    }
  }

  private setCounts(added: number, removed: number): void {
    this.counts.textContent = added + removed > 0 ? `+${added} −${removed}` : '';
  }

  destroy(): void {
    this.container.remove();
  }
}
