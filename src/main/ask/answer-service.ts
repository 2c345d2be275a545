/**
 * The open project's conversations, as the renderer asks for them: a new question, a
 * follow-up, a redirect (interrupt + new turn), a queued message (sent when the answer
 * ends), Retry, Stop, and the history list. Each conversation remembers its project: all
 * are let go (kept on disk) when it starts to close, and a request for one of a project
 * that is no longer open is refused. Turns are sent by TurnSender; a 429 is retried by
 * itself after `retry-after`, with the countdown on the turn.
 */
import { randomUUID } from 'node:crypto';
import type { AnswerUpdate, AskFocus, AskSubject, ConversationSummary, LineRange, QuestionFocus, TurnKind, TurnView } from '../../shared/ask-types';
import type { AnswerDepth } from '../../shared/inference-types';
import { FlintFailure } from '../../shared/result';
import type { InferenceService } from '../inference/inference-service';
import { DisposableStore, Emitter, type Disposable, type Event } from '../lifecycle';
import type { Logger } from '../logger';
import type { OpenProject } from '../workspace/open-project';
import type { Workspace } from '../workspace/workspace';
import { Conversation, type ConversationOptions } from './conversation';
import { ConversationList } from './conversation-list';
import type { ConversationRecord } from './conversation-record';
import { questionFiles } from './project-question';
import type { BuiltPrompt, PromptRequest } from './prompt-builder';
import { closedMeanwhile, TurnSender } from './turn-sender';

/** A 429 without `retry-after` is retried after this long. */
const DEFAULT_RETRY_AFTER_S = 10;
/** A longer wait is left to the user (Retry), and so are 429s after this many automatic retries in a row. */
const MAX_AUTO_RETRY_WAIT_S = 120;
const MAX_AUTO_RETRIES = 3;

export interface AskInput {
  prompt: string;
  /** Default: the current file. */
  paths?: string[];
  focus?: AskFocus;
  /** With focus `selection`: the lines the user selected in the (first) file. */
  selection?: LineRange;
  /** `project`: no current file, the outline (and the files the prompt names). */
  subject?: AskSubject;
  depth: AnswerDepth;
  keypressEpochMs?: number;
  /** Continue this conversation (a follow-up) rather than start one. */
  conversationId?: string;
}

export interface AnswerServiceOptions {
  workspace: Workspace;
  inference: InferenceService;
  /** Context assembly: the files and the question become instructions and a turn. */
  buildPrompt: (request: PromptRequest) => Promise<BuiltPrompt>;
  logger: Logger;
  /** Where conversations are kept (one file per project); none: kept in memory only. */
  historyFolder?: string;
  /** Without an acknowledgement from the renderer, batches go out this often. */
  ackTimeoutMs?: number;
}

export class AnswerService implements Disposable {
  /** The open project, and its conversations. */
  private project: OpenProject | null = null;
  private readonly list: ConversationList;
  /** Turns between their check and their stream: they count as streaming (no second question slips in). */
  private starting = 0;
  private readonly retryTimers = new Map<string, NodeJS.Timeout>();
  /** The last project's conversations being written to disk. */
  private closing: Promise<void> = Promise.resolve();
  /** Closings waiting for the project to have closed (its writes landed). */
  private readonly closedWaiters: Array<() => void> = [];
  private readonly sender: TurnSender;
  private readonly store = new DisposableStore();
  private readonly _onDidUpdate = this.store.add(new Emitter<AnswerUpdate>());
  private readonly _onDidChangeList = this.store.add(new Emitter<ConversationSummary[]>());
  private readonly _onDidNotice = this.store.add(new Emitter<string>());

  /** Every conversation's batched updates, for the UI. */
  readonly onDidUpdate: Event<AnswerUpdate> = this._onDidUpdate.event;
  /** The history list changed (a conversation started, a turn ended, a hunk was decided). */
  readonly onDidChangeList: Event<ConversationSummary[]> = this._onDidChangeList.event;
  /** Something the user should hear (a history file that could not be read). */
  readonly onDidNotice: Event<string> = this._onDidNotice.event;

