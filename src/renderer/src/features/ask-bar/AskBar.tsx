/**
 * The ask bar: what the question is about (the current file, focused on the lines
 * just changed), the question, and the streamed answer. Change requests' hunks stream
 * into the diff pane beside it.
 *
 * Keys: Enter asks, Alt+Enter asks the deeper model, Shift+Enter is a new line,
 * Alt+W widens to the whole file (and back), Esc stops a streaming answer and a
 * second Esc closes the bar. Typing while an answer streams redirects it.
 */
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AskScope } from '../../../../shared/ask-types';
import { markElementPainted } from '../../lib/paint-marks';
import type { EditSessionHandle } from '../edits/use-edit-session';
import { MarkdownAnswer } from '../markdown/LazyMarkdownAnswer';
import type { AskBarHandle } from './use-ask-bar';

/** Past this many characters the bar says that the question competes with the file for room. */
const LONG_QUESTION = 20_000;

export interface AskBarProps {
  bar: AskBarHandle;
  /** Known before main answers, so the bar names the file at once. */
  currentFile: string | null;
  shortcutLabel: string;
  /** The shortcut works from other apps too (registered system-wide). */
  systemWide: boolean;
  edit: EditSessionHandle;
  onOpenSettings: () => void;
  onOpenFolder: () => void;
}

