/**
 * The ask bar's keys and its submit: Esc stops then closes, Enter asks (a new question,
 * a follow-up, or — while the answer streams — a redirect), Tab queues while it streams,
 * Alt+N switches follow-up / new, Alt+W switches the focus, Alt+P the file or the project.
 * The rules are in `askBarKeyAction`.
 */
import { useRef, type KeyboardEvent, type RefObject } from 'react';
import type { AskFocus, AskScope, LineRange } from '../../../../shared/ask-types';
import type { AnswerDepth } from '../../../../shared/inference-types';
import type { AnswerHandle, SendMode } from '../edits/use-answer';
import { askBarKeyAction } from './ask-bar-keys';
import type { AskBarHandle } from './use-ask-bar';

export interface AskBarKeysOptions {
  bar: AskBarHandle;
  answer: AnswerHandle;
  inputRef: RefObject<HTMLTextAreaElement | null>;
  /** Enter (when nothing streams) continues the conversation on screen rather than starting one. */
  followsUp: boolean;
  /** A conversation is on screen that Alt+N can switch to following up. */
  canFollowUp: boolean;
  onToggleNew: () => void;
  /** Called on every attempt to ask, taken or not (a blocker is then emphasized). */
  onAttempt: () => void;
}

export function useAskBarKeys({ bar, answer, inputRef, followsUp, canFollowUp, onToggleNew, onAttempt }: AskBarKeysOptions): (event: KeyboardEvent<HTMLElement>) => void {
  const { scope, focus, draft, setDraft } = bar;
  const { view } = answer;
  const isStreaming = view?.status === 'streaming';
  const change = scope?.recentChange ?? null;
  /** The session a stop was sent for: a second Esc closes even before 'stopped' arrives. */
  const stopSentRef = useRef<string | null>(null);

  const send = async (depth: AnswerDepth, queue = false): Promise<void> => {
    const text = draft.trim();
    onAttempt();
    const mode: SendMode = isStreaming ? (queue ? 'queue' : 'redirect') : followsUp ? 'follow-up' : 'new';
    if (!text || (scope && scope.blockers.length > 0 && mode === 'new')) return;
    // Cleared only if it is still what was sent: words typed while the request was on its way stay.
    if (await answer.send(text, depth, mode, { ...sentFocus(focus, scope), path: scope?.path ?? null, subject: scope?.subject })) setDraft((current) => (current.trim() === text ? '' : current));
  };

  return (event) => {
    const action = askBarKeyAction(
      { key: event.key, code: event.code, altKey: event.altKey, shiftKey: event.shiftKey, ctrlKey: event.ctrlKey, metaKey: event.metaKey, isInInput: event.target === inputRef.current },
      { isStreaming, isStopSent: view !== null && stopSentRef.current === view.sessionId, hasNarrowFocus: change !== null || Boolean(scope?.selection), hasOtherFile: Boolean(scope?.other), hasDraft: draft.trim() !== '', canFollowUp },
    );
    if (action === null) return;
    event.preventDefault();
    // Esc is the bar's alone: the diff pane's window-level Esc must not act on it as well.
    if (action === 'stop' || action === 'close') event.stopPropagation();
    switch (action) {
      case 'stop':
        stopSentRef.current = view?.sessionId ?? null;
        void answer.stop();
        return;
      case 'close':
        bar.close();
        return;
      case 'ask-fast':
      case 'ask-deep':
        void send(action === 'ask-deep' ? 'deep' : 'fast');
        return;
      case 'queue':
        void send(view?.turns.at(-1)?.depth ?? 'fast', true);
        return;
      case 'toggle-new':
        onToggleNew();
        return;
      case 'toggle-focus':
        bar.toggleFocus();
        return;
      case 'switch-file':
        bar.switchFile();
        return;
      case 'toggle-subject':
        // Without a file that can be sent the question is about the project anyway.
        if (!scope?.subjectNote) bar.toggleSubject();
        return;
      default: {
        const exhaustive: never = action;
        return exhaustive;
      }
    }
  };
}

/** The focus as sent: a focus the scope cannot back (no change, no selection) is the whole file. */
function sentFocus(focus: AskFocus, scope: AskScope | null): { focus: AskFocus; selection?: LineRange } {
  if (focus === 'selection' && scope?.selection) return { focus, selection: scope.selection };
  if (focus === 'recent-change' && scope?.recentChange) return { focus };
  return { focus: 'whole-file' };
}
