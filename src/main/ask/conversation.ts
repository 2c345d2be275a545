/**
 * One conversation: its turns — the user's words, the model's prose, status and name,
 * when each took effect — the streams they open, and the board its hunks live on
 * (src/main/edits owns the hunks and the decisions on them). Knows nothing of prompts
 * or projects: the AnswerService builds each turn's prompt and calls `open`.
 *
 * Updates reach the UI through an UpdateBatcher, paced by the renderer's frames.
 */
import type { AnswerUpdate, ConversationSummary, QuestionFocus, TurnFailure, TurnKind, TurnView } from '../../shared/ask-types';
import type { EditStreamParser } from '../../shared/edits/edit-stream-parser';
import type { AnswerDepth } from '../../shared/inference-types';
import { FlintFailure } from '../../shared/result';
import type { HunkBoard, HunkBoardOptions } from '../edits/hunk-board';
import type { FileText } from '../fs/file-text';
import type { ConversationMessage, ModelStream, StreamFailure, StreamSink } from '../inference/model-stream';
import type { Disposable } from '../lifecycle';
import { conversationTitle, restoredTurns, type ConversationRecord } from './conversation-record';
import { answerStatusOf, failureOf, fullUpdateOf, latestSent } from './turn-views';
import type { BuiltPrompt } from './prompt-builder';
import { nextTurnStatus, type TurnEvent } from './turn-state';
import { TurnOutput } from './turn-output';
import { UpdateBatcher } from './update-batcher';

/** Opens the model stream for one turn (the inference service, in the app). */
export type OpenStream = (turn: BuiltPrompt & { history?: readonly ConversationMessage[] }, depth: AnswerDepth, sink: StreamSink, keypressEpochMs?: number) => Promise<ModelStream>;

/** The problems (notes about the model's output) a conversation keeps. */
const MAX_PROBLEMS = 200;

export interface ConversationOptions {
  id: string;
  openStream: OpenStream;
  /** The board the hunks live on (the open project's edits, in the app); `streaming` takes streaming hunks' lines, built as their batch goes out. */
  openBoard: (report: HunkBoardOptions['report'], streaming: NonNullable<HunkBoardOptions['streaming']>) => HunkBoard;
  emit: (update: AnswerUpdate) => void;
  /** What the question was about (the lines selected, with that focus): every turn keeps it. */
  focus: QuestionFocus;
  /** Something about the conversation changed (for the history list and the file it is kept in); `ended`: a turn just ended. */
  onDidChange: (conversation: Conversation, ended?: TurnView) => void;
  /** What a failure offers besides Retry (the deep model's name, when it is another model). */
  failureOptions: (depth: AnswerDepth) => { deepModel: string | null };
  /** Without an acknowledgement from the renderer, batches go out this often. */
  ackTimeoutMs?: number;
}

/** A new turn: the user's words and which model they go to. */
export interface TurnRequest {
  kind: TurnKind;
  text: string;
  depth: AnswerDepth;
  model: string;
  askedAtEpochMs?: number;
  /** A retry: the failed turn it replaces (its undecided hunks are superseded, like a redirect's). */
  replaces?: TurnView;
}

export class Conversation implements Disposable {
  readonly hunks: HunkBoard;
  private readonly turns: TurnView[] = [];
  private readonly problems: string[] = [];
  private readonly askedPaths: string[] = [];
  /** The note's lines each turn went out with (see setNote). */
  private readonly noteLines = new Map<number, string[]>();
  private createdAt = Date.now();
  private updatedAt = this.createdAt;
  private stream: { turn: number; stream: ModelStream } | null = null;
  /** The turn the user stopped (a stop can come before the turn's stream has opened). */
  private stoppedTurn = 0;
  private readonly batcher: UpdateBatcher;
  private readonly output: TurnOutput;
  private disposed = false;

  constructor(private readonly options: ConversationOptions) {
    this.batcher = new UpdateBatcher(options.id, options.emit, options.ackTimeoutMs);
    this.output = new TurnOutput(this.batcher);
    this.hunks = options.openBoard((update, urgent) => {
      this.batcher.hunk(update, urgent);
      // A decision changes the pending counts the history list shows.
      if (update.appendLines.length === 0) this.changed();
    }, (hunkId, build, urgent) => this.batcher.streaming(hunkId, build, urgent));
  }