export function AskBar({ bar, currentFile, shortcutLabel, systemWide, edit, onOpenSettings, onOpenFolder }: AskBarProps) {
  const { scope, focus } = bar;
  const { session } = edit;
  const { draft: prompt, setDraft: setPrompt } = bar;
  const [attempted, setAttempted] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const titleRef = useRef<HTMLParagraphElement>(null);
  const returnFocusRef = useRef<HTMLElement | null>(null);
  /** The session a stop was sent for: a second Esc closes even before 'stopped' arrives. */
  const stopSentRef = useRef<string | null>(null);
  /** The session that was on screen when the bar opened: an older answer is not shown as this one's. */
  const [sessionAtOpen, setSessionAtOpen] = useState<string | null>(session?.sessionId ?? null);
  const streaming = session?.status === 'streaming';

  useLayoutEffect(() => {
    if (titleRef.current) markElementPainted(titleRef.current, `ask-bar-${bar.openCount}`, bar.openedAtEpochMs, 'flint:bar-painted');
    if (document.activeElement !== inputRef.current) returnFocusRef.current ??= document.activeElement as HTMLElement | null;
    inputRef.current?.focus();
    setAttempted(false);
    setSessionAtOpen((current) => (streaming ? null : (session?.sessionId ?? current)));
    // Each opening (not each render) re-focuses and re-marks.
  }, [bar.openCount]);

  useEffect(() => () => returnFocusRef.current?.focus(), []);

  const path = scope?.path ?? currentFile;
  const blocker = scope?.blocker ?? null;
  const change = scope?.recentChange ?? null;
  const showAnswer = session !== null && (streaming || session.sessionId !== sessionAtOpen);

  const send = async (depth: 'fast' | 'deep'): Promise<void> => {
    const text = prompt.trim();
    setAttempted(true);
    if (!text || (blocker && !streaming)) return;
    if (await edit.start(text, depth, { focus: change ? focus : 'whole-file', path: scope?.path ?? null })) setPrompt('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      if (streaming && session && stopSentRef.current !== session.sessionId) {
        stopSentRef.current = session.sessionId;
        void edit.stop();
      } else bar.close();
    } else if (event.key === 'Enter' && !event.shiftKey && event.target === inputRef.current) {
      event.preventDefault();
      void send(event.altKey ? 'deep' : 'fast');
    } else if (event.altKey && event.code === 'KeyW' && change) {
      event.preventDefault();
      bar.setFocus(focus === 'recent-change' ? 'whole-file' : 'recent-change');
    }
  };

  const hunkCount = session?.order.length ?? 0;
  return (
    <div className={`ask-bar${scope?.project ? '' : ' is-centered'}`} role="dialog" aria-label="Ask Flint" onKeyDown={onKeyDown}>
      <p ref={titleRef} className="ask-bar-title" aria-label="Ask scope">
        {path ? (
          <>
            Ask about <code>{path}</code>
            {scope?.language ? <span className="ask-bar-meta"> · {scope.language}</span> : null}
            {scope && scope.lineCount > 0 ? <span className="ask-bar-meta"> · {scope.lineCount.toLocaleString()} lines</span> : null}
          </>
        ) : (
          'Ask Flint'
        )}
        <span className="spacer" />
        <button type="button" className="icon" aria-label="Close the ask bar" onClick={bar.close}>
          ×
        </button>
      </p>
      {change && (
        <div className="ask-bar-focus">
          <button
            type="button"
            className={`focus-chip${focus === 'recent-change' ? ' is-on' : ''}`}
            aria-pressed={focus === 'recent-change'}
            onClick={() => bar.setFocus(focus === 'recent-change' ? 'whole-file' : 'recent-change')}
            title="Alt+W switches between the lines you just changed and the whole file"
          >
            {focus === 'recent-change' ? describeChange(change) : 'The whole file'}
          </button>
          <span className="ask-bar-hint">
            <kbd>Alt+W</kbd> {focus === 'recent-change' ? 'whole file' : 'just the lines I changed'}
          </span>
        </div>
      )}
      {scope?.window?.truncated && (
        <p className="ask-bar-note">
          The file is larger than the model’s window: lines {scope.window.startLine.toLocaleString()}–{scope.window.endLine.toLocaleString()} are sent.
        </p>
      )}
      {blocker && (
        <p className={`ask-bar-blocker${attempted ? ' is-emphasized' : ''}`} role="alert">
          {blocker.message}
          {blocker.kind === 'no-key' && (
            <button type="button" onClick={onOpenSettings}>
              Open Settings
            </button>
          )}
          {blocker.kind === 'no-project' && (
            <button type="button" onClick={onOpenFolder}>
              Open Folder…
            </button>
          )}
        </p>
      )}
      <textarea
        ref={inputRef}
        aria-label="Ask Flint"
        rows={2}
        placeholder={streaming ? 'Type to redirect the answer…' : 'Ask a question or describe a change'}
        value={prompt}
        onChange={(event) => setPrompt(event.target.value)}
      />
      <div className="ask-bar-hints">
        <span>
          <kbd>Enter</kbd> ask · <kbd>Alt+Enter</kbd> deeper model · <kbd>Esc</kbd> {streaming ? 'stop' : 'close'} · <kbd>{shortcutLabel}</kbd> {systemWide ? 'from any app' : 'reopens'}
        </span>
        {prompt.length > LONG_QUESTION && (
          <span className="ask-bar-meta">{prompt.length.toLocaleString()} characters: a long request leaves less room for the file.</span>
        )}
      </div>
      {showAnswer && session && (
        <div className="ask-bar-answer" aria-label="Answer" aria-live="polite" aria-busy={streaming}>
          {session.prose.trim() ? <MarkdownAnswer text={session.prose} /> : streaming ? <p className="ask-bar-meta">Thinking…</p> : null}
          {hunkCount > 0 && (
            <p className="ask-bar-meta" aria-label="Proposed changes">
              {hunkCount} {hunkCount === 1 ? 'change' : 'changes'} in the diff pane: <kbd>A</kbd> accept, <kbd>R</kbd> reject.
            </p>
          )}
          {session.message && <p className="form-error">{session.message}</p>}
          {session.status === 'stopped' && <p className="ask-bar-meta">Stopped.</p>}
        </div>
      )}
    </div>
  );
}

function describeChange(change: NonNullable<AskScope['recentChange']>): string {
  const lines = change.startLine === change.endLine ? `line ${change.startLine}` : `lines ${change.startLine}–${change.endLine}`;
  const where = change.places > 1 ? `${change.places} places, ${lines}` : lines;
  return `The lines I just changed (${where}, +${change.added} −${change.removed})`;
}
