/**
 * Where the file the bar asks about came from — focused in the user's editor, last saved,
 * or selected in Flint — with the other candidate one key away (Alt+S), and, when the
 * focused window named no file of the project, what it showed and the files it may mean.
 */
import type { AskScope } from '../../../../shared/ask-types';
import type { FileCandidate } from '../../../../shared/project-types';
import { flint } from '../../lib/flint';

export function FileSource({ scope, onSwitch }: { scope: AskScope; onSwitch: () => void }) {
  const { path, source, editor, other, windowNote } = scope;
  if (!path && !windowNote) return null;
  return (
    <div className="ask-bar-source">
      {path && source && (
        <p className="ask-bar-meta" aria-label="Where the file came from">
          {describeSource({ path, source, ...(editor ? { editor } : {}) })}
          {other && (
            <>
              {' · '}
              <button type="button" className="link-button" onClick={onSwitch} aria-keyshortcuts="Alt+S">
                Ask about <code>{other.path}</code> ({describeSource(other)}) instead
              </button>{' '}
              <kbd>Alt+S</kbd>
            </>
          )}
        </p>
      )}
      {windowNote && (
        <p className="ask-bar-window" role="status" aria-label="The focused window">
          {windowNote.message}
          {windowNote.candidates.map((candidate) => (
            <button key={candidate} type="button" className="candidate" onClick={() => void flint.selectFile({ path: candidate })}>
              {candidate}
            </button>
          ))}
        </p>
      )}
    </div>
  );
}

function describeSource(candidate: FileCandidate): string {
  switch (candidate.source) {
    case 'focused':
      return `focused in ${candidate.editor ?? 'your editor'}`;
    case 'saved':
      return 'last saved';
    case 'selected':
      return 'selected in Flint';
  }
}
