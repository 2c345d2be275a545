/**
 * The ask bar's account of what a question is about: the title (file, language, size),
 * the focus chip (the lines just changed or the whole file), the window note when the
 * file does not fit, and what blocks asking, with the way out.
 */
import type { ReactNode, RefObject } from 'react';
import type { AskBlocker, AskFocus, AskScope, ChangedLines, LineRange } from '../../../../shared/ask-types';

export function AskBarTitle({ titleRef, path, scope, label, onClose }: {
  titleRef: RefObject<HTMLParagraphElement | null>;
  /** The file asked about: main's scope, or the current file until main answers. */
  path: string | null;
  scope: AskScope | null;
  /** Words instead of the file's (a question about the project). */
  label?: ReactNode;
  onClose: () => void;
}) {
  return (
    <p ref={titleRef} className="ask-bar-title" aria-label="Ask scope">
      {label ?? (path ? (
        <>
          Ask about <code>{path}</code>
          {scope?.language ? <span className="ask-bar-meta"> · {scope.language}</span> : null}
          {scope && scope.lineCount > 0 ? <span className="ask-bar-meta"> · {scope.lineCount.toLocaleString()} {scope.lineCount === 1 ? 'line' : 'lines'}</span> : null}
        </>
      ) : (
        'Ask Flint'
      ))}
      <span className="spacer" />
      <button type="button" className="icon" aria-label="Close the ask bar" onClick={onClose}>
        ×
      </button>
    </p>
  );
}

/** The narrow focus the bar offers (the user's selection, else the lines just changed) against the whole file; Alt+W switches. */
export function FocusChip({ change, selection, focus, onToggle }: { change: ChangedLines | null; selection: LineRange | null; focus: AskFocus; onToggle: () => void }) {
  const isNarrow = focus !== 'whole-file';
  const narrow = selection ? describeSelection(selection) : change ? describeChange(change) : null;
  if (!narrow) return null;
  const mine = selection ? 'just my selection' : 'just the lines I changed';
  return (
    <div className="ask-bar-focus">
      <button
        type="button"
        className={`focus-chip${isNarrow ? ' is-on' : ''}`}
        aria-pressed={isNarrow}
        aria-label={`Focus: ${isNarrow ? narrow : 'the whole file'}`}
        onClick={onToggle}
        title={`Alt+W switches between ${selection ? 'your selection' : 'the lines you just changed'} and the whole file`}
      >
        {isNarrow ? narrow : 'The whole file'}
      </button>
      <span className="ask-bar-hint">
        <kbd>Alt+W</kbd> {isNarrow ? 'whole file' : mine}
      </span>
    </div>
  );
}

/** Says which lines are sent when the file is larger than the model's window. */
export function WindowNote({ sent }: { sent: NonNullable<AskScope['window']> }) {
  return (
    <p className="ask-bar-note">
      The file is larger than the model’s window: lines {sent.startLine.toLocaleString()}–{sent.endLine.toLocaleString()} are sent.
    </p>
  );
}

/** Every step missing before a question can go, in order, each with the button that takes it. */
export function BlockerNote({ blockers, isEmphasized, onOpenKey, onOpenFolder }: {
  blockers: readonly AskBlocker[];
  /** The user tried to ask anyway. */
  isEmphasized: boolean;
  onOpenKey: () => void;
  onOpenFolder: () => void;
}) {
  return (
    <div className={`ask-bar-blockers${isEmphasized ? ' is-emphasized' : ''}`} role="alert">
      {blockers.map((blocker) => (
        <p key={blocker.kind} className="ask-bar-blocker">
          {blocker.message}
          {blocker.kind === 'no-key' && (
            <button type="button" onClick={onOpenKey}>
              Add key…
            </button>
          )}
          {blocker.kind === 'no-project' && (
            <button type="button" onClick={onOpenFolder}>
              Open Folder…
            </button>
          )}
        </p>
      ))}
    </div>
  );
}

function describeSelection(selection: LineRange): string {
  const { startLine, endLine } = selection;
  return `${startLine === endLine ? `Line ${startLine}` : `Lines ${startLine}–${endLine}`} (your selection)`;
}

function describeChange(change: ChangedLines): string {
  const lines = change.startLine === change.endLine ? `line ${change.startLine}` : `lines ${change.startLine}–${change.endLine}`;
  const where = change.places > 1 ? `${change.places} places, ${lines}` : lines;
  return `The lines I just changed (${where}, +${change.added} −${change.removed})`;
}
