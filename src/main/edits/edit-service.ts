/**
 * Edits for the open project: starts edit sessions, routes decisions, owns the undo
 * journal, and keeps pending hunks anchored as files change on disk.
 */
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { AskFocus } from '../../shared/ask-types';
import type { UndoResult } from '../../shared/contract';
import type { AnswerDepth } from '../../shared/inference-types';
import type { HunkState } from '../../shared/edits/hunk-types';
import type { AnswerUpdate } from '../../shared/ask-types';
import { FlintFailure } from '../../shared/result';
import type { InferenceService } from '../inference/inference-service';
import type { Disposable } from '../lifecycle';
import type { Logger } from '../logger';
import { EditApplier } from './edit-applier';
import { recoverScratchFiles } from '../fs/scratch-recovery';
import { isInsideRoot, toPosixRelative } from '../fs/root-paths';
import { parentPath } from '../../shared/paths';
import type { BuiltPrompt, PromptRequest } from '../ask/ask-service';
import { readProjectText } from '../context/read-project-text';
import { EditSession } from './edit-session';
import type { FileText } from './file-text';
import { UndoJournal, type UndoOutcome } from './undo-journal';

/** Sessions kept for late decisions; an older session's hunks can no longer be decided. */
const KEPT_SESSIONS = 4;

export interface EditServiceOptions {
  root: string;
  /** Folder for undo journals (one file per project). */
  journalFolder: string;
  inference: InferenceService;
  /** Context assembly: the files and the question become instructions and a turn. */
  buildPrompt: (request: PromptRequest) => Promise<BuiltPrompt>;
  logger: Logger;
  emit: (update: AnswerUpdate) => void;
  currentFile: () => string | null;
  /** Flint is about to write this file (so its watcher echo is not the user's save). */
  onWillWrite: (relativePath: string) => void;
  /** Something the user must hear about outside any session (e.g. a save that raced a write). */
  onWarning?: (message: string) => void;
}

export class EditService implements Disposable {
  private readonly sessions = new Map<string, EditSession>();

  private constructor(
    private readonly options: EditServiceOptions,
    private readonly applier: EditApplier,
  ) {}

  static async create(options: EditServiceOptions): Promise<EditService> {
    const name = createHash('sha256').update(options.root).digest('hex').slice(0, 16);
    const journal = await UndoJournal.open(join(options.journalFolder, `${name}.jsonl`));
    await recoverInterruptedWrites(options.root, journal, options.onWarning);
    const applier = new EditApplier(options.root, journal, options.onWillWrite, {
      onLateWriter: ({ path, keptAs }) =>
        options.onWarning?.(
          keptAs
            ? `Another program saved ${path} while Flint was writing it. Flint's change is on disk; your version is kept as ${keptAs}.`
            : `Another program saved ${path} while Flint was writing it. Your version was put back; Flint's change to it is not on disk.`,
        ),
    });
    return new EditService(options, applier);
  }

  /** Whether an answer is streaming (the hotkey then shows it rather than starting another). */
  get isStreaming(): boolean {
    return [...this.sessions.values()].some((session) => session.isStreaming);
  }

  /** Asks the model about `paths` (default: the current file): an answer, or edits. */
  async start(input: { prompt: string; paths?: string[]; focus?: AskFocus; depth: AnswerDepth; keypressEpochMs?: number }): Promise<{ sessionId: string }> {
    if (this.isStreaming) {
      throw new FlintFailure('invalid-input', 'An answer is still streaming: stop it (Esc), or type a follow-up to redirect it.');
    }
    const paths = input.paths?.length ? input.paths : [this.options.currentFile()].filter((path): path is string => path !== null);
    if (paths.length === 0) throw new FlintFailure('invalid-input', 'No current file: select a file in the tree, or save one in your editor, then ask.');
    const files = await this.promptFiles(paths);
    const focus = input.focus ?? 'recent-change';
    const prompt = await this.options.buildPrompt({ files, question: input.prompt, focus, depth: input.depth });
    this.pruneSessions();
    const sessionId = randomUUID();
    const session = new EditSession({
      sessionId,
      applier: this.applier,
      readText: (path) => this.readText(path),
      emit: this.options.emit,
      logger: this.options.logger,
      openStream: (turn, sink, keypressEpochMs) =>
        this.options.inference.openStream({ prompt: turn.input, instructions: turn.instructions, depth: input.depth, keypressEpochMs }, sink),
      focus,
      depth: input.depth,
    });
    this.sessions.set(sessionId, session);
    try {
      await session.start(prompt, shownTexts(files), input.keypressEpochMs);
    } catch (error) {
      // A stream that never opened leaves no session behind to block the next request.
      session.dispose();
      this.sessions.delete(sessionId);
      throw error;
    }
    return { sessionId };
  }

  accept(sessionId: string, hunkId: string): Promise<HunkState> {
    return this.session(sessionId).accept(hunkId);
  }

  reject(sessionId: string, hunkId: string): HunkState {
    return this.session(sessionId).reject(hunkId);
  }

  acceptAll(sessionId: string): Promise<number> {
    return this.session(sessionId).acceptAll();
  }

  rejectAll(sessionId: string): number {
    return this.session(sessionId).rejectAll();
  }

  stop(sessionId: string): void {
    this.session(sessionId).stop();
  }

