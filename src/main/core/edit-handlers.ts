/**
 * The edit part of the contract: thin, the edit service does the work.
 */
import { FlintFailure } from '../../shared/result';
import type { RequestHandlers } from '../contract-host';
import type { EditService } from '../edits/edit-service';

export type EditHandlers = Pick<
  RequestHandlers,
  'askModel' | 'acceptHunk' | 'rejectHunk' | 'acceptAllHunks' | 'rejectAllHunks' | 'stopAnswer' | 'acknowledgeAnswer' | 'redirectAnswer' | 'undoWrite' | 'redoWrite'
>;

/** `edits()` returns the open project's edit service, or null when no project is open. */
export function createEditHandlers(edits: () => EditService | null): EditHandlers {
  const service = (): EditService => {
    const current = edits();
    if (!current) throw new FlintFailure('no-project', 'No project is open. Open a folder first.');
    return current;
  };
  return {
    askModel: (input) => service().start(input),
    acceptHunk: async ({ sessionId, hunkId }) => ({ state: await service().accept(sessionId, hunkId) }),
    rejectHunk: async ({ sessionId, hunkId }) => ({ state: service().reject(sessionId, hunkId) }),
    acceptAllHunks: async ({ sessionId }) => ({ accepted: await service().acceptAll(sessionId) }),
    rejectAllHunks: async ({ sessionId }) => ({ rejected: service().rejectAll(sessionId) }),
    stopAnswer: async ({ sessionId }) => {
      service().stop(sessionId);
      return null;
    },
    acknowledgeAnswer: async ({ sessionId }) => {
      edits()?.acknowledge(sessionId);
      return null;
    },
    redirectAnswer: async ({ sessionId, prompt, keypressEpochMs }) => {
      await service().redirect(sessionId, prompt, undefined, keypressEpochMs);
      return null;
    },
    undoWrite: () => service().undo(),
    redoWrite: () => service().redo(),
  };
}
