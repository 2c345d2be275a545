/**
 * One edit session: a model's streamed answer turned into hunks the user decides on,
 * while it is still streaming.
 *
 * Parser events become hunk records; a complete hunk is planned against the file (the
 * text it was proposed against, merged 3-way with anything the user saved since) and
 * becomes decidable. Updates reach the UI through an UpdateBatcher, paced by its frames.
 */
import type { AskFocus } from '../../shared/ask-types';
import type { AnswerDepth } from '../../shared/inference-types';
import { EditStreamParser } from '../../shared/edits/edit-stream-parser';
import type { EditEvent, HunkLine } from '../../shared/edits/edit-types';
import type { HunkState } from '../../shared/edits/hunk-types';
import type { AnswerStatus, AnswerUpdate } from '../../shared/ask-types';
import { UpdateBatcher } from './update-batcher';
import { FlintFailure } from '../../shared/result';
import type { Disposable } from '../lifecycle';
import type { Logger } from '../logger';
import type { ModelStream, StreamSink } from '../inference/model-stream';
import { planHunk, type ApplyResult, type EditApplier } from './edit-applier';
import { applyInput, applyRecord, contentRefusal, settleAgainst } from './hunk-kinds';
import type { FileText } from './file-text';
import { hunkUpdateOf, UNDECIDED, type FileRecord, type HunkRecord } from './edit-records';
import { lexicalRefusal, shownPath } from './model-path';

/** One turn's prompt: the stable instructions (project, files) and the turn itself. */
export interface SessionTurn {
  instructions: string;
  input: string;
}

/** Opens the model stream for one turn (the inference service, in the app). */
export type OpenStream = (turn: SessionTurn, sink: StreamSink, keypressEpochMs?: number) => Promise<ModelStream>;
/** Reads a project file's current text (null if it does not exist). */
export type ReadText = (path: string) => Promise<FileText | null>;

export interface EditSessionOptions {
  sessionId: string;
  applier: EditApplier;
  openStream: OpenStream;
  readText: ReadText;
  emit: (update: AnswerUpdate) => void;
  logger: Logger;
  /** What the question was about, and which model: a redirect keeps both. */
  focus: AskFocus;
  depth: AnswerDepth;
  /** Without an acknowledgement from the renderer, batches go out this often. */
  ackTimeoutMs?: number;
}

export class EditSession implements Disposable {
  private readonly files: FileRecord[] = [];
  private readonly hunks = new Map<string, HunkRecord>();
  /** Hunk order in the UI; ids are `${turn}.${hunkIndex}`. */
  private readonly order: string[] = [];
  private turn = 0;
  private stream: ModelStream | null = null;
  /** The turn the user stopped (a stop can come before the turn's stream has opened). */
  private stoppedTurn = 0;
  private status: AnswerStatus = 'streaming';
  private readonly batcher: UpdateBatcher;
  private disposed = false;
  /** Base texts read for this session, by path (the text hunks were proposed against). */
  private readonly bases = new Map<string, Promise<FileText | null>>();
  /** The files the user asked about (not those the model went on to name). */
  private readonly askedPaths: string[] = [];

  constructor(private readonly options: EditSessionOptions) {
    this.batcher = new UpdateBatcher(options.sessionId, options.emit, options.ackTimeoutMs);
  }

  /**
   * Starts a turn: `turn` is the assembled prompt (files + request), and `shown` the
   * texts of the files in it. Hunks for those files are anchored against what the model
   * saw, so a save made while it writes is merged 3-way (or reported as a conflict).
   */
  async start(prompt: SessionTurn, shown: ReadonlyMap<string, FileText>, keypressEpochMs?: number): Promise<void> {
    for (const [path, text] of shown) this.bases.set(path, Promise.resolve(text));
    if (this.askedPaths.length === 0) this.askedPaths.push(...shown.keys());
    // Each turn's parser carries its own turn and file offset: a superseded turn's late
    // events can never land in the new turn's hunks.
    const turn = ++this.turn;
    const fileOffset = this.files.length;
    const parser = new EditStreamParser((event) => this.onEvent(event, turn, fileOffset));
    this.setStatus('streaming');
    let stream: ModelStream;
    try {
      stream = await this.options.openStream(
        prompt,
        {
          onDelta: (_kind, text) => parser.push(text),
          onEnd: (end) => {
            parser.finish(end.outcome !== 'completed');
            if (turn !== this.turn) return;
            if (end.outcome === 'completed') this.setStatus('complete');
            else if (end.outcome === 'cancelled') this.setStatus('stopped');
            else this.setStatus('failed', end.message);
          },
        },
        keypressEpochMs,
      );
    } catch (error) {
      if (turn === this.turn) this.setStatus('failed', error instanceof Error ? error.message : String(error));
      throw error;
    }
    // Stopped (or redirected) while the stream was still opening: stop it now.
    if (turn !== this.turn || this.stoppedTurn === turn) {
      stream.cancel();
      return;
    }
    this.stream = stream;
  }

