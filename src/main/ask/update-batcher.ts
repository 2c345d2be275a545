/**
 * Batches an answer's changes for the renderer, paced by how fast it takes them.
 *
 * A batch goes out as soon as the renderer has taken the previous one; while it is busy,
 * changes pile up into one batch. The renderer acknowledges a batch it rendered at once
 * (its text is in the DOM: prose that came meanwhile can still make the frame), a batch of
 * lines only at its next frame — so a stream of prose may bring several renders to a
 * frame, never more than the renderer can take. A hunk's first line goes out at once: it
 * is what the user waits to see, and new hunks are rare next to lines. Without acknowledgements (no
 * renderer, a hidden window) batches still go out every `ackTimeoutMs`. A streaming hunk's
 * lines and line in progress change with every delta: they are built once per batch, as
 * it goes out (`streaming`).
 */
import type { HunkUpdate } from '../../shared/edits/hunk-types';
import type { AnswerStatus, AnswerUpdate, OutputRate, TurnFields } from '../../shared/ask-types';
import type { StreamSink } from '../inference/model-stream';
import type { Disposable } from '../lifecycle';
import { meteredSink } from './output-meter';

export class UpdateBatcher implements Disposable {
  private pending: AnswerUpdate;
  /** Where each hunk of the pending batch is in its list. */
  private readonly pendingIndex = new Map<string, number>();
  /** Streaming hunks that grew since the last batch: each one's update is built as the batch goes out. */
  private readonly streamed = new Map<string, () => HunkUpdate | null>();
  private timer: NodeJS.Timeout | null = null;
  /** The pending flush is an immediate one (a hunk's first line). */
  private immediate = false;
  /** A batch went out and the renderer has not shown it yet. */
  private awaitingAck = false;
  private disposed = false;

  constructor(
    private readonly sessionId: string,
    private readonly emit: (update: AnswerUpdate) => void,
    private readonly ackTimeoutMs = 100,
  ) {
    this.pending = { sessionId, hunks: [] };
  }

  /**
   * Records a hunk's latest state; `appendLines` add to what the batch already carries, and
   * `replaceLines` (all its lines, revised) replace it — the batch keeps them until sent.
   */
  hunk(update: HunkUpdate, urgent: boolean): void {
    this.merge(update);
    this.schedule(urgent);
  }

  /**
   * A streaming hunk grew (a line arrived, its line in progress changed: with every delta).
   * `build` makes its update once, as the batch goes out (null: nothing to send by then), so
   * nothing is built per delta (see src/main/edits/streamed-updates.ts).
   */
  streaming(hunkId: string, build: () => HunkUpdate | null, urgent: boolean): void {
    if (!this.streamed.has(hunkId)) this.streamed.set(hunkId, build);
    this.schedule(urgent);
  }

  /** Puts `update` in the pending batch, merged with what it has of the hunk. */
  private merge(update: HunkUpdate): void {
    // By id, not by search: an Accept all of a thousand hunks changes them all in one batch.
    const index = this.pendingIndex.get(update.id);
    if (index === undefined) {
      this.pendingIndex.set(update.id, this.pending.hunks.length);
      this.pending.hunks.push({ ...update, appendLines: [...update.appendLines] });
    } else if (update.replaceLines !== undefined) {
      // Lines sent before the replacement are part of what it replaces.
      this.pending.hunks[index] = { ...update, appendLines: [...update.appendLines] };
    } else {
      // Lines are appended in place: this runs per streamed line, so no copying of the batch.
      const { appendLines: lines, replaceLines } = this.pending.hunks[index]!;
      lines.push(...update.appendLines);
      this.pending.hunks[index] = { ...update, appendLines: lines, ...(replaceLines !== undefined ? { replaceLines } : {}) };
    }
  }

  /** The streaming hunks that grew join the batch going out, each built now (as it is now). */
  private takeStreamed(): void {
    for (const build of this.streamed.values()) {
      const update = build();
      if (update !== null) this.merge(update);
    }
    this.streamed.clear();
  }

