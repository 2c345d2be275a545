/**
 * The live diff: the answer and its hunks stream in and are decided while the model
 * writes. Questions are asked in the ask bar; this pane keeps the answer.
 *
 * Keys: Esc stops a streaming answer; the review's keys (review-keys.ts) work from
 * anywhere; A / R also accept or reject the focused hunk card.
 */
import { useEffect, useMemo } from 'react';
import { isMac } from '../../lib/platform';
import { reviewKeyLabels } from '../review/review-keys';
import type { ReviewHandle } from '../review/use-review';
import { AnswerBlock } from './AnswerBlock';
import { HistoryList } from './HistoryList';
import type { AnswerHandle } from './use-answer';

export interface EditPaneProps {
  currentFile: string | null;
  answer: AnswerHandle;
  review: ReviewHandle;
  shortcutLabel: string;
  onAsk: () => void;
  onOpenSettings: () => void;
}

export function EditPane({ currentFile, answer, review, shortcutLabel, onAsk, onOpenSettings }: EditPaneProps) {
  const { view, stop } = answer;
  const isStreaming = view?.status === 'streaming';
  useStopOnEscape(isStreaming, stop);
  const keys = useMemo(() => {
    const labels = reviewKeyLabels(isMac);
    return { accept: labels.accept, reject: labels.reject, acceptAll: labels['accept-all'], rejectAll: labels['reject-all'], undo: labels.undo };
  }, []);
  return (
    <section className="edit-pane" aria-label="Flint">
      <AskBox
        currentFile={currentFile}
        isStreaming={isStreaming}
        shortcutLabel={shortcutLabel}
        onStop={() => void stop()}
        onAsk={onAsk}
        undoKey={keys.undo}
        onUndo={() => void review.undo()}
      />
      {answer.conversations.length > 0 && <HistoryList conversations={answer.conversations} shownId={view?.sessionId ?? null} onShow={(id) => void answer.show(id)} />}
      {/* A new conversation mounts new cards: hunk ids repeat from one to the next. */}
      {view && <AnswerBlock key={view.sessionId} view={view} answer={answer} review={review} keys={keys} onOpenSettings={onOpenSettings} />}
    </section>
  );
}

interface AskBoxProps {
  currentFile: string | null;
  isStreaming: boolean;
  shortcutLabel: string;
  onStop: () => void;
  onAsk: () => void;
  undoKey: string;
  onUndo: () => void;
}

const NO_FILE = 'No current file: save one in your editor, or select one';

/** The pane's head: what a question would be about, Ask (or Stop while streaming), Undo. */
function AskBox({ currentFile, isStreaming, shortcutLabel, onStop, onAsk, undoKey, onUndo }: AskBoxProps) {
  return (
    <div className="ask-box">
      {/* The whole text on hover: a long path is cut at its start, keeping the file's name (styles.css). */}
      <span className={`ask-scope ${currentFile ? 'is-path' : 'is-none'}`} title={currentFile ?? NO_FILE}>
        {currentFile ? <bdi>{currentFile}</bdi> : NO_FILE}
      </span>
      <div className="ask-actions">
        {isStreaming ? (
          <button type="button" onClick={onStop} title="Stop (Esc)">
            Stop
          </button>
        ) : (
          <button type="button" className="primary" onClick={onAsk} title={`Ask Flint (${shortcutLabel})`}>
            Ask… <kbd>{shortcutLabel}</kbd>
          </button>
        )}
        <button type="button" onClick={onUndo} title={`Undo the last decision: a rejected hunk waits again, a written one comes off disk (${undoKey}); an Accept all is one step`}>
          Undo
        </button>
      </div>
    </div>
  );
}

/**
 * Esc anywhere stops a streaming answer, unless something nearer took it first (the ask
 * bar, Settings, the folder path field handle their own Esc and mark it handled).
 */
function useStopOnEscape(isStreaming: boolean, stop: () => Promise<unknown>): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.key !== 'Escape' || !isStreaming || event.defaultPrevented) return;
      event.preventDefault();
      void stop();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [isStreaming, stop]);
}