  /** Stops the stream at once; complete hunks stay decidable, a streaming one becomes partial. */
  stop(): void {
    this.stoppedTurn = this.turn;
    this.stream?.cancel();
  }

  get isStreaming(): boolean {
    return this.status === 'streaming';
  }

  get focus(): AskFocus {
    return this.options.focus;
  }

  /** The files the first turn was about: a redirect asks about the same ones. */
  get paths(): string[] {
    return [...this.askedPaths];
  }

  get depth(): AnswerDepth {
    return this.options.depth;
  }

  /** A summary of decisions so far, for a redirect's next turn. */
  decisions(): { accepted: string[]; rejected: string[] } {
    const describe = (hunk: HunkRecord): string => `${this.files[hunk.fileIndex]!.path}${hunk.anchorLine ? ` near line ${hunk.anchorLine}` : ''}`;
    const all = this.order.map((id) => this.hunks.get(id)!);
    return { accepted: all.filter((hunk) => hunk.state === 'accepted').map(describe), rejected: all.filter((hunk) => hunk.state === 'rejected').map(describe) };
  }

  async accept(hunkId: string): Promise<HunkState> {
    const hunk = this.require(hunkId);
    if (hunk.state !== 'pending') throw new FlintFailure('invalid-input', `This hunk is ${hunk.state}; only a complete, anchored hunk can be accepted.`);
    const file = this.files[hunk.fileIndex]!;
    this.update(hunk, { state: 'applying' });
    let result: ApplyResult & { written?: FileText };
    try {
      result = await applyRecord(this.options.applier, hunk, file);
    } catch (error) {
      this.options.logger.error('applying a hunk failed', error);
      this.update(hunk, { state: 'pending', message: `Could not write ${file.path}: ${error instanceof Error ? error.message : String(error)}` });
      return hunk.state;
    }
    if (result.status !== 'applied') {
      this.update(hunk, { state: result.status, message: result.message });
      if (hunk.kind === 'move' && result.status === 'refused') this.refuseSection(hunk.fileIndex, result.message);
      return hunk.state;
    }
    if (result.entry) hunk.journalEntryId = result.entry.id;
    this.update(hunk, { state: 'accepted', message: result.merged ? 'Merged around your edits.' : undefined });
    if (result.written) this.rebaseSiblings(hunk, file, result.written);
    return hunk.state;
  }

  reject(hunkId: string): HunkState {
    const hunk = this.require(hunkId);
    if (hunk.state === 'accepted' || hunk.state === 'applying') throw new FlintFailure('invalid-input', 'This hunk is already written; use Undo instead.');
    if (hunk.state === 'streaming') throw new FlintFailure('invalid-input', 'This hunk is still streaming; Stop first, or wait for it.');
    this.update(hunk, { state: 'rejected' });
    return hunk.state;
  }

  /** Accepts every pending hunk, in order; returns how many were written. */
  async acceptAll(): Promise<number> {
    let accepted = 0;
    for (const id of [...this.order]) {
      if (this.hunks.get(id)!.state === 'pending' && (await this.accept(id)) === 'accepted') accepted += 1;
    }
    return accepted;
  }

  rejectAll(): number {
    let rejected = 0;
    for (const id of this.order) {
      const state = this.hunks.get(id)!.state;
      if (state === 'pending' || state === 'partial' || state === 'unmatched' || state === 'conflict') {
        this.reject(id);
        rejected += 1;
      }
    }
    return rejected;
  }

  /**
   * After Flint wrote `file`, its other hunks are re-planned on exactly what was written,
   * when they still anchor there: no false 3-way conflicts between neighbouring hunks of
   * one answer, and untouched lines keep their own line endings.
   */
  private rebaseSiblings(accepted: HunkRecord, file: FileRecord, written: FileText): void {
    const text = written.lines.join('\n');
    for (const id of this.order) {
      const hunk = this.hunks.get(id)!;
      if (hunk === accepted || hunk.kind !== 'update' || this.files[hunk.fileIndex] !== file) continue;
      if (hunk.state !== 'pending' && hunk.state !== 'conflict') continue;
      const plan = planHunk(written, { ...applyInput(hunk, file), baseText: null }, file.path);
      if (plan.status !== 'planned') continue;
      hunk.baseText = text;
      this.update(hunk, { state: 'pending', anchorLine: plan.anchorLine });
    }
  }