  /** A conversation kept from an earlier run: turns that were under way are over now, its hunks planned again. */
  static restore(record: ConversationRecord, options: ConversationOptions): Conversation {
    const conversation = new Conversation(options);
    conversation.turns.push(...restoredTurns(record.turns));
    conversation.problems.push(...record.problems);
    conversation.askedPaths.push(...record.paths);
    conversation.createdAt = record.createdAtEpochMs;
    conversation.updatedAt = record.updatedAtEpochMs;
    conversation.hunks.restore(record.board);
    conversation.hunks.decisions.putBack(record.note ?? []);
    return conversation;
  }

  get id(): string {
    return this.options.id;
  }

  get focus(): QuestionFocus {
    return this.options.focus;
  }

  /** The files the first turn was about: later turns ask about the same ones, as they are then. */
  get paths(): string[] {
    return [...this.askedPaths];
  }

  get isStreaming(): boolean {
    return this.turns.some((turn) => turn.status === 'streaming');
  }

  get isOver(): boolean {
    return this.disposed;
  }

  turn(index: number): TurnView {
    const turn = this.turns[index - 1];
    if (!turn) throw new FlintFailure('not-found', `This conversation has no turn ${index}.`);
    return turn;
  }

  latest(): TurnView | undefined {
    return this.turns.at(-1);
  }

  /** The failed turn whose automatic retry counts down, if any. */
  waitingToRetry(): TurnView | undefined {
    return this.turns.find((turn) => turn.failure?.retryAtEpochMs !== undefined);
  }

  /** The first turn waiting to be sent. */
  nextQueued(): TurnView | undefined {
    return this.turns.find((turn) => turn.status === 'queued');
  }

  /**
   * Adds a turn. A redirect ends the turn that streams ("redirected", cancelled) — or, if
   * that turn just ended, replaces the latest one all the same — and supersedes the
   * replaced turn's undecided hunks, as a retry does the failed turn's. A queued turn waits.
   */
  addTurn(request: TurnRequest): TurnView {
    this.requireOpen();
    const index = this.turns.length + 1;
    const replaced = new Set<number>(request.replaces ? [request.replaces.index] : []);
    if (request.kind === 'redirect') {
      // A queued message still being prepared never went out: it waits, with Retry, and the
      // redirect replaces the answer the user saw streaming (it may just have ended).
      for (const turn of this.turns) if (turn.status === 'streaming' && turn.startedAtEpochMs === undefined && turn.kind === 'queued') this.notSent(turn, 'Not sent: your redirect came first. Retry sends it.');
      const streaming = this.turns.filter((turn) => turn.status === 'streaming');
      // Marked first: the cancelled stream's ending then says nothing more about them.
      for (const turn of streaming) {
        turn.followedBy = index;
        this.move(turn, 'redirected');
      }
      this.stop();
      const latest = this.turns.findLast((turn) => turn.startedAtEpochMs !== undefined);
      for (const turn of streaming.length > 0 ? streaming : latest ? [latest] : []) replaced.add(turn.index);
    }
    if (replaced.size > 0) this.hunks.supersede(replaced);
    const askedAtEpochMs = request.askedAtEpochMs ?? Date.now();
    const turn: TurnView = { index, kind: request.kind, text: request.text, depth: request.depth, model: request.model, status: request.kind === 'queued' ? 'queued' : 'streaming', prose: '', askedAtEpochMs };
    this.turns.push(turn);
    this.report(turn);
    return turn;
  }

