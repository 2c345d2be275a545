/**
 * The ask bar: what the question is about (the current file, focused on the lines
 * just changed), the question, and the streamed answer. Change requests' hunks stream
 * into the diff pane beside it.
 *
 * Keys: Enter asks, Alt+Enter asks the deeper model, Shift+Enter is a new line,
 * Alt+W widens to the whole file (and back), Alt+S switches the file (the focused
 * editor's ↔ the one last saved or selected), Alt+P asks about the project instead of the
 * file (and back), `@` completes a project file to send too (↑/↓, Enter or Tab, Esc
 * dismisses the list), Esc stops a streaming answer and a
 * second Esc closes the bar. While an answer streams, Enter redirects it and Tab queues
 * the message for when it ends. After an answer in this opening, Enter follows it up
 * (Alt+N: a new conversation instead).
 */
import { useEffect, useRef, useState } from 'react';
import { useFocusTrap } from '../../lib/use-focus-trap';
import type { AnswerHandle } from '../edits/use-answer';
import { NewTextBelow } from '../follow-stream/NewTextBelow';
import { useFollowStream } from '../follow-stream/use-follow-stream';
import { AskAnswer } from './AskAnswer';
import { AskBarTitle, BlockerNote, FocusChip, WindowNote } from './AskBarScope';
import { DeepModelNote } from './DeepModelNote';
import { FileSource } from './FileSource';
import { MentionCombobox } from './MentionCompletion';
import { NamedFiles, ProjectTitle, SubjectSwitch } from './ProjectScope';
import type { AskBarHandle } from './use-ask-bar';
import { useAskBarKeys } from './use-ask-bar-keys';
import { useBarOpening } from './use-bar-opening';
import { useDocking } from './use-docking';
import './ask-bar-docking.css';
import { useMentionCompletion } from './use-mention-completion';

/** Past this many characters the bar says that the question competes with the file for room. */
const LONG_QUESTION = 20_000;

export interface AskBarProps {
  bar: AskBarHandle;
  /** Known before main answers, so the bar names the file at once. */
  currentFile: string | null;
  /** A project is open: the bar sits over the file view (centered only on the welcome screen). */
  hasProject: boolean;
  shortcutLabel: string;
  /** The shortcut works from other apps too (registered system-wide). */
  systemWide: boolean;
  answer: AnswerHandle;
  onOpenSettings: () => void;
  /** Settings, with focus in the key field of the provider in use. */
  onOpenKey: () => void;
  onOpenFolder: () => void;
  /** Where focus goes when the bar closes (the hunk waiting for a decision); false: back where it was. */
  focusAfterClose?: () => boolean;
}

