/**
 * Where a turn's parsed answer goes: its prose lines to the turn (kept) and to the
 * renderer, the prose tail still being decided (screen only, see prose-tail.ts) to the
 * renderer and here for a renderer that reloads, hunk events to the board, problems to
 * the conversation.
 */
import type { TurnView } from '../../shared/ask-types';
import { EditStreamParser } from '../../shared/edits/edit-stream-parser';
import type { HunkStreamEvent } from '../../shared/edits/edit-types';
import type { UpdateBatcher } from './update-batcher';

export interface TurnOutputSinks {
  toBoard: (event: HunkStreamEvent) => void;
  problem: (message: string) => void;
  /** Whether a path line names a file of the project (an existing file wins). */
  isProjectPath: (candidate: string) => boolean;
}

export class TurnOutput {
  /** The tail each turn shows now (absent: none). */
  private readonly tails = new Map<number, string>();

  constructor(private readonly batcher: UpdateBatcher) {}

  /** A parser for `turn` whose events go where they belong. */
  parser(turn: TurnView, sinks: TurnOutputSinks): EditStreamParser {
    return new EditStreamParser(
      (event) => {
        if (event.type === 'prose') this.prose(turn, `${event.text}\n`);
        else if (event.type === 'prose-partial') this.tail(turn.index, event.text, event.replace);
        else if (event.type === 'problem') sinks.problem(event.message);
        else sinks.toBoard(event);
      },
      // The clock dates a hunk's first byte (its paint is timed from it).
      { isProjectPath: sinks.isProjectPath, now: () => performance.timeOrigin + performance.now() },
    );
  }

  /** Every turn's tail now, for a full update. */
  tailsNow(): { turn: number; text: string; replace: boolean }[] {
    return [...this.tails].map(([turn, text]) => ({ turn, text, replace: true }));
  }

  private prose(turn: TurnView, text: string): void {
    turn.prose += text;
    this.tails.delete(turn.index);
    this.batcher.prose(turn.index, text);
  }

  private tail(turn: number, text: string, replace: boolean): void {
    const next = replace ? text : (this.tails.get(turn) ?? '') + text;
    if (next === '') this.tails.delete(turn);
    else this.tails.set(turn, next);
    this.batcher.proseTail(turn, text, replace);
  }
}
