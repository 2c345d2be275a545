/**
 * The open project's answers: starts a question, redirects, stops, and finds the answer
 * a decision is about. The last few answers are kept (their hunks may still be decided).
 * Each remembers its project: they are disposed when it starts to close, and an answer
 * (or a question still being prepared) of a project that is no longer open is refused.
 */
import { randomUUID } from 'node:crypto';
import type { AnswerUpdate, AskFocus } from '../../shared/ask-types';
import type { AnswerDepth } from '../../shared/inference-types';
import { FlintFailure } from '../../shared/result';
import type { FileText } from '../fs/file-text';
import type { InferenceService } from '../inference/inference-service';
import { DisposableStore, Emitter, type Disposable, type Event } from '../lifecycle';
import type { Logger } from '../logger';
import type { OpenProject } from '../workspace/open-project';
import type { Workspace } from '../workspace/workspace';
import type { BuiltPrompt, PromptRequest } from './prompt-builder';
import { AnswerSession } from './answer-session';

/** Answers kept for late decisions; an older answer's hunks can no longer be decided. */
const KEPT_ANSWERS = 4;

export interface AskInput {
  prompt: string;
  /** Default: the current file. */
  paths?: string[];
  focus?: AskFocus;
  depth: AnswerDepth;
  keypressEpochMs?: number;
}

export interface AnswerServiceOptions {
  workspace: Workspace;
  inference: InferenceService;
  /** Context assembly: the files and the question become instructions and a turn. */
  buildPrompt: (request: PromptRequest) => Promise<BuiltPrompt>;
  logger: Logger;
  /** Without an acknowledgement from the renderer, batches go out this often. */
  ackTimeoutMs?: number;
}

type PromptFile = { path: string; text: FileText };

export class AnswerService implements Disposable {
  /** The open project's answers, each with the project it belongs to. */
  private readonly sessions = new Map<string, { session: AnswerSession; project: OpenProject }>();
  /** Questions between their check and their stream: they count as streaming (no second one slips in). */
  private starting = 0;
  private readonly store = new DisposableStore();
  private readonly _onDidUpdate = this.store.add(new Emitter<AnswerUpdate>());

  /** Every answer's batched updates, for the UI. */
  readonly onDidUpdate: Event<AnswerUpdate> = this._onDidUpdate.event;

  constructor(private readonly options: AnswerServiceOptions) {
    // The answers' hunks live on the project's edits: they go before it does.
    this.store.add(options.workspace.onWillClose(() => this.clear()));
  }

  /** Whether an answer is streaming (the hotkey then shows it rather than starting another). */
  get isStreaming(): boolean {
    return this.starting > 0 || [...this.sessions.values()].some(({ session }) => session.isStreaming);
  }

  /** Asks the model about `paths` (default: the current file): an answer, or edits. */
  async ask(input: AskInput): Promise<{ sessionId: string }> {
    const project = this.options.workspace.requireProject();
    if (this.isStreaming) {
      throw new FlintFailure('already-streaming', 'An answer is still streaming: stop it (Esc), or type a follow-up to redirect it.');
    }
    const current = project.currentFile.value.path;
    const paths = input.paths?.length ? input.paths : current !== null ? [current] : [];
    if (paths.length === 0) throw new FlintFailure('no-file', 'No current file: select a file in the tree, or save one in your editor, then ask.');
    this.starting += 1;
    try {
      const files = await this.promptFiles(project, paths);
      const focus = input.focus ?? 'recent-change';
      const prompt = await this.options.buildPrompt({ files, question: input.prompt, focus, depth: input.depth });
      this.requireStillOpen(project);
      this.prune();
      const session = this.createSession(project, focus, input.depth);
      try {
        await session.start(prompt, shownTexts(files), input.keypressEpochMs);
        // The project may have closed while the stream opened: its answers went with it.
        if (!this.sessions.has(session.id)) throw closedMeanwhile();
      } catch (error) {
        // A stream that never opened leaves no answer behind to block the next request.
        session.dispose();
        this.sessions.delete(session.id);
        throw error;
      }
      return { sessionId: session.id };
    } finally {
      this.starting -= 1;
    }
  }

