/**
 * The lines of one hunk, grown in place as they stream in.
 *
 * Plain DOM, not a CodeMirror view per hunk: a hunk is a few read-only lines, and a
 * CodeMirror view costs a shadow root and its own stylesheet each (measured: a 60 ms
 * task for the first hunk, and work per hunk after). Appending is one fragment per
 * batch; nothing already shown is touched. Lines stay selectable and copyable.
 */
import type { HunkLine } from '../../../../shared/edits/edit-types';

const PREFIX = { context: ' ', remove: '-', add: '+' } as const;

export class HunkEditor {
  private readonly container: HTMLElement;

  constructor(host: HTMLElement) {
    this.container = document.createElement('div');
    this.container.className = 'hunk-lines';
    host.append(this.container);
  }

  /** The first line's element, once there is one (for paint timing). */
  get firstRow(): Element | null {
    return this.container.firstElementChild;
  }

  /** Appends lines at the end. */
  append(lines: readonly HunkLine[]): void {
    if (lines.length === 0) return;
    const fragment = document.createDocumentFragment();
    for (const line of lines) {
      const row = document.createElement('div');
      row.className = `hunk-row is-${line.kind}`;
      row.textContent = `${PREFIX[line.kind]}${line.text}`;
      fragment.append(row);
    }
    this.container.append(fragment);
  }

  destroy(): void {
    this.container.remove();
  }
}
