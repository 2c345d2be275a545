/**
 * A streaming hunk's new lines and line in progress, told to the renderer as its batches go
 * out rather than as they arrive.
 *
 * A model streams a line in about ten deltas and a hunk in dozens of lines: building an
 * update for each (and a preview for each delta) was most of main's work per token, and all
 * but the last of a batch were thrown away. Here a hunk that grew hands the batcher one
 * builder (see UpdateBatcher.streaming), which it calls once, as the batch goes out: the
 * update then carries the lines that arrived since the hunk's last one and its line in
 * progress as it is then. What the renderer receives is what it did before, one update per
 * hunk and batch.
 */
import type { HunkLine } from '../../shared/edits/edit-types';
import type { HunkUpdate } from '../../shared/edits/hunk-types';
import type { HunkRecord } from './edit-records';

/** Takes a hunk's builder for the next batch (once per batch; later calls only say it is due, `urgent` at once). */
export type StreamingSink = (hunkId: string, build: () => HunkUpdate | null, urgent: boolean) => void;

/** What is known of one streaming hunk's updates. */
interface Streamed {
  hunk: HunkRecord;
  /** Builds its update (handed to the batcher once per batch). */
  build: () => HunkUpdate | null;
  /** The batcher holds its builder for the coming batch: growing more needs telling no one. */
  due: boolean;
  /** Its lines that went out: how many, of which array (lines replaced whole went out whole, with replaceLines). */
  sentLines: HunkLine[] | null;
  sentCount: number;
}

export class StreamedUpdates {
  private readonly streamed = new WeakMap<HunkRecord, Streamed>();
  /** The hunk that grew last: a stream grows one hunk at a time, a few times per delta. */
  private last: Streamed | null = null;

  constructor(
    private readonly sink: StreamingSink,
    /** The update of `hunk` now, with `appendLines` (see hunkUpdateOf). */
    private readonly updateOf: (hunk: HunkRecord, appendLines: HunkLine[]) => HunkUpdate,
  ) {}

  /** `hunk` grew: a line arrived (pushed onto its lines) or its line in progress changed. */
  grew(hunk: HunkRecord, urgent: boolean): void {
    const streamed = this.last?.hunk === hunk ? this.last : this.streamedOf(hunk);
    this.last = streamed;
    // Per delta, mostly this: the batch going out will build it anyway.
    if (streamed.due && !urgent) return;
    streamed.due = true;
    this.sink(hunk.id, streamed.build, urgent);
  }

  /** `hunk` grows no more (complete, or cut off): what is kept of it goes (a builder the batcher holds still sends what is left). */
  forget(hunk: HunkRecord): void {
    this.streamed.delete(hunk);
    if (this.last?.hunk === hunk) this.last = null;
  }

  private streamedOf(hunk: HunkRecord): Streamed {
    let streamed = this.streamed.get(hunk);
    if (!streamed) {
      const created: Streamed = { hunk, build: () => this.build(created), due: false, sentLines: null, sentCount: 0 };
      this.streamed.set(hunk, (streamed = created));
    }
    return streamed;
  }

  /** The lines since the last update, and the line in progress now; null when there is neither. */
  private build(streamed: Streamed): HunkUpdate | null {
    const { hunk } = streamed;
    streamed.due = false;
    const from = streamed.sentLines === null ? 0 : streamed.sentLines === hunk.lines ? streamed.sentCount : hunk.lines.length;
    const appendLines = hunk.lines.slice(from);
    streamed.sentLines = hunk.lines;
    streamed.sentCount = hunk.lines.length;
    const previewing = hunk.partial !== undefined && hunk.state === 'streaming';
    return appendLines.length > 0 || previewing ? this.updateOf(hunk, appendLines) : null;
  }
}
