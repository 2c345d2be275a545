/**
 * Batches an answer's changes for the renderer, paced by its frames.
 *
 * A batch goes out as soon as the renderer has taken the previous one (it acknowledges
 * after its frame); while it is busy, changes pile up into one batch. A hunk's first
 * line goes out at once: it is what the user waits to see, and new hunks are rare next
 * to lines, so this stays near one message per frame. Without acknowledgements (no
 * renderer, a hidden window) batches still go out every `ackTimeoutMs`.
 */
import type { HunkUpdate } from '../../shared/edits/hunk-types';
import type { AnswerStatus, AnswerUpdate, OutputRate, TurnView } from '../../shared/ask-types';
import type { StreamSink } from '../inference/model-stream';
import type { Disposable } from '../lifecycle';
import { meteredSink } from './output-meter';

export class UpdateBatcher implements Disposable {
  private pending: AnswerUpdate;
  /** Where each hunk of the pending batch is in its list. */
  private readonly pendingIndex = new Map<string, number>();
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
    this.schedule(urgent);
  }

  /** Prose for `turn`, joined to the batch's last piece when that is the same turn's. */
  prose(turn: number, text: string): void {
    const pieces = (this.pending.prose ??= []);
    const last = pieces.at(-1);
    if (last?.turn === turn) last.text += text;
    else pieces.push({ turn, text });
    this.schedule(false);
  }

  /** A turn's fields changed (its status, when it took effect…): the batch carries its latest. */
  turn(meta: Omit<TurnView, 'prose'>): void {
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
    const update = this.pending;
    this.pending = { sessionId: this.sessionId, hunks: [] };
    this.pendingIndex.clear();
    if (update.hunks.length > 0 || update.status !== undefined || update.prose !== undefined || update.problems !== undefined || update.turns !== undefined || update.rate !== undefined) {
      this.awaitingAck = true;
      this.emit(update);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
  }

  private schedule(urgent: boolean): void {
    if (this.disposed) return;
    if (urgent && !this.immediate) {
      this.cancel();
      this.immediate = true;
      this.timer = setImmediate(() => this.flush()) as unknown as NodeJS.Timeout;
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
