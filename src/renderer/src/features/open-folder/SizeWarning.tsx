/**
 * The warning over a folder too large to open without asking — the home folder, `/`, or
 * one whose scan passed the limit — with the count found so far (the scan goes on behind
 * it), Cancel (closes the project) and Open anyway (shows the tree and starts watching).
 */
import type { SizeWarning as Warning } from '../../../../shared/project-types';
import { flint } from '../../lib/flint';

export interface SizeWarningProps {
  projectId: number;
  root: string;
  warning: Warning;
  /** The latest count (progress events are newer than the warning's own). */
  entriesFound: number;
  onError: (message: string) => void;
}

export function SizeWarning({ projectId, root, warning, entriesFound, onError }: SizeWarningProps) {
  const report = (result: { ok: boolean; error?: { message: string } }): void => {
    if (!result.ok && result.error) onError(result.error.message);
  };
  const count = entriesFound.toLocaleString();
  return (
    <section className="size-warning" aria-labelledby="size-warning-title">
      <p id="size-warning-title" className="size-warning-title" role="alert">
        {headline(warning, root)}
      </p>
      <p>
        Flint indexes and watches everything in a folder it opens: other programs’ files and caches would fill the tree, and their writes would keep changing it. Open a project inside it instead,
        or open it anyway.
      </p>
      <p className="size-warning-count">
        {warning.scanDone ? `${count} entries found. The tree and live updates wait for your answer.` : `${count} entries found so far… (still counting)`}
      </p>
      <div className="size-warning-actions">
        <button type="button" onClick={() => void flint.closeProject({}).then(report)}>
          Cancel
        </button>
        <button type="button" onClick={() => void flint.openProjectAnyway({ projectId }).then(report)}>
          Open anyway
        </button>
      </div>
    </section>
  );
}

function headline(warning: Warning, root: string): string {
  switch (warning.reason) {
    case 'home':
      return `${root} is your home folder.`;
    case 'root':
      return `${root} is the root of the file system.`;
    case 'large':
      return `${root} is a very large folder.`;
    default: {
      const exhaustive: never = warning.reason;
      return exhaustive;
    }
  }
}
