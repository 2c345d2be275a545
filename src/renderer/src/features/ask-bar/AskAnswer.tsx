/**
 * The answer under the question: its prose as Markdown, a pointer to the diff pane when
 * it proposes changes, and how it ended (an error, or stopped).
 */
import type { AnswerView } from '../edits/answer-view';
import { MarkdownAnswer } from '../markdown/LazyMarkdownAnswer';

export function AskAnswer({ view }: { view: AnswerView }) {
  const isStreaming = view.status === 'streaming';
  const hunkCount = view.order.length;
  return (
    <div className="ask-bar-answer" aria-label="Answer" aria-live="polite" aria-busy={isStreaming}>
      {view.prose.trim() ? <MarkdownAnswer text={view.prose} /> : isStreaming ? <p className="ask-bar-meta">Thinking…</p> : null}
      {hunkCount > 0 && (
        <p className="ask-bar-meta" aria-label="Proposed changes">
          {hunkCount} {hunkCount === 1 ? 'change' : 'changes'} in the diff pane: <kbd>A</kbd> accept, <kbd>R</kbd> reject.
        </p>
      )}
      {view.message && <p className="form-error">{view.message}</p>}
      {view.status === 'stopped' && <p className="ask-bar-meta">Stopped.</p>}
    </div>
  );
}