  /**
   * Steers an answer: stops what streams and starts a new turn that tells the model
   * what was accepted and rejected so far. Nothing accepted is lost.
   */
  async redirect(sessionId: string, prompt: string, keypressEpochMs?: number): Promise<void> {
    const project = this.options.workspace.requireProject();
    const session = this.session(sessionId);
    session.stop();
    const { accepted, rejected } = session.hunks.decisions();
    // Between the stop and the new turn's stream the answer still counts as streaming.
    this.starting += 1;
    try {
      // The files this answer is about, even if another file became current meanwhile.
      const files = await this.promptFiles(project, session.paths);
      const question = [
        accepted.length ? `Already applied (the files below include them): ${accepted.join('; ')}.` : '',
        rejected.length ? `Rejected by the user, do not propose again: ${rejected.join('; ')}.` : '',
        `New instruction: ${prompt}`,
      ].filter(Boolean).join('\n');
      const built = await this.options.buildPrompt({ files, question, focus: session.focus, depth: session.depth });
      this.requireStillOpen(project);
      await session.start(built, shownTexts(files), keypressEpochMs);
    } finally {
      this.starting -= 1;
    }
  }

  stop(sessionId: string): void {
    this.session(sessionId).stop();
  }

  /** The renderer has shown the answer's last update (a late one for a gone answer is fine). */
  acknowledge(sessionId: string): void {
    this.sessions.get(sessionId)?.session.acknowledge();
  }

  /** The answer a decision is about: only ever one of the open project's. */
  session(sessionId: string): AnswerSession {
    const entry = this.sessions.get(sessionId);
    if (!entry || entry.project !== this.options.workspace.project) throw new FlintFailure('not-found', 'That answer is over (the project was closed or reopened).');
    return entry.session;
  }

  dispose(): void {
    this.clear();
    this.store.dispose();
  }

  private createSession(project: OpenProject, focus: AskFocus, depth: AnswerDepth): AnswerSession {
    const session = new AnswerSession({
      sessionId: randomUUID(),
      openStream: (turn, sink, keypressEpochMs) => this.options.inference.openStream({ prompt: turn.input, instructions: turn.instructions, depth, keypressEpochMs }, sink),
      openBoard: (report) => project.edits.openBoard(report),
      emit: (update) => this._onDidUpdate.fire(update),
      focus,
      depth,
      ackTimeoutMs: this.options.ackTimeoutMs,
    });
    this.sessions.set(session.id, { session, project });
    return session;
  }

  /** Keeps the last few answers; older ones are let go. */
  private prune(): void {
    const ids = [...this.sessions.keys()];
    for (const id of ids.slice(0, Math.max(0, ids.length - KEPT_ANSWERS + 1))) {
      this.sessions.get(id)!.session.dispose();
      this.sessions.delete(id);
    }
  }

  private clear(): void {
    for (const { session } of this.sessions.values()) session.dispose();
    this.sessions.clear();
  }

  /** Preparing a question awaits reads and the tokenizer: the project may have closed meanwhile. */
  private requireStillOpen(project: OpenProject): void {
    if (this.options.workspace.project !== project) throw closedMeanwhile();
  }

  /**
   * The files' texts as the model will see them: each path checked first (the renderer's
   * paths are untrusted), then a save still being written waited for (bounded).
   */
  private async promptFiles(project: OpenProject, paths: readonly string[]): Promise<PromptFile[]> {
    const files: PromptFile[] = [];
    for (const requested of paths) {
      const { relativePath: path } = await project.files.resolve(requested, 'model');
      await project.history.settledLines(path).catch(() => undefined);
      const text = await project.files.readText(path);
      if (text === null) throw new FlintFailure('not-found', `${path} does not exist (deleted or renamed since it was saved).`);
      files.push({ path, text });
    }
    return files;
  }
}

function closedMeanwhile(): FlintFailure {
  return new FlintFailure('no-project', 'The project was closed before the question was sent; nothing was asked.');
}

function shownTexts(files: readonly PromptFile[]): Map<string, FileText> {
  return new Map(files.map((file) => [file.path, file.text]));
}