  /**
   * Sends a turn: `prompt` is its assembled prompt and `shown` the texts of the files in
   * it (its hunks anchor against them, so a save made while it writes is merged or
   * reported). A stream that cannot open fails the turn; its words stay.
   */
  async open(turn: TurnView, prompt: BuiltPrompt & { history?: readonly ConversationMessage[] }, shown: ReadonlyMap<string, FileText>, keypressEpochMs?: number): Promise<boolean> {
    this.requireOpen();
    this.beginSending(turn);
    if (turn.status !== 'streaming') return false;
    // Stopped (Esc) while its prompt was built: nothing goes out.
    if (this.stoppedTurn === turn.index) {
      this.end(turn, 'cancelled', 'Stopped by you before it was sent.');
      return false;
    }
    this.hunks.noteShown(shown);
    if (this.askedPaths.length === 0) this.askedPaths.push(...shown.keys());
    turn.startedAtEpochMs = Date.now();
    this.report(turn);
    const parser = this.parserFor(turn);
    let stream: ModelStream;
    try {
      stream = await this.options.openStream(prompt, turn.depth, this.batcher.metered(turn.index, this.sinkFor(turn, parser)), keypressEpochMs);
    } catch (error) {
      parser.finish(true);
      this.fail(turn, error);
      return false;
    }
    // Stopped, redirected or let go while the stream was still opening: stop it now.
    if (this.disposed || turn.status !== 'streaming' || this.stoppedTurn === turn.index) {
      stream.cancel();
      return false;
    }
    this.stream = { turn: turn.index, stream };
    return true;
  }

  /**
   * A queued turn's request is being prepared: it streams from now on, so a redirect,
   * Esc or another queued message sees it (it takes effect now).
   */
  beginSending(turn: TurnView): void {
    if (turn.status === 'queued') this.move(turn, 'send');
  }

  /** A turn failed before or while its stream opened (a file gone, no key…): it keeps its words and offers Retry. */
  fail(turn: TurnView, error: unknown, failure?: { code: StreamFailure['code'] | 'incomplete' | 'other'; retryAfterSeconds?: number }): void {
    const message = error instanceof Error ? error.message : String(error);
    const code = failure?.code ?? (error instanceof FlintFailure ? error.code : 'other');
    this.end(turn, 'failed', message, this.failureOf(turn, code, failure?.retryAfterSeconds));
  }

  /** A queued turn that will not be sent as queued: it stays, with Retry. */
  notSent(turn: TurnView, why: string): void {
    this.end(turn, 'not-sent', why, this.failureOf(turn, 'not-sent'));
  }

  /** Stops the stream at once; complete hunks stay decidable, a streaming one becomes partial. */
  stop(): void {
    const streaming = this.turns.find((turn) => turn.status === 'streaming');
    if (streaming) this.stoppedTurn = streaming.index;
    this.stream?.stream.cancel();
  }

  /**
   * The note on the user's decisions that went out with this turn. Should the turn fail,
   * the model never heard it: its lines go back for the next turn (a retry's, say).
   */
  setNote(turn: TurnView, lines: readonly string[]): void {
    turn.note = lines.join('; ');
    this.noteLines.set(turn.index, [...lines]);
    this.report(turn);
  }

  /**
   * The project is closing: a streaming turn is over ("Flint closed…"), not stopped by the
   * user; a queued one will not be sent. Its stream is cancelled when it is disposed.
   */
  interrupt(): void {
    for (const turn of this.turns) if (turn.status === 'queued') this.notSent(turn, 'Not sent: the project was closed before the answer it waited for ended.');
    for (const turn of this.turns) if (turn.status === 'streaming') this.end(turn, 'interrupted', 'Flint closed the project while this answer streamed.');
  }

  /** Shows (or takes away, with undefined) the countdown to an automatic retry of a failed turn. */
  setRetryAt(turn: TurnView, atEpochMs: number | undefined): void {
    if (!turn.failure) return;
    if (atEpochMs === undefined) delete turn.failure.retryAtEpochMs;
    else turn.failure.retryAtEpochMs = atEpochMs;
    this.report(turn);
  }

  /** Marks a failed turn as retried by `by`. */
  setFollowedBy(turn: TurnView, by: number): void {
    turn.followedBy = by;
    if (turn.failure) delete turn.failure.retryAtEpochMs;
    this.report(turn);
  }

  /** The earlier turns as messages, for a follow-up (see conversation-record.ts). */
  turnsBefore(index: number): readonly TurnView[] {
    return this.turns.slice(0, index - 1);
  }

  acknowledge(): void {
    this.batcher.acknowledge();
  }

