/**
 * The conversation and the decisions on its hunks: thin, the answer service and the
 * project's edits do the work.
 */
import type { RequestHandlers } from '../contract-host';
import type { AnswerService } from '../ask/answer-service';
import type { AskService } from '../ask/ask-service';
import type { Workspace } from '../workspace/workspace';

export type AnswerHandlers = Pick<
  RequestHandlers,
  | 'prepareAsk'
  | 'askModel'
  | 'stopAnswer'
  | 'redirectAnswer'
  | 'acknowledgeAnswer'
  | 'acceptHunk'
  | 'rejectHunk'
  | 'acceptAllHunks'
  | 'rejectAllHunks'
  | 'undoWrite'
  | 'redoWrite'
>;

export function createAnswerHandlers(ask: AskService, answers: AnswerService, workspace: Workspace): AnswerHandlers {
  const hunks = (sessionId: string) => {
    // Without a project the answer is 'no-project'; with one, only its own answers are found.
    workspace.requireProject();
    return answers.session(sessionId).hunks;
  };
  return {
    prepareAsk: ({ focus }) => ask.prepare(focus),
    askModel: (input) => answers.ask(input),
    stopAnswer: async ({ sessionId }) => {
      answers.stop(sessionId);
      return null;
    },
    redirectAnswer: async ({ sessionId, prompt, keypressEpochMs }) => {
      await answers.redirect(sessionId, prompt, keypressEpochMs);
      return null;
    },
    acknowledgeAnswer: async ({ sessionId }) => {
      answers.acknowledge(sessionId);
      return null;
    },
    acceptHunk: async ({ sessionId, hunkId }) => ({ state: await hunks(sessionId).accept(hunkId) }),
    rejectHunk: async ({ sessionId, hunkId }) => ({ state: hunks(sessionId).reject(hunkId) }),
    acceptAllHunks: async ({ sessionId }) => ({ accepted: await hunks(sessionId).acceptAll() }),
    rejectAllHunks: async ({ sessionId }) => ({ rejected: hunks(sessionId).rejectAll() }),
    undoWrite: () => workspace.requireProject().edits.undo(),
    redoWrite: () => workspace.requireProject().edits.redo(),
  };
}