  constructor(private readonly options: AnswerServiceOptions) {
    const { workspace } = options;
    this.sender = new TurnSender({ buildPrompt: options.buildPrompt, isOpen: (project) => workspace.project === project });
    this.list = new ConversationList({
      folder: options.historyFolder ?? null,
      logger: options.logger,
      onDidChange: (summaries) => this._onDidChangeList.fire(summaries),
      onNotice: (message) => this._onDidNotice.fire(message),
    });
    this.store.add(workspace.onDidOpen((project) => this.opened(project)));
    // The conversations' hunks live on the project's edits: they go before it does.
    this.store.add(workspace.onWillClose(() => this.clear()));
    this.store.add(workspace.onDidClose(() => this.releaseClosed()));
    if (workspace.project) this.opened(workspace.project);
  }

  /** Whether an answer is streaming (the hotkey then shows it rather than starting another). */
  get isStreaming(): boolean {
    return this.starting > 0 || this.list.all().some((conversation) => conversation.isStreaming);
  }

  /**
   * Asks about `paths` (default: the current file; none for a question about the project,
   * or when the current file cannot be sent) and the files the prompt names with `@path`,
   * in a new conversation; or follows one up.
   */
  async ask(input: AskInput): Promise<{ sessionId: string }> {
    const project = this.options.workspace.requireProject();
    if (this.isStreaming) throw new FlintFailure('already-streaming', 'An answer is still streaming: stop it (Esc), or type to redirect it.');
    if (input.conversationId !== undefined) {
      const conversation = this.conversation(input.conversationId);
      await this.run(conversation, 'follow-up', input.prompt, input.depth, input.keypressEpochMs);
      return { sessionId: conversation.id };
    }
    this.starting += 1;
    try {
      // A path that is not the project's, a file that is gone, a question too long for the
      // window: the request's fault, refused before anything starts (the bar keeps the words).
      const focus = input.focus ?? 'recent-change';
      const { files, named } = await questionFiles(project, input);
      const selection = input.selection && files[0] ? { path: files[0].path, ...input.selection } : undefined;
      const prompt = await this.options.buildPrompt({ files: [...files, ...named], question: input.prompt, focus, selection, depth: input.depth });
      if (this.options.workspace.project !== project) throw closedMeanwhile();
      const conversation = this.create(project, { focus, ...(selection ? { selection } : {}) });
      const turn = conversation.addTurn({ kind: 'question', text: input.prompt, depth: input.depth, model: this.modelFor(input.depth) });
      await this.sender.send(conversation, turn, project, input.keypressEpochMs, { files, named, prompt });
      // The project closed while the question was prepared: it went, unsent, with its conversations.
      if (conversation.isOver) throw closedMeanwhile();
      return { sessionId: conversation.id };
    } finally {
      this.starting -= 1;
    }
  }

  /**
   * Interrupts: stops what streams, supersedes the undecided hunks of the turn it replaces,
   * and sends a new turn that tells the model what was decided so far. A redirect that
   * arrives just after the answer ended still replaces it: the user meant to.
   */
  redirect(sessionId: string, prompt: string, keypressEpochMs?: number, depth?: AnswerDepth): Promise<void> {
    const conversation = this.conversation(sessionId);
    return this.run(conversation, 'redirect', prompt, depth ?? this.latestDepth(conversation), keypressEpochMs);
  }

  /** Queues a message for when the streaming answer ends (sent at once if it already has). */
  queue(sessionId: string, prompt: string, depth?: AnswerDepth): Promise<void> {
    const conversation = this.conversation(sessionId);
    const chosen = depth ?? this.latestDepth(conversation);
    if (!conversation.isStreaming) return this.run(conversation, 'follow-up', prompt, chosen);
    conversation.addTurn({ kind: 'queued', text: prompt, depth: chosen, model: this.modelFor(chosen) });
    return Promise.resolve();
  }

  /** Sends a failed turn's words again (with `depth`: the same model, or the deep one). */
  async retry(sessionId: string, turnIndex: number, depth: AnswerDepth): Promise<void> {
    const conversation = this.conversation(sessionId);
    const failed = conversation.turn(turnIndex);
    if (failed.status !== 'failed' && failed.status !== 'stopped') throw new FlintFailure('invalid-state', 'Only a failed or stopped turn can be retried.');
    if (failed.followedBy !== undefined) throw new FlintFailure('invalid-state', `This turn was already retried (turn ${failed.followedBy}).`);
    await this.run(conversation, 'retry', failed.text, depth, undefined, failed);
  }