  /** Prose lines for `turn`, joined to the batch's last piece when that is the same turn's. They end the turn's tail (the renderer clears it). */
  prose(turn: number, text: string): void {
    const pieces = (this.pending.prose ??= []);
    const last = pieces.at(-1);
    if (last?.turn === turn) last.text += text;
    else pieces.push({ turn, text });
    // The renderer ends the turn's tail at its lines: what the batch had of it is theirs now.
    if (this.pending.proseTail) this.pending.proseTail = this.pending.proseTail.filter((tail) => tail.turn !== turn);
    this.schedule(false);
  }

  /** The prose `turn` shows after its lines (set with `replace`, else appended): one entry per turn and batch. */
  proseTail(turn: number, text: string, replace: boolean): void {
    const tail = this.tailOf(turn);
    if (replace) {
      tail.replace = true;
      tail.text = text;
    } else tail.text += text;
    this.schedule(false);
  }

  private tailOf(turn: number): { turn: number; text: string; replace: boolean } {
    const tails = (this.pending.proseTail ??= []);
    let tail = tails.find((entry) => entry.turn === turn);
    if (!tail) tails.push((tail = { turn, text: '', replace: false }));
    return tail;
  }

  /** A turn's fields changed (its status, when it took effect…): the batch carries its latest. */
  turn(meta: TurnFields): void {
    const turns = (this.pending.turns ??= []);
    const index = turns.findIndex((turn) => turn.index === meta.index);
    if (index === -1) turns.push({ ...meta });
    else turns[index] = { ...meta };
    this.schedule(false);
  }

  /** The streaming turn's output rate: the batch carries the latest. */
  rate(rate: OutputRate): void {
    this.pending.rate = rate;
    this.schedule(false);
  }

  /** Wraps `turn`'s stream sink so that its output rate goes out with the batches (output-meter.ts). */
  metered(turn: number, sink: StreamSink): StreamSink {
    return meteredSink(sink, (rate) => this.rate({ turn, ...rate }));
  }

  problem(message: string): void {
    (this.pending.problems ??= []).push(message);
    this.schedule(false);
  }

  status(status: AnswerStatus, message?: string): void {
    this.pending.status = status;
    // A status brings its own message or none: a batch never pairs 'complete' with an earlier failure's words.
    if (message !== undefined) this.pending.message = message;
    else delete this.pending.message;
    this.schedule(false);
  }

  /** The renderer has shown the last batch: the next can go at once. */
  acknowledge(): void {
    this.awaitingAck = false;
    if (this.timer && !this.immediate) this.flush();
  }

  /** Sends what changed since the last batch. */
  flush(): void {
    this.cancel();
    this.immediate = false;
    if (this.streamed.size > 0) this.takeStreamed();
    const update = this.pending;
    this.pending = { sessionId: this.sessionId, hunks: [] };
    this.pendingIndex.clear();
    if (update.hunks.length > 0 || update.status !== undefined || update.prose !== undefined || update.proseTail !== undefined || update.problems !== undefined || update.turns !== undefined || update.rate !== undefined) {
      this.awaitingAck = true;
      this.emit(update);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.streamed.clear();
    this.cancel();
  }

  private schedule(urgent: boolean): void {
    if (this.disposed) return;
    if (urgent && !this.immediate) {
      this.cancel();
      this.immediate = true;
      // Once this tick's work is done (the rest of the delta joins), ahead of I/O callbacks
      // and promise continuations: a setImmediate waited for other sockets' data and for the
      // previous hunk's anchoring, which its completion starts in the same delta.
      process.nextTick(() => this.immediate && !this.disposed && this.flush());
      return;
    }
    if (this.timer) return;
    // Waiting for the renderer: a fallback timer; otherwise let the rest of this delta join.
    this.timer = this.awaitingAck ? setTimeout(() => this.flush(), this.ackTimeoutMs) : (setImmediate(() => this.flush()) as unknown as NodeJS.Timeout);
  }

  private cancel(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    clearImmediate(this.timer as unknown as NodeJS.Immediate);
    this.timer = null;
  }
}