  /** Whether a save of `path` could change any hunk here (so the file is worth reading). */
  caresAbout(path: string): boolean {
    for (const hunk of this.hunks.values()) {
      if (hunk.kind === 'update' && (hunk.state === 'pending' || hunk.state === 'conflict') && this.files[hunk.fileIndex]!.path === path) return true;
    }
    return false;
  }

  /** The user (or another program) saved `path`: re-plan its pending hunks on the new text. */
  noteFileChanged(path: string, current: FileText | null): void {
    for (const id of this.order) {
      const hunk = this.hunks.get(id)!;
      const file = this.files[hunk.fileIndex]!;
      // Conflicts are re-planned too: the user may have put the lines back.
      if ((hunk.state !== 'pending' && hunk.state !== 'conflict') || file.path !== path || hunk.kind !== 'update') continue;
      if (current === null) {
        this.update(hunk, { state: 'conflict', message: `${path} was deleted.` });
        continue;
      }
      const plan = planHunk(current, applyInput(hunk, file), path);
      if (plan.status === 'planned') this.update(hunk, { state: 'pending', anchorLine: plan.anchorLine });
      else this.update(hunk, { state: plan.status, message: plan.message });
    }
  }

  /**
   * Undo or redo touched a journal entry: the hunk that wrote it shows what is on disk
   * again (undone: decidable once more; redone: accepted).
   */
  noteJournalChange(entryId: string, undone: boolean): void {
    const hunk = [...this.hunks.values()].find((candidate) => candidate.journalEntryId === entryId);
    if (!hunk) return;
    if (undone) this.update(hunk, { state: 'pending', message: 'Undone; you can accept it again.' });
    else this.update(hunk, { state: 'accepted', message: 'Redone.' });
  }

  /** The renderer has shown the last update. */
  acknowledge(): void {
    this.batcher.acknowledge();
  }

  /** Sends pending changes now (tests, benches). */
  flush(): void {
    this.batcher.flush();
  }

  dispose(): void {
    this.disposed = true;
    this.stream?.cancel();
    this.batcher.dispose();
  }

  private onEvent(event: EditEvent, turn: number, fileOffset: number): void {
    switch (event.type) {
      case 'prose':
        return this.batcher.prose(`${event.text}\n`);
      case 'file': {
        // A refused path is only ever shown: shortened, a huge one cannot ride along with every update.
        const refusal = lexicalRefusal(event.path);
        const path = refusal === null ? event.path : shownPath(event.path);
        this.files[fileOffset + event.fileIndex] = { operation: event.operation, path, ...(refusal !== null ? { refusal } : {}) };
        if (event.operation === 'delete') {
          void this.settle(this.createHunk(`${turn}.delete.${event.fileIndex}`, 'delete', fileOffset + event.fileIndex, []));
        }
        return;
      }
      case 'move': {
        const refusal = lexicalRefusal(event.to);
        this.files[fileOffset + event.fileIndex]!.moveTo = refusal === null ? event.to : shownPath(event.to);
        if (refusal !== null) this.refuseSection(fileOffset + event.fileIndex, refusal);
        void this.settle(this.createHunk(`${turn}.move.${event.fileIndex}`, 'move', fileOffset + event.fileIndex, []));
        return;
      }
      case 'hunk-open': {
        const file = this.files[fileOffset + event.fileIndex]!;
        this.createHunk(`${turn}.${event.hunkIndex}`, file.operation, fileOffset + event.fileIndex, event.contextHints);
        return;
      }
      case 'hunk-line': {
        const hunk = this.hunks.get(`${turn}.${event.hunkIndex}`)!;
        hunk.firstLineAtEpochMs ??= performance.timeOrigin + performance.now();
        hunk.lines.push(event.line);
        this.update(hunk, {}, [event.line]);
        return;
      }
      case 'hunk-at-end':
        this.hunks.get(`${turn}.${event.hunkIndex}`)!.atEndOfFile = true;
        return;
      case 'hunk-complete': {
        const hunk = this.hunks.get(`${turn}.${event.hunkIndex}`)!;
        // Marked now, though settling is async: 'done' may arrive before it finishes.
        hunk.complete = true;
        void this.settle(hunk);
        return;
      }
      case 'problem':
        return this.batcher.problem(event.message);
      case 'done':
        for (const id of this.order) {
          const hunk = this.hunks.get(id)!;
          if (hunk.state === 'streaming' && !hunk.complete && id.startsWith(`${turn}.`)) {
            this.update(hunk, { state: 'partial', message: 'Cut off before it was complete; it can only be discarded.' });
          }
        }
        return;
      default: {
        const exhaustive: never = event;
        return exhaustive;
      }
    }
  }