  /** Sends pending changes now (tests, benches). */
  flush(): void {
    this.batcher.flush();
  }

  summary(): ConversationSummary {
    const latest = this.turns.at(-1);
    return {
      sessionId: this.id,
      title: conversationTitle(this.turns),
      createdAtEpochMs: this.createdAt,
      updatedAtEpochMs: this.updatedAt,
      status: latest?.status ?? 'complete',
      turns: this.turns.length,
      ...this.hunks.counts(),
    };
  }

  /** What is kept between runs. */
  record(): ConversationRecord {
    return {
      id: this.id,
      createdAtEpochMs: this.createdAt,
      updatedAtEpochMs: this.updatedAt,
      ...this.focus,
      paths: this.paths,
      turns: this.turns.map((turn) => ({ ...turn, ...(turn.failure ? { failure: { ...turn.failure } } : {}) })),
      problems: [...this.problems],
      board: this.hunks.snapshot(),
      note: this.hunks.decisions.peek(),
    };
  }

  /** Everything, for a renderer that (re)loads the conversation. */
  fullUpdate(): AnswerUpdate {
    // What was batched goes out first: the renderer takes updates sent before this answer as part of it.
    this.batcher.flush();
    return { ...fullUpdateOf(this.id, this.turns, this.problems, this.hunks.snapshot()), proseTail: this.output.tailsNow() };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stream?.stream.cancel();
    this.hunks.dispose();
    this.batcher.dispose();
  }

  private parserFor(turn: TurnView): EditStreamParser {
    const toBoard = this.hunks.beginTurn(turn.index);
    return this.output.parser(turn, { toBoard, problem: (message) => this.problem(message), isProjectPath: (candidate) => this.hunks.namesProjectFile(candidate) });
  }

  private sinkFor(turn: TurnView, parser: EditStreamParser): StreamSink {
    return {
      onDelta: (text) => parser.push(text),
      onEnd: (end) => {
        parser.finish(end.outcome !== 'completed');
        if (this.stream?.turn === turn.index) this.stream = null;
        // A redirected turn's ending says nothing more.
        if (turn.status !== 'streaming') return;
        if (end.outcome === 'completed') this.end(turn, 'completed');
        else if (end.outcome === 'cancelled') this.end(turn, 'cancelled', 'Stopped by you.');
        else this.fail(turn, end.message ?? 'The answer ended early.', end.failure ?? { code: end.outcome === 'incomplete' ? 'incomplete' : 'other' });
      },
    };
  }

  private end(turn: TurnView, event: TurnEvent, message?: string, failure?: TurnFailure): void {
    if (nextTurnStatus(turn.status, event) === null) return;
    const told = this.noteLines.get(turn.index);
    if (event === 'failed' && told) {
      this.hunks.decisions.putBack(told);
      this.noteLines.delete(turn.index);
      delete turn.note;
    }
    if (message !== undefined) turn.message = message;
    if (failure) turn.failure = failure;
    turn.endedAtEpochMs = Date.now();
    this.move(turn, event);
    this.options.onDidChange(this, turn);
  }

  private failureOf(turn: TurnView, code: string, retryAfterSeconds?: number): TurnFailure {
    return failureOf(turn, code, this.options.failureOptions(turn.depth).deepModel, retryAfterSeconds);
  }

  private move(turn: TurnView, event: TurnEvent): void {
    const next = nextTurnStatus(turn.status, event);
    if (next === null) return;
    turn.status = next;
    this.report(turn);
  }

  private problem(message: string): void {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push(message);
    this.batcher.problem(message);
  }

  /** Tells the renderer a turn's fields, with the conversation's status (its latest sent turn's). */
  private report(turn: TurnView): void {
    const { prose: _prose, ...meta } = turn;
    this.batcher.turn(meta);
    const latest = latestSent(this.turns);
    if (latest) this.batcher.status(answerStatusOf(latest), latest.message);
    this.changed();
  }

  private changed(): void {
    this.updatedAt = Date.now();
    this.options.onDidChange(this);
  }

  private requireOpen(): void {
    if (this.disposed) throw new FlintFailure('not-found', 'That conversation is over (the project was closed or reopened).');
  }
}
