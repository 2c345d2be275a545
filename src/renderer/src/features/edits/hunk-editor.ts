/**
 * The lines of one hunk in its card, grown in place as they stream in — the line still
 * arriving included, as a row that becomes the line once it is whole — and its +/− counts.
 *
 * Plain DOM, not a CodeMirror view per hunk: a hunk is a few read-only lines, and a
 * CodeMirror view costs a shadow root and its own stylesheet each (measured: a 60 ms
 * task for the first hunk, and work per hunk after). Appending is one fragment per
 * batch; nothing already shown is touched. Once the hunk is complete it is drawn again
 * reduced to what really changes (review-lines.ts). Lines stay selectable and copyable.
 */
import type { HunkLine } from '../../../../shared/edits/edit-types';
import { changeCounts, reviewLinesOf } from '../review/review-lines';
import type { HunkLineListener } from './hunk-line-store';

const PREFIX = { context: ' ', remove: '-', add: '+' } as const;

export class HunkEditor implements HunkLineListener {
  private readonly container: HTMLElement;
  /** The row of the line still arriving, if one is. */
  private partialRow: HTMLElement | null = null;
  private added = 0;
  private removed = 0;

  constructor(
    host: HTMLElement,
    private counts: HTMLElement,
  ) {
    this.container = document.createElement('div');
    this.container.className = 'hunk-lines';
    host.append(this.container);
  }

  /** Moves the drawing into another card (React's, taking over from a preview). */
  moveTo(host: HTMLElement, counts: HTMLElement): void {
    host.append(this.container);
    counts.textContent = this.counts.textContent;
    this.counts = counts;
  }

  /** Draws `lines` from scratch: as they came while streaming, reduced once complete. */
  show(lines: readonly HunkLine[], complete: boolean, partial: HunkLine | null = null): void {
    this.container.replaceChildren();
    this.partialRow = null;
    this.added = 0;
    this.removed = 0;
    if (!complete) {
      this.append(lines);
      return this.preview(partial);
    }
    const shown = reviewLinesOf(lines);
    this.draw(shown);
    const counts = changeCounts(shown);
    this.setCounts(counts.added, counts.removed);
  }

  append(lines: readonly HunkLine[]): void {
    if (lines.length === 0) return;
    this.draw(lines);
    for (const line of lines) {
      if (line.kind === 'add') this.added += 1;
      else if (line.kind === 'remove') this.removed += 1;
    }
    this.setCounts(this.added, this.removed);
  }

  replace(lines: readonly HunkLine[]): void {
    this.show(lines, true);
  }

  /** The line still arriving: drawn in its row at the end (null: the row goes). */
  preview(line: HunkLine | null): void {
    if (line === null) {
      this.partialRow?.remove();
      this.partialRow = null;
      return;
    }
    if (!this.partialRow) {
      this.partialRow = document.createElement('div');
      // Rewritten at every token: assistive technology hears the line once it is whole.
      this.partialRow.setAttribute('aria-hidden', 'true');
      this.container.append(this.partialRow);
    }
    this.partialRow.className = `hunk-row is-${line.kind} is-partial`;
    this.partialRow.textContent = `${PREFIX[line.kind]}${line.text}`;
  }

  private draw(lines: readonly HunkLine[]): void {
    const fragment = document.createDocumentFragment();
    // The preview row becomes the first new line: the row on screen stays, its text completes.
    let reused = this.partialRow;
    this.partialRow = null;
    for (const line of lines) {
      const row = reused ?? document.createElement('div');
      row.removeAttribute('aria-hidden');
      row.className = `hunk-row is-${line.kind}`;
      row.textContent = `${PREFIX[line.kind]}${line.text}`;
      if (reused) reused = null;
      else fragment.append(row);
    }
    this.container.append(fragment);
  }

  private setCounts(added: number, removed: number): void {
    this.counts.textContent = added + removed > 0 ? `+${added} −${removed}` : '';
  }

  destroy(): void {
    this.container.remove();
  }
}
