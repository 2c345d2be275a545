/**
 * Hunk lines outside React: cards and the file view read and follow them imperatively,
 * so streaming lines never re-render the pane.
 */
import type { HunkLine } from '../../../../shared/edits/edit-types';

/** Told of new lines; `whole` when they replace everything before (a revised hunk). */
export type HunkLineListener = (lines: readonly HunkLine[], whole: boolean) => void;

/** Lines per hunk, plus who is listening for changes. */
export class HunkLineStore {
  private readonly lines = new Map<string, HunkLine[]>();
  private readonly listeners = new Map<string, HunkLineListener>();
  /** Characters of every line received since the last clear (for the tokens/s estimate). */
  characters = 0;

  linesOf(id: string): readonly HunkLine[] {
    return this.lines.get(id) ?? [];
  }

  append(id: string, lines: readonly HunkLine[]): void {
    if (lines.length === 0) return;
    const list = this.lines.get(id) ?? [];
    list.push(...lines);
    this.lines.set(id, list);
    for (const line of lines) this.characters += line.text.length + 1;
    this.listeners.get(id)?.(lines, false);
  }

  /** The hunk's lines are now `lines` (the user accepted it revised). */
  replace(id: string, lines: readonly HunkLine[]): void {
    this.lines.set(id, [...lines]);
    this.listeners.get(id)?.(lines, true);
  }

  listen(id: string, listener: HunkLineListener): () => void {
    this.listeners.set(id, listener);
    return () => this.listeners.delete(id);
  }

  clear(): void {
    this.lines.clear();
    this.characters = 0;
  }
}
