/**
 * Each turn's prose outside React state, like its hunk lines (hunk-line-store.ts): a batch
 * that brings only prose re-renders nothing but the prose it grows (TurnProse.tsx), never
 * the pane or the app around it. At 1,000 tokens/s that is a batch every few ms; a render
 * of the app per batch kept the renderer busy most of the time the answer streamed.
 *
 * A turn's prose is its whole lines (`text`, only ever appended to) and after them its tail
 * (the line still arriving, a possible path line: replaced or appended to, see
 * src/shared/edits/prose-tail.ts). A turn's lines end its tail.
 */
import type { AnswerUpdate } from '../../../../shared/ask-types';

/** A turn's prose as shown: its whole lines, then its tail. */
export interface TurnProseText {
  readonly text: string;
  readonly tail: string;
  /** Which conversation on screen it belongs to: the store's count of clears. */
  readonly generation: number;
}

export class ProseStore {
  private readonly turns = new Map<number, TurnProseText>();
  private generation = 0;
  private none: TurnProseText = { text: '', tail: '', generation: 0 };
  private readonly listeners = new Map<number, Set<() => void>>();

  /** What `turn` shows now (a new object after every change: compare by identity). */
  readonly textOf = (turn: number): TurnProseText => this.turns.get(turn) ?? this.none;

  /** Whether `turn` has anything to show but white space. */
  hasText(turn: number): boolean {
    const { text, tail } = this.textOf(turn);
    return !isBlank(tail) || !isBlank(text);
  }

  /** Calls `listener` after each change of `turn`'s prose; returns the unsubscribe function. */
  subscribe(turn: number, listener: () => void): () => void {
    let set = this.listeners.get(turn);
    if (!set) this.listeners.set(turn, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(turn) === set) this.listeners.delete(turn);
    };
  }

  /** Takes a batch's prose (after its lines, its tails, as main's batcher orders them); true if any turn changed. */
  take(update: AnswerUpdate): boolean {
    if (update.full) this.clear();
    const changed = new Set<number>();
    for (const { turn, text } of update.prose ?? []) {
      if (text === '' && this.textOf(turn).tail === '') continue;
      this.turns.set(turn, { text: this.textOf(turn).text + text, tail: '', generation: this.generation });
      changed.add(turn);
    }
    for (const { turn, text, replace } of update.proseTail ?? []) {
      const before = this.textOf(turn);
      const tail = replace ? text : before.tail + text;
      if (tail === before.tail) continue;
      this.turns.set(turn, { text: before.text, tail, generation: this.generation });
      changed.add(turn);
    }
    for (const turn of changed) this.notify(turn);
    return changed.size > 0;
  }

  /** Another conversation goes on screen: its prose comes with it. */
  clear(): void {
    const turns = [...this.turns.keys()];
    this.turns.clear();
    this.generation += 1;
    this.none = { text: '', tail: '', generation: this.generation };
    for (const turn of turns) this.notify(turn);
  }

  private notify(turn: number): void {
    for (const listener of [...(this.listeners.get(turn) ?? [])]) listener();
  }
}

/**
 * What `now` shows after what `shown` showed, when `now` only adds to it (the text arriving
 * since): else null (a tail was taken back, another conversation). Costs the length of the
 * tails and of the text added, never of the whole prose: within a generation a turn's lines
 * are only appended to, so `shown.text` is a prefix of `now.text` whenever it is no longer.
 */
export function arrivingSince(shown: TurnProseText, now: TurnProseText): string | null {
  if (now === shown) return '';
  if (now.generation !== shown.generation || now.text.length < shown.text.length) return null;
  const after = now.text.slice(shown.text.length) + now.tail;
  return after.startsWith(shown.tail) ? after.slice(shown.tail.length) : null;
}

function isBlank(text: string): boolean {
  return text.trim() === '';
}