  /** The renderer has shown the session's last update. */
  acknowledge(sessionId: string): void {
    this.sessions.get(sessionId)?.acknowledge();
  }

  /**
   * Steers a session: stops what streams and starts a new turn that tells the model
   * what was accepted and rejected so far. Nothing accepted is lost.
   */
  async redirect(sessionId: string, prompt: string, paths: string[] | undefined, keypressEpochMs?: number): Promise<void> {
    const session = this.session(sessionId);
    session.stop();
    const { accepted, rejected } = session.decisions();
    // The files this session is about, even if another file became current meanwhile.
    const files = await this.promptFiles(paths?.length ? paths : session.paths);
    const summary = [
      accepted.length ? `Already applied (the files below include them): ${accepted.join('; ')}.` : '',
      rejected.length ? `Rejected by the user, do not propose again: ${rejected.join('; ')}.` : '',
      `New instruction: ${prompt}`,
    ].filter(Boolean).join('\n');
    const built = await this.options.buildPrompt({ files, question: summary, focus: session.focus, depth: session.depth });
    await session.start(built, shownTexts(files), keypressEpochMs);
  }

  async undo(): Promise<UndoResult> {
    const outcome = await this.applier.undo();
    if (outcome.status === 'done') for (const session of this.sessions.values()) session.noteJournalChange(outcome.entry.id, true);
    return describeUndo(outcome, 'Undid');
  }

  async redo(): Promise<UndoResult> {
    const outcome = await this.applier.redo();
    if (outcome.status === 'done') for (const session of this.sessions.values()) session.noteJournalChange(outcome.entry.id, false);
    return describeUndo(outcome, 'Redid');
  }

  /** A file changed on disk: pending hunks on it are re-planned on its new text. */
  async noteFileChanged(path: string): Promise<void> {
    // Runs on every external save: read the file only if some hunk depends on it.
    const sessions = [...this.sessions.values()].filter((session) => session.caresAbout(path));
    if (sessions.length === 0) return;
    let text: FileText | null;
    try {
      text = await this.readText(path);
    } catch {
      // Unreadable for now (half-written, not UTF-8, outside the project): not a deletion.
      return;
    }
    for (const session of sessions) session.noteFileChanged(path, text);
  }

  /** Checks the files still kept aside for late writers now; await it before the project closes. */
  finishWrites(): Promise<void> {
    return this.applier.dispose();
  }

  dispose(): void {
    for (const session of this.sessions.values()) session.dispose();
    this.sessions.clear();
    // Files kept aside for late writers are checked now rather than when their timers fire.
    void this.applier.dispose();
  }

  /** Keeps the last few sessions (their hunks may still be decided); older ones are let go. */
  private pruneSessions(): void {
    const ids = [...this.sessions.keys()];
    for (const id of ids.slice(0, Math.max(0, ids.length - KEPT_SESSIONS + 1))) {
      this.sessions.get(id)!.dispose();
      this.sessions.delete(id);
    }
  }

  private session(sessionId: string): EditSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw new FlintFailure('not-found', 'That edit session is over (the project was closed or reopened).');
    return session;
  }

  private async promptFiles(paths: readonly string[]): Promise<Array<{ path: string; text: FileText }>> {
    const files: Array<{ path: string; text: FileText }> = [];
    for (const path of paths) {
      const text = await this.readText(path);
      if (text === null) throw new FlintFailure('not-found', `${path} does not exist (deleted or renamed since it was saved).`);
      files.push({ path, text });
    }
    return files;
  }

  private readText(path: string): Promise<FileText | null> {
    return readProjectText(this.options.root, path);
  }
}

/** Puts back files a crash left taken aside mid-write (in the folders the journal names). */
async function recoverInterruptedWrites(root: string, journal: UndoJournal, warn?: (message: string) => void): Promise<void> {
  const paths = [...journal.touchedPaths].filter((path) => isInsideRoot(root, path));
  const folders = paths.map((path) => parentPath(toPosixRelative(root, path)));
  const images = journal.history.flatMap((entry) => [entry.before, entry.after]).filter((bytes) => bytes !== null);
  const report = await recoverScratchFiles(root, folders, (bytes) => images.some((image) => Buffer.from(image).equals(Buffer.from(bytes))));
  for (const path of report.restored) warn?.(`Flint was interrupted while writing ${path}; the file was put back as it was.`);
  for (const path of report.kept) warn?.(`Flint was interrupted while writing a file; a version it had set aside is kept as ${path}.`);
}

function shownTexts(files: ReadonlyArray<{ path: string; text: FileText }>): Map<string, FileText> {
  return new Map(files.map((file) => [file.path, file.text]));
}

function describeUndo(outcome: UndoOutcome, verb: string): UndoResult {
  switch (outcome.status) {
    case 'done':
      return { status: 'done', path: outcome.entry.path, message: `${verb} the change to ${outcome.entry.path}.` };
    case 'conflict':
    case 'refused':
      return { status: outcome.status, path: outcome.entry.path, message: outcome.message };
    case 'empty':
      return { status: 'empty', message: verb === 'Undid' ? 'Nothing to undo.' : 'Nothing to redo.' };
    default: {
      const exhaustive: never = outcome;
      return exhaustive;
    }
  }
}
