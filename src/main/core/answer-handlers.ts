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
  | 'queueAnswer'
  | 'retryTurn'
  | 'cancelRetry'
  | 'listConversations'
  | 'getConversation'
  | 'acknowledgeAnswer'
  | 'acceptHunk'
  | 'revertHunk'
  | 'rejectHunk'
  | 'restoreHunk'
  | 'acceptAllHunks'
  | 'rejectAllHunks'
  | 'undoDecision'
  | 'redoDecision'
>;

export function createAnswerHandlers(ask: AskService, answers: AnswerService, workspace: Workspace): AnswerHandlers {
  const hunks = (sessionId: string) => {
    // Without a project the answer is 'no-project'; with one, only its own answers are found.
    workspace.requireProject();
    return answers.conversation(sessionId).hunks;
  };
  return {
    prepareAsk: ({ focus, subject, mentions }) => ask.prepare(focus, { subject, mentions }),
    askModel: (input) => answers.ask(input),
    stopAnswer: async ({ sessionId }) => {
      answers.stop(sessionId);
      return null;
    },
    redirectAnswer: async ({ sessionId, prompt, keypressEpochMs, depth }) => {
      await answers.redirect(sessionId, prompt, keypressEpochMs, depth);
      return null;
    },
    queueAnswer: async ({ sessionId, prompt, depth }) => {
      await answers.queue(sessionId, prompt, depth);
      return null;
    },
    retryTurn: async ({ sessionId, turn, depth }) => {
      await answers.retry(sessionId, turn, depth);
      return null;
    },
    cancelRetry: async ({ sessionId }) => {
      answers.cancelRetry(sessionId);
      return null;
    },
    // Without a project there is no history: an empty list, not an error (the renderer asks on every load).
    listConversations: async () => (workspace.project ? answers.conversations() : []),
    getConversation: async ({ sessionId }) => {
      workspace.requireProject();
      return answers.full(sessionId);
    },
    acknowledgeAnswer: async ({ sessionId }) => {
      answers.acknowledge(sessionId);
      return null;
    },
    acceptHunk: async ({ sessionId, hunkId, revision }) => ({ state: await hunks(sessionId).accept(hunkId, undefined, revision) }),
    revertHunk: async ({ sessionId, hunkId }) => ({ state: await hunks(sessionId).revert(hunkId) }),
    rejectHunk: async ({ sessionId, hunkId }) => ({ state: hunks(sessionId).reject(hunkId) }),
    restoreHunk: async ({ sessionId, hunkId }) => ({ state: await hunks(sessionId).restoreRejected(hunkId) }),
    acceptAllHunks: async ({ sessionId, revisions }) => ({ accepted: await hunks(sessionId).acceptAll(revisions) }),
    rejectAllHunks: async ({ sessionId }) => ({ rejected: hunks(sessionId).rejectAll() }),
    undoDecision: () => workspace.requireProject().edits.undo(),
    redoDecision: () => workspace.requireProject().edits.redo(),
  };
}
