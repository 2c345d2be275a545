/**
 * Hunk lines outside React: cards and the file view read and follow them imperatively,
 * so streaming lines never re-render the pane. A hunk's line still arriving (its preview)
 * is kept too, and a new hunk is drawn at once, before React renders its card
 * (hunk-previews.ts).
 */
import type { HunkLine } from '../../../../shared/edits/edit-types';
import { HunkPreviews } from './hunk-previews';

/** Who follows a hunk's lines (its drawing in a card). */
export interface HunkLineListener {
  append(lines: readonly HunkLine[]): void;
  /** The hunk's lines are now these (the user accepted it revised). */
  replace(lines: readonly HunkLine[]): void;
  /** The line still arriving, or null once there is none. */
  preview(line: HunkLine | null): void;
}

/** Lines per hunk, plus who is listening for changes. */
export class HunkLineStore {
  private readonly lines = new Map<string, HunkLine[]>();
  private readonly partials = new Map<string, HunkLine>();
  private readonly listeners = new Map<string, HunkLineListener>();
  /** New hunks drawn before their cards (see hunk-previews.ts). */
  readonly previews = new HunkPreviews(this);

  linesOf(id: string): readonly HunkLine[] {
    return this.lines.get(id) ?? [];
  }

  partialOf(id: string): HunkLine | null {
    return this.partials.get(id) ?? null;
  }

  isFollowed(id: string): boolean {
    return this.listeners.has(id);
  }

  append(id: string, lines: readonly HunkLine[]): void {
    if (lines.length === 0) return;
    const list = this.lines.get(id) ?? [];
    list.push(...lines);
    this.lines.set(id, list);
    // A completed line ends the preview of it.
    this.partials.delete(id);
    this.listeners.get(id)?.append(lines);
  }

  /** The hunk's lines are now `lines` (the user accepted it revised). */
  replace(id: string, lines: readonly HunkLine[]): void {
    this.lines.set(id, [...lines]);
    this.partials.delete(id);
    this.listeners.get(id)?.replace(lines);
  }

  /** The hunk's line still arriving (null: none now). */
  preview(id: string, line: HunkLine | null): void {
    const before = this.partials.get(id) ?? null;
    if (line === null ? before === null : before !== null && before.kind === line.kind && before.text === line.text) return;
    if (line === null) this.partials.delete(id);
    else this.partials.set(id, line);
    this.listeners.get(id)?.preview(line);
  }

  listen(id: string, listener: HunkLineListener): () => void {
    this.listeners.set(id, listener);
    return () => {
      if (this.listeners.get(id) === listener) this.listeners.delete(id);
    };
  }

  clear(): void {
    this.lines.clear();
    this.partials.clear();
    this.listeners.clear();
    this.previews.clear();
  }
}
