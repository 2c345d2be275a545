/**
 * The live diff: the answer and its hunks stream in and are decided while the model
 * writes. Questions are asked in the ask bar; this pane keeps the answer.
 *
 * Keys: Esc stops a streaming answer, A / R accept or reject the focused hunk.
 */
import { useEffect } from 'react';
import { flint } from '../../lib/flint';
import { AnswerBlock } from './AnswerBlock';
import { HistoryList } from './HistoryList';
import type { AnswerHandle } from './use-answer';

export interface EditPaneProps {
  currentFile: string | null;
  answer: AnswerHandle;
  shortcutLabel: string;
  onAsk: () => void;
  onOpenSettings: () => void;
  onError: (message: string) => void;
  onNotice: (message: string) => void;
}

export function EditPane({ currentFile, answer, shortcutLabel, onAsk, onOpenSettings, onError, onNotice }: EditPaneProps) {
  const { view, stop } = answer;
  const isStreaming = view?.status === 'streaming';
  useStopOnEscape(isStreaming, stop);
  return (
    <section className="edit-pane" aria-label="Flint">
      <AskBox
        currentFile={currentFile}
        isStreaming={isStreaming}
        shortcutLabel={shortcutLabel}
        onStop={() => void stop()}
        onAsk={onAsk}
        onUndo={() => void undoLastWrite(onError, onNotice)}
      />
      {answer.conversations.length > 0 && <HistoryList conversations={answer.conversations} shownId={view?.sessionId ?? null} onShow={(id) => void answer.show(id)} />}
      {view && <AnswerBlock view={view} answer={answer} onOpenSettings={onOpenSettings} />}
    </section>
  );
}

interface AskBoxProps {
  currentFile: string | null;
  isStreaming: boolean;
  shortcutLabel: string;
  onStop: () => void;
  onAsk: () => void;
  onUndo: () => void;
}

/** The pane's head: what a question would be about, Ask (or Stop while streaming), Undo. */
function AskBox({ currentFile, isStreaming, shortcutLabel, onStop, onAsk, onUndo }: AskBoxProps) {
  return (
    <div className="ask-box">
      <span className="ask-scope">
        {currentFile ?? 'No current file: save one in your editor, or select one'}
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
        <button type="button" onClick={onUndo} title="Undo the last change Flint wrote">
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

/** Undoes the last write Flint made; a conflict or refusal is an error, success a notice. */
async function undoLastWrite(onError: (message: string) => void, onNotice: (message: string) => void): Promise<void> {
  const result = await flint.undoWrite({});
  if (!result.ok) onError(result.error.message);
  else if (result.value.status === 'conflict' || result.value.status === 'refused') onError(result.value.message);
  else onNotice(result.value.message);
}
