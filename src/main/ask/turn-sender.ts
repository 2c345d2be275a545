/**
 * Sends one turn of a conversation: reads the files it is about as they are now, tells
 * the model what the user decided since its last answer (the note), adds the earlier
 * turns for a follow-up, and opens the stream. Whatever goes wrong after the turn was
 * added fails the turn — its words stay, with Retry — rather than the request.
 */
import type { TurnView } from '../../shared/ask-types';
import { FlintFailure } from '../../shared/result';
import type { FileText } from '../fs/file-text';
import type { OpenProject } from '../workspace/open-project';
import type { Conversation } from './conversation';
import { historyMessages, questionWithNote } from './conversation-record';
import type { BuiltPrompt, PromptRequest } from './prompt-builder';
import { namedPromptFiles } from './project-question';

/** `named`: named with `@path` besides the files asked about (cut for room rather than refused). */
export type PromptFile = { path: string; text: FileText; named?: boolean };

/** A question's files and prompt, ready before its conversation exists. */
export interface PreparedTurn {
  /** The files asked about: the conversation keeps them for every later turn. */
  files: PromptFile[];
  /** The files its words named with `@path`. */
  named: PromptFile[];
  prompt: BuiltPrompt;
}

export interface TurnSenderOptions {
  buildPrompt: (request: PromptRequest) => Promise<BuiltPrompt>;
  /** Whether `project` is still the open one (preparing awaits reads and the tokenizer). */
  isOpen: (project: OpenProject) => boolean;
}

export class TurnSender {
  constructor(private readonly options: TurnSenderOptions) {}

  /**
   * Sends `turn`; a first question comes `prepared` (its files read and its prompt built
   * while the request could still be refused). Never throws: a failure is the turn's.
   */
  async send(conversation: Conversation, turn: TurnView, project: OpenProject, keypressEpochMs?: number, prepared?: PreparedTurn): Promise<void> {
    // A queued turn takes effect now: a redirect or Esc while it is prepared reaches it.
    conversation.beginSending(turn);
    try {
      const note = conversation.hunks.decisions.peek();
      const texts = prepared?.files ?? (await promptFiles(project, conversation.paths));
      // Files named in any turn so far stay in the conversation, as they are now (a gone one is left out).
      const named = prepared?.named ?? (await namedPromptFiles(project, [...conversation.turnsBefore(turn.index).map((before) => before.text), turn.text], texts));
      const files = [...texts, ...named];
      const built = prepared && note.length === 0 ? prepared.prompt : await this.options.buildPrompt({ files, question: questionWithNote(turn.text, note), ...conversation.focus, depth: turn.depth });
      if (!this.options.isOpen(project)) throw closedMeanwhile();
      const history = historyMessages(conversation.turnsBefore(turn.index));
      // The named files' hunks anchor on what the model was shown too; only the files asked about become the conversation's.
      conversation.hunks.noteShown(new Map(named.map((file) => [file.path, file.text])));
      const opened = await conversation.open(turn, { ...built, history }, new Map(texts.map((file) => [file.path, file.text])), keypressEpochMs);
      // Only a request that went out told the model: then the next note starts afresh (decisions made meanwhile stay).
      if (!opened || note.length === 0) return;
      conversation.hunks.decisions.forget(note);
      conversation.setNote(turn, note);
    } catch (error) {
      if (!conversation.isOver) conversation.fail(turn, error);
    }
  }
}

/**
 * The files' texts as the model will see them: each path checked first (the renderer's
 * paths are untrusted), then a save still being written waited for (bounded).
 */
export async function promptFiles(project: OpenProject, paths: readonly string[]): Promise<PromptFile[]> {
  const files: PromptFile[] = [];
  for (const requested of paths) {
    const { relativePath: path } = await project.files.resolve(requested, 'model');
    await project.history.settledLines(path).catch(() => undefined);
    const text = await project.files.readText(path);
    if (text === null) throw new FlintFailure('not-found', `${path} does not exist (deleted or renamed since it was asked about).`);
    files.push({ path, text });
  }
  return files;
}

export function closedMeanwhile(): FlintFailure {
  return new FlintFailure('no-project', 'The project was closed before the question was sent; nothing was asked.');
}