  /** Stops the countdown to an automatic retry. */
  cancelRetry(sessionId: string): void {
    this.cancelTimer(sessionId);
    const conversation = this.list.get(sessionId);
    const waiting = conversation?.waitingToRetry();
    if (waiting) conversation!.setRetryAt(waiting, undefined);
  }

  stop(sessionId: string): void {
    this.conversation(sessionId).stop();
  }

  /** The renderer has shown the conversation's last update (a late one for a gone conversation is fine). */
  acknowledge(sessionId: string): void {
    this.list.get(sessionId)?.acknowledge();
  }

  /** The history list, newest first. */
  conversations(): ConversationSummary[] {
    return this.list.summaries();
  }

  /** A whole conversation, for a renderer that (re)loads it. */
  full(sessionId: string): AnswerUpdate {
    return this.conversation(sessionId).fullUpdate();
  }

  /** The conversation a request is about: only ever one of the open project's. */
  conversation(sessionId: string): Conversation {
    const conversation = this.list.get(sessionId);
    if (!conversation || this.project !== this.options.workspace.project) throw new FlintFailure('not-found', 'That conversation is over (the project was closed or reopened).');
    return conversation;
  }

  dispose(): void {
    this.clear();
    // Nothing more will close: what waits for a close is written now.
    this.releaseClosed();
    this.store.dispose();
  }

  /**
   * Adds a turn and sends it; the turn it redirects or retries is marked. A new turn calls
   * off an automatic retry's countdown (the user moved on). Failures are the turn's.
   */
  private async run(conversation: Conversation, kind: TurnKind, text: string, depth: AnswerDepth, keypressEpochMs?: number, retried?: TurnView): Promise<void> {
    const project = this.options.workspace.requireProject();
    // Only a redirect of what streams may start while something streams (it stops that first).
    if (this.isStreaming && !(kind === 'redirect' && conversation.isStreaming)) throw new FlintFailure('already-streaming', 'An answer is still streaming: stop it (Esc) first, or type to redirect it.');
    this.cancelRetry(conversation.id);
    const turn = conversation.addTurn({ kind, text, depth, model: this.modelFor(depth), ...(retried ? { replaces: retried } : {}) });
    if (retried) conversation.setFollowedBy(retried, turn.index);
    this.starting += 1;
    try {
      await this.sender.send(conversation, turn, project, keypressEpochMs);
    } finally {
      this.starting -= 1;
    }
    // The project closed while the turn was prepared: it went, unsent, with its conversation.
    if (conversation.isOver) throw closedMeanwhile();
  }

  private create(project: OpenProject, focus: QuestionFocus): Conversation {
    const conversation = new Conversation(this.conversationOptions(project, randomUUID(), focus));
    this.list.add(conversation);
    return conversation;
  }

  private conversationOptions(project: OpenProject, id: string, focus: QuestionFocus): ConversationOptions {
    return {
      id,
      openStream: (turn, depth, sink, keypressEpochMs) =>
        this.options.inference.openStream({ prompt: turn.input, instructions: turn.instructions, history: turn.history, depth, keypressEpochMs }, sink),
      openBoard: (report, streaming) => project.edits.openBoard(report, streaming),
      emit: (update) => this._onDidUpdate.fire(update),
      focus,
      onDidChange: (changed, ended) => {
        this.list.changed();
        if (ended) this.turnEnded(changed, ended);
      },
      failureOptions: () => ({ deepModel: this.deepModel() }),
      ackTimeoutMs: this.options.ackTimeoutMs,
    };
  }