export function AskBar({ bar, currentFile, hasProject, shortcutLabel, systemWide, answer, onOpenSettings, onOpenKey, onOpenFolder, focusAfterClose }: AskBarProps) {
  const { scope, focus, draft, setDraft } = bar;
  const { view } = answer;
  const isStreaming = view?.status === 'streaming';
  const { inputRef, titleRef, isAttempted, markAttempted, isAnswerShown } = useBarOpening(bar, view, focusAfterClose);
  // After useBarOpening, which focuses the input first and gives focus back itself on close.
  const dialogRef = useRef<HTMLDivElement>(null);
  useFocusTrap(dialogRef, { fallbackRef: inputRef, shouldReturnFocus: false });
  // The file view keeps the hunk waiting out from under the bar; where it cannot, the bar docks at the bottom.
  const isDocked = useDocking(dialogRef);
  // Alt+N flips the default: an opening that shows its own answer follows it up; a new
  // opening starts a new conversation (the one on screen can still be followed up).
  const [isFlipped, setFlipped] = useState(false);
  useEffect(() => setFlipped(false), [bar.openCount]);
  const canFollowUp = view !== null && !isStreaming;
  const followsUp = canFollowUp && isAnswerShown !== isFlipped;
  const onKeyDown = useAskBarKeys({ bar, answer, inputRef, followsUp, canFollowUp, onToggleNew: () => setFlipped((value) => !value), onAttempt: markAttempted });
  const change = scope?.recentChange ?? null;
  const completion = useMentionCompletion(draft, setDraft, inputRef);
  const isProject = scope?.subject === 'project';
  // The answer follows its stream; a new turn or conversation (the user just sent it) comes into view.
  const follow = useFollowStream(`${view?.sessionId}:${view?.turns.at(-1)?.index}`);

  return (
    <div ref={dialogRef} className={`ask-bar${hasProject ? '' : ' is-centered'}${isDocked ? ' is-docked' : ''}`} role="dialog" aria-label="Ask Flint" tabIndex={-1} onKeyDown={onKeyDown}>
      <AskBarTitle titleRef={titleRef} path={scope?.path ?? currentFile} scope={scope} label={isProject ? <ProjectTitle scope={scope} /> : undefined} onClose={bar.close} />
      {scope && !isProject && <FileSource scope={scope} onSwitch={bar.switchFile} />}
      {scope?.project && <SubjectSwitch isProject={isProject} note={scope.subjectNote} onToggle={bar.toggleSubject} />}
      {(change || scope?.selection) && !isProject && <FocusChip change={change} selection={scope?.selection ?? null} focus={focus} onToggle={bar.toggleFocus} />}
      {scope?.selectionNote && !isProject && <p className="ask-bar-meta">{scope.selectionNote}</p>}
      {scope?.window?.truncated && <WindowNote sent={scope.window} />}
      {scope && scope.blockers.length > 0 && (
        <BlockerNote blockers={scope.blockers} isEmphasized={isAttempted} onOpenKey={onOpenKey} onOpenFolder={onOpenFolder} />
      )}
      {scope && <NamedFiles mentions={scope.mentions.filter((status) => status.mention !== completion.typing)} />}
      <MentionCombobox completion={completion}>
        <textarea
          ref={inputRef}
          aria-label="Ask Flint"
          rows={2}
          placeholder={isStreaming ? 'Type to redirect the answer (Enter), or queue a message (Tab)…' : followsUp ? 'Follow up…' : 'Ask a question or describe a change · @ names a file'}
          value={draft}
          aria-autocomplete="list"
          aria-controls={completion.listId}
          aria-activedescendant={completion.isOpen ? completion.optionId(completion.active) : undefined}
          onChange={(event) => {
            setDraft(event.target.value);
            completion.onCaret(event);
          }}
          onSelect={completion.onCaret}
          onKeyDown={(event) => {
            // The open list takes its keys first: Enter completes rather than asks, Esc closes the list, not the bar.
            if (!completion.onKeyDown(event)) return;
            event.preventDefault();
            event.stopPropagation();
          }}
        />
      </MentionCombobox>
      <DeepModelNote refusal={answer.refusal} draft={draft} onOpenSettings={onOpenSettings} />
      {canFollowUp && <ModeNote followsUp={followsUp} title={view.title} />}
      <AskHints isStreaming={isStreaming} shortcutLabel={shortcutLabel} systemWide={systemWide} draftLength={draft.length} />
      {isAnswerShown && view && <AskAnswer view={view} prose={answer.prose} follow={follow} />}
      {/* Out of the answer's live region, over its bottom; once it is gone, the focus trap gives focus back to the input. */}
      {isAnswerShown && view && <NewTextBelow follow={follow} />}
    </div>
  );
}

function AskHints({ isStreaming, shortcutLabel, systemWide, draftLength }: {
  isStreaming: boolean;
  shortcutLabel: string;
  systemWide: boolean;
  draftLength: number;
}) {
  return (
    <div className="ask-bar-hints">
      {isStreaming ? (
        <span>
          <kbd>Enter</kbd> redirect (interrupts) · <kbd>Tab</kbd> queue for when it ends · <kbd>Esc</kbd> stop
        </span>
      ) : (
        <span>
          <kbd>Enter</kbd> ask · <kbd>Alt+Enter</kbd> deeper model · <kbd>Esc</kbd> close · <kbd>{shortcutLabel}</kbd> {systemWide ? 'from any app' : 'reopens'}
        </span>
      )}
      {draftLength > LONG_QUESTION && (
        <span className="ask-bar-meta">{draftLength.toLocaleString()} characters: a long request leaves less room for the file.</span>
      )}
    </div>
  );
}

/** Whether Enter continues the conversation on screen or starts a new one (Alt+N switches). */
function ModeNote({ followsUp, title }: { followsUp: boolean; title: string }) {
  return (
    <p className="ask-bar-mode" aria-label="Ask mode">
      {followsUp ? (
        <>
          Follows up “{title}” · <kbd>Alt+N</kbd> new conversation
        </>
      ) : (
        <>
          New conversation · <kbd>Alt+N</kbd> follow up “{title}” instead
        </>
      )}
    </p>
  );
}
