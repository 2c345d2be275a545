/**
 * One answer: the conversation's side of a question and its redirects. Owns the turns —
 * the stream each opens, the parser that reads it, the answer's status and prose, stop
 * and redirect — and hands the file and hunk events down to its HunkBoard (src/main/edits),
 * which owns the hunks and the decisions on them.
 *
 * Updates reach the UI through an UpdateBatcher, paced by the renderer's frames.
 */
import type { AnswerStatus, AnswerUpdate, AskFocus } from '../../shared/ask-types';
import { EditStreamParser } from '../../shared/edits/edit-stream-parser';
import type { AnswerDepth } from '../../shared/inference-types';
import type { HunkBoard, HunkBoardOptions } from '../edits/hunk-board';
import type { FileText } from '../fs/file-text';
import type { ModelStream, StreamSink } from '../inference/model-stream';
import { FlintFailure } from '../../shared/result';
import type { Disposable } from '../lifecycle';
import type { BuiltPrompt } from './prompt-builder';
import { UpdateBatcher } from './update-batcher';

/** Opens the model stream for one turn (the inference service, in the app). */
export type OpenStream = (turn: BuiltPrompt, sink: StreamSink, keypressEpochMs?: number) => Promise<ModelStream>;

export interface AnswerSessionOptions {
  sessionId: string;
  openStream: OpenStream;
  /** The board the answer's hunks live on (the open project's edits, in the app). */
  openBoard: (report: HunkBoardOptions['report']) => HunkBoard;
  emit: (update: AnswerUpdate) => void;
  /** What the question was about, and which model: a redirect keeps both. */
  focus: AskFocus;
  depth: AnswerDepth;
  /** Without an acknowledgement from the renderer, batches go out this often. */
  ackTimeoutMs?: number;
}

export class AnswerSession implements Disposable {
  /** The answer's hunks and the decisions on them. */
  readonly hunks: HunkBoard;
  private turn = 0;
  private stream: ModelStream | null = null;
  /** The turn the user stopped (a stop can come before the turn's stream has opened). */
  private stoppedTurn = 0;
  private status: AnswerStatus = 'streaming';
  private readonly batcher: UpdateBatcher;
  /** The files the user asked about (not those the model went on to name). */
  private readonly askedPaths: string[] = [];
  private disposed = false;

  constructor(private readonly options: AnswerSessionOptions) {
    this.batcher = new UpdateBatcher(options.sessionId, options.emit, options.ackTimeoutMs);
    this.hunks = options.openBoard((update, urgent) => this.batcher.hunk(update, urgent));
  }

  get id(): string {
    return this.options.sessionId;
  }

  get isStreaming(): boolean {
    return this.status === 'streaming';
  }

  get focus(): AskFocus {
    return this.options.focus;
  }

  get depth(): AnswerDepth {
    return this.options.depth;
  }

  /** The files the first turn was about: a redirect asks about the same ones. */
  get paths(): string[] {
    return [...this.askedPaths];
  }

  /**
   * Starts a turn: `prompt` is the assembled prompt and `shown` the texts of the files in
   * it. Hunks for those files anchor against what the model saw, so a save made while it
   * writes is merged 3-way (or reported as a conflict).
   */
  async start(prompt: BuiltPrompt, shown: ReadonlyMap<string, FileText>, keypressEpochMs?: number): Promise<void> {
    if (this.disposed) throw new FlintFailure('not-found', 'That answer is over (the project was closed or reopened).');
    this.hunks.noteShown(shown);
    if (this.askedPaths.length === 0) this.askedPaths.push(...shown.keys());
    const turn = ++this.turn;
    const toBoard = this.hunks.beginTurn(turn);
    const parser = new EditStreamParser(
      (event) => {
        if (event.type === 'prose') this.batcher.prose(`${event.text}\n`);
        else if (event.type === 'problem') this.batcher.problem(event.message);
        else toBoard(event);
      },
      // A search/replace path line is first of all a file the project has.
      { isProjectPath: (candidate) => this.hunks.namesProjectFile(candidate) },
    );
    this.setStatus('streaming');
    let stream: ModelStream;
    try {
      stream = await this.options.openStream(prompt, this.sinkFor(turn, parser), keypressEpochMs);
    } catch (error) {
      if (turn === this.turn) this.setStatus('failed', error instanceof Error ? error.message : String(error));
      throw error;
    }
    // Stopped, redirected or let go while the stream was still opening: stop it now.
    if (this.disposed || turn !== this.turn || this.stoppedTurn === turn) {
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
    this.hunks.dispose();
    this.batcher.dispose();
  }

  private sinkFor(turn: number, parser: EditStreamParser): StreamSink {
    return {
      onDelta: (text) => parser.push(text),
      onEnd: (end) => {
        parser.finish(end.outcome !== 'completed');
        // A superseded turn's ending says nothing about the answer now.
        if (turn !== this.turn) return;
        if (end.outcome === 'completed') this.setStatus('complete');
        else if (end.outcome === 'cancelled') this.setStatus('stopped');
        else this.setStatus('failed', end.message);
      },
    };
  }

  private setStatus(status: AnswerStatus, message?: string): void {
    this.status = status;
    this.batcher.status(status, message);
  }
}
