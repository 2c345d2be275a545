/**
 * The ask bar's account of a question beyond the current file: "Ask about the project"
 * (the title, the switch, why it is on when the user did not choose it) and the files
 * the question names with `@path`, each with what main made of it.
 */
import type { AskScope } from '../../../../shared/ask-types';
import type { MentionStatus } from '../../../../shared/mentions';

/** The title's words for a question about the project. */
export function ProjectTitle({ scope }: { scope: AskScope }) {
  const named = sentFiles(scope.mentions).length;
  return (
    <>
      Ask about the project
      <span className="ask-bar-meta">
        {' '}
        · outline{named > 0 ? ` + ${named} ${named === 1 ? 'file' : 'files'} named` : ''}
      </span>
    </>
  );
}

/**
 * The switch between the current file and the project (Alt+P). Without a file that can
 * be sent it stays on, and says why.
 */
export function SubjectSwitch({ isProject, note, onToggle }: { isProject: boolean; note: string | null; onToggle: () => void }) {
  const isForced = note !== null;
  return (
    <div className="ask-bar-focus">
      <button
        type="button"
        className={`focus-chip${isProject ? ' is-on' : ''}`}
        aria-pressed={isProject}
        disabled={isForced}
        onClick={onToggle}
        title="Alt+P switches between the current file and the whole project"
      >
        Ask about the project
      </button>
      {isForced ? <span className="ask-bar-hint">{note}</span> : (
        <span className="ask-bar-hint">
          <kbd>Alt+P</kbd> {isProject ? 'back to the current file' : 'the project instead of this file'} · <kbd>@</kbd> names files
        </span>
      )}
    </div>
  );
}

/** The named files: those going with the question on one line, each problem on its own. */
export function NamedFiles({ mentions }: { mentions: readonly MentionStatus[] }) {
  if (mentions.length === 0) return null;
  const sent = sentFiles(mentions);
  const problems = mentions.filter((status) => status.message !== undefined);
  return (
    <div className="ask-bar-named" aria-label="Named files">
      {sent.length > 0 && (
        <p className="ask-bar-named-sent">
          + {sent.map((status, index) => (
            <span key={status.path}>
              {index > 0 && ', '}
              <code>{status.path}</code>
            </span>
          ))}
        </p>
      )}
      {problems.length > 0 && (
        <ul className="ask-bar-named-problems">
          {problems.map((status) => (
            <li key={status.mention} className={`is-${status.state}`}>
              {status.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The named files that go with the question, whole or in part. */
function sentFiles(mentions: readonly MentionStatus[]): Array<MentionStatus & { path: string }> {
  return mentions.filter((status): status is MentionStatus & { path: string } => status.path !== null && (status.state === 'sent' || status.state === 'partial'));
}
