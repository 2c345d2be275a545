/**
 * The unfinished last line of a stream, kept until its newline arrives.
 *
 * Pieces are joined a thousand at a time as they come: a 5 MB line in 16-character deltas
 * is then a few hundred chunks when its newline arrives, not 300,000 pieces joined inside
 * one delta's task (which blocked main for longer than a frame).
 */

import { countWork } from '../work-meter';

/** How many pieces are joined into one chunk. */
const PIECES_PER_CHUNK = 1024;
/** How much of the line `head` keeps (a preview on screen needs no more). */
export const HEAD_CHARACTERS = 512;

export class UnfinishedLine {
  /** What came past the head: joined chunks, then pieces. */
  private chunks: string[] = [];
  private pieces: string[] = [];
  /** The line's first HEAD_CHARACTERS characters so far: cheap to read however long it grows (most lines are all head). */
  head = '';

  get isEmpty(): boolean {
    return this.head === '' && this.pieces.length === 0 && this.chunks.length === 0;
  }

  add(piece: string): void {
    countWork(piece.length);
    const room = HEAD_CHARACTERS - this.head.length;
    if (piece.length <= room) {
      this.head += piece;
      return;
    }
    if (room > 0) {
      this.head += piece.slice(0, room);
      piece = piece.slice(room);
    }
    this.pieces.push(piece);
    if (this.pieces.length === PIECES_PER_CHUNK) {
      this.chunks.push(this.pieces.join(''));
      this.pieces = [];
    }
  }

  /** The line so far, which is forgotten. */
  take(): string {
    const text = this.head + (this.chunks.length === 0 ? this.pieces.join('') : this.chunks.join('') + this.pieces.join(''));
    countWork(text.length + this.chunks.length + this.pieces.length);
    this.chunks = [];
    this.pieces = [];
    this.head = '';
    return text;
  }
}
