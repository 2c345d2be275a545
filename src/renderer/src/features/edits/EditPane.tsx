/**
 * The live diff: the answer and its hunks stream in and are decided while the model
 * writes. Questions are asked in the ask bar; this pane keeps the session.
 *
 * Keys: Esc stops a streaming answer, A / R accept or reject the focused hunk.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import { flint } from '../../lib/flint';
import { MarkdownAnswer } from '../markdown/LazyMarkdownAnswer';
import { HunkCard } from './HunkCard';
import type { EditSessionHandle } from './use-edit-session';

export interface EditPaneProps {
  currentFile: string | null;
  edit: EditSessionHandle;
  shortcutLabel: string;
  onAsk: () => void;
  onError: (message: string) => void;
  onNotice: (message: string) => void;
}

export function EditPane({ currentFile, edit, shortcutLabel, onAsk, onError, onNotice }: EditPaneProps) {
  const { session, lines, stop, accept, reject, acceptAll, rejectAll } = edit;
  const streaming = session?.status === 'streaming';
  const scrollRef = useRef<HTMLDivElement>(null);
  /** Follow the stream while the user is at the bottom; stop following when they scroll up. */
  const followRef = useRef(true);
  const hunkCount = session?.order.length ?? 0;
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element && followRef.current) element.scrollTop = element.scrollHeight;
  }, [hunkCount, session?.prose]);

  useEffect(() => {
    const onKeyDown = (event: globalThis.KeyboardEvent): void => {
      if (event.key === 'Escape' && streaming) {
        event.preventDefault();
        void stop();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [streaming, stop]);

  const undo = async (): Promise<void> => {
    const result = await flint.undoWrite({});
    if (!result.ok) onError(result.error.message);
    else if (result.value.status === 'conflict' || result.value.status === 'refused') onError(result.value.message);
    else onNotice(result.value.message);
  };

  const pendingCount = session ? session.order.filter((id) => session.hunks[id]!.state === 'pending').length : 0;
  return (
    <section className="edit-pane" aria-label="Flint">
      <div className="ask-box">
        <span className="ask-scope">
          {currentFile ?? 'No current file: save one in your editor, or select one'}
        </span>
        <div className="ask-actions">
          {streaming ? (
            <button type="button" onClick={() => void stop()} title="Stop (Esc)">
              Stop
            </button>
          ) : (
            <button type="button" className="primary" onClick={onAsk} title={`Ask Flint (${shortcutLabel})`}>
              Ask… <kbd>{shortcutLabel}</kbd>
            </button>
          )}
          <button type="button" onClick={() => void undo()} title="Undo the last change Flint wrote">
            Undo
          </button>
        </div>
      </div>
      {session && (
        <div
          ref={scrollRef}
          className="edit-session"
          aria-live="polite"
          data-session={session.sessionId}
          onScroll={(event) => {
            const element = event.currentTarget;
            followRef.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
          }}
        >
          <div className="edit-session-bar">
            <span className={`edit-status is-${session.status}`} aria-label="Edit status">
              {session.status === 'streaming' ? 'Streaming…' : session.status === 'complete' ? 'Answer complete' : session.status === 'stopped' ? 'Stopped' : 'Failed'}
            </span>
            <span className="spacer" />
            <button type="button" onClick={() => void acceptAll()} disabled={pendingCount === 0}>
              Accept all
            </button>
            <button type="button" onClick={() => void rejectAll()} disabled={session.order.length === 0}>
              Reject all
            </button>
          </div>
          {session.message && <p role="alert" className="form-error">{session.message}</p>}
          {session.prose.trim() && (
            <div className="edit-prose" aria-label="Answer">
              <MarkdownAnswer text={session.prose} />
            </div>
          )}
          {session.order.map((id) => (
            <HunkCard key={id} hunk={session.hunks[id]!} store={lines} onAccept={accept} onReject={reject} />
          ))}
          {session.problems.length > 0 && (
            <details className="edit-problems">
              <summary>{session.problems.length} note(s) about the model’s output</summary>
              <ul>
                {session.problems.map((problem, index) => (
                  <li key={index}>{problem}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </section>
  );
}