  /** A turn ended: a queued message goes out (or says why it will not), a 429 is retried by itself. */
  private turnEnded(conversation: Conversation, turn: TurnView): void {
    if (turn.failure?.code === 'rate-limited' && turn.followedBy === undefined) this.scheduleRetry(conversation, turn);
    // A message queued before a redirect waits for the redirect's answer, then goes.
    const queued = conversation.nextQueued();
    if (!queued || conversation.isStreaming) return;
    if (turn.status === 'complete') void this.sendQueued(conversation, queued);
    else conversation.notSent(queued, `Not sent: the answer it waited for ${turn.status === 'stopped' ? 'was stopped' : 'failed'}. Retry sends it now.`);
  }

  private async sendQueued(conversation: Conversation, queued: TurnView): Promise<void> {
    const project = this.options.workspace.project;
    if (!project || this.project !== project) return;
    this.starting += 1;
    try {
      await this.sender.send(conversation, queued, project);
    } finally {
      this.starting -= 1;
    }
  }

  private scheduleRetry(conversation: Conversation, turn: TurnView): void {
    // Automatic retries in a row: a run of retry turns ending in this one.
    let retries = 0;
    for (let index = turn.index; index > 1 && conversation.turn(index).kind === 'retry'; index -= 1) retries += 1;
    const at = turn.failure!.retryAtEpochMs ?? Date.now() + DEFAULT_RETRY_AFTER_S * 1000;
    if (retries >= MAX_AUTO_RETRIES || at - Date.now() > MAX_AUTO_RETRY_WAIT_S * 1000) return conversation.setRetryAt(turn, undefined);
    conversation.setRetryAt(turn, at);
    this.cancelTimer(conversation.id);
    const timer = setTimeout(() => {
      this.retryTimers.delete(conversation.id);
      if (conversation.isOver || turn.followedBy !== undefined || turn.failure?.retryAtEpochMs === undefined) return;
      this.retry(conversation.id, turn.index, turn.depth).catch((error: unknown) => {
        // Something else streams now (the user asked again): the countdown ends, Retry stays.
        conversation.setRetryAt(turn, undefined);
        this.options.logger.info(`automatic retry not sent: ${error instanceof Error ? error.message : String(error)}`);
      });
    }, Math.max(0, at - Date.now()));
    this.retryTimers.set(conversation.id, timer);
  }

  private cancelTimer(sessionId: string): void {
    clearTimeout(this.retryTimers.get(sessionId));
    this.retryTimers.delete(sessionId);
  }

  /** A project opened: its kept conversations come back (their hunks planned again on the files as they are). */
  private opened(project: OpenProject): void {
    this.project = project;
    const restore = (record: ConversationRecord): Conversation => Conversation.restore(record, this.conversationOptions(project, record.id, { focus: record.focus, ...(record.selection ? { selection: record.selection } : {}) }));
    // After the previous project's history is written: reopening the same project reads what it wrote.
    void this.closing
      .then(() => this.list.load(project.files.root, restore, () => this.options.workspace.project === project && this.project === project))
      .catch((error: unknown) => this.options.logger.error('reading the conversation history failed', error));
  }

  private clear(): void {
    for (const timer of this.retryTimers.values()) clearTimeout(timer);
    this.retryTimers.clear();
    this.project = null;
    // Written once the project has closed, which waits for the writes in flight: a hunk
    // written as the project closed is kept as accepted, not "being written".
    const closed = new Promise<void>((resolve) => this.closedWaiters.push(resolve));
    // Chained: quitting right after switching projects waits for both histories.
    const previous = this.closing;
    const writing = this.list.close(closed).catch((error: unknown) => this.options.logger.error('writing the conversation history failed', error));
    this.closing = Promise.all([previous, writing]).then(() => undefined);
  }

  private releaseClosed(): void {
    for (const resolve of this.closedWaiters.splice(0)) resolve();
  }

  /** Waits until the conversations of a closed project are on disk (Flint quitting). */
  flush(): Promise<void> {
    return this.closing;
  }

  private modelFor(depth: AnswerDepth): string {
    return this.options.inference.modelFor(depth).model;
  }

  /** The deep model, when it is another model than the fast one. */
  private deepModel(): string | null {
    const deep = this.options.inference.deepModel;
    return deep === null || deep === this.modelFor('fast') ? null : deep;
  }

  private latestDepth(conversation: Conversation): AnswerDepth {
    return conversation.latest()?.depth ?? 'fast';
  }
}
