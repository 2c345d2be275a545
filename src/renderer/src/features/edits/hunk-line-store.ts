/**
 * Hunk lines outside React: cards read and follow them imperatively, so streaming
 * lines never re-render the pane.
 */
import type { HunkLine } from '../../../../shared/edits/edit-types';

/** Lines per hunk, plus who is listening for appends. */
export class HunkLineStore {
  private readonly lines = new Map<string, HunkLine[]>();
  private readonly listeners = new Map<string, (lines: readonly HunkLine[]) => void>();

  linesOf(id: string): readonly HunkLine[] {
    return this.lines.get(id) ?? [];
  }

  append(id: string, lines: readonly HunkLine[]): void {
    if (lines.length === 0) return;
    const list = this.lines.get(id) ?? [];
    list.push(...lines);
    this.lines.set(id, list);
    this.listeners.get(id)?.(lines);
  }

  listen(id: string, listener: (lines: readonly HunkLine[]) => void): () => void {
    this.listeners.set(id, listener);
    return () => this.listeners.delete(id);
  }

  clear(): void {
    this.lines.clear();
  }
}