  private createHunk(id: string, kind: HunkRecord['kind'], fileIndex: number, contextHints: string[]): HunkRecord {
    const hunk: HunkRecord = { id, kind, fileIndex, complete: kind === 'delete' || kind === 'move', state: 'streaming', lines: [], contextHints, atEndOfFile: false, anchorLine: null, baseText: null };
    this.hunks.set(id, hunk);
    this.order.push(id);
    this.update(hunk, {});
    return hunk;
  }

  /** A hunk completed: check its path and text, then plan it against its file. */
  private async settle(hunk: HunkRecord): Promise<void> {
    const file = this.files[hunk.fileIndex]!;
    const refusal = file.refusal ?? contentRefusal(hunk);
    if (refusal !== null) return this.update(hunk, { state: 'refused', message: refusal });
    if (hunk.lines.length === 0 && (hunk.kind === 'update' || hunk.kind === 'add')) {
      return this.update(hunk, { state: 'unmatched', message: 'An empty hunk has nothing to apply.' });
    }
    try {
      const base = await this.baseOf(file.path);
      const destinationExists = hunk.kind === 'move' && (await this.baseOf(file.moveTo!)) !== null;
      if (this.disposed) return;
      // The section may have been refused while its file was read (its move was).
      if (file.refusal) return this.update(hunk, { state: 'refused', message: file.refusal });
      if (hunk.kind === 'update' && base !== null) hunk.baseText = base.lines.join('\n');
      return this.update(hunk, settleAgainst(hunk, file, base, destinationExists));
    } catch (error) {
      const message = error instanceof FlintFailure ? error.message : `Could not read ${file.path}.`;
      const refused = error instanceof FlintFailure && error.code === 'outside-project';
      this.update(hunk, { state: refused ? 'refused' : 'unmatched', message });
      if (refused && hunk.kind === 'move') this.refuseSection(hunk.fileIndex, message);
    }
  }

  /**
   * A refused move refuses its whole file section: the section's hunks were written for
   * the moved file, and applying them at the old path is not what the model proposed.
   * Hunks still streaming are refused when they settle; written ones stay written.
   */
  private refuseSection(fileIndex: number, reason: string): void {
    const file = this.files[fileIndex]!;
    file.refusal ??= `${reason} The file's whole section is refused with its move.`;
    for (const id of this.order) {
      const hunk = this.hunks.get(id)!;
      if (hunk.fileIndex !== fileIndex || !UNDECIDED.has(hunk.state)) continue;
      this.update(hunk, { state: 'refused', message: file.refusal });
    }
  }

  private baseOf(path: string): Promise<FileText | null> {
    let base = this.bases.get(path);
    if (!base) this.bases.set(path, (base = this.options.readText(path)));
    return base;
  }

  private require(hunkId: string): HunkRecord {
    const hunk = this.hunks.get(hunkId);
    if (!hunk) throw new FlintFailure('not-found', 'That hunk is not part of this edit session.');
    return hunk;
  }

  private update(hunk: HunkRecord, change: Partial<Pick<HunkRecord, 'state' | 'anchorLine' | 'message'>>, appendLines: HunkLine[] = []): void {
    if (change.state !== undefined) hunk.state = change.state;
    // A new state brings its own message, or none: never the previous state's.
    if (change.state !== undefined && !('message' in change)) hunk.message = undefined;
    if (change.anchorLine !== undefined) hunk.anchorLine = change.anchorLine;
    if ('message' in change) hunk.message = change.message;
    // A hunk's first line is urgent: see UpdateBatcher.
    this.batcher.hunk(hunkUpdateOf(hunk, this.files[hunk.fileIndex]!, appendLines), appendLines.length > 0 && hunk.lines.length === appendLines.length);
  }

  private setStatus(status: AnswerStatus, message?: string): void {
    this.status = status;
    this.batcher.status(status, message);
  }
}
