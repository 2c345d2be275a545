/**
 * The status bar: indexing progress and the current file.
 */
import type { CurrentFile } from '../../../../shared/project-types';

export interface StatusBarProps {
  indexing: number | null;
  entryCount: number;
  currentFile: CurrentFile;
}

export function StatusBar({ indexing, entryCount, currentFile }: StatusBarProps) {
  return (
    <footer className="status-bar">
      {indexing !== null ? (
        <span className="status-indexing" role="progressbar" aria-label="Indexing" aria-valuetext={`${indexing} entries found`}>
          <span className="spinner" aria-hidden="true" /> Indexing… {indexing.toLocaleString()} entries
        </span>
      ) : (
        <span className="status-count">{entryCount.toLocaleString()} entries</span>
      )}
      <span className="status-current">
        <span className="status-label" aria-hidden="true">
          {currentFile.source === 'saved' ? 'Saved:' : 'Current:'}
        </span>
        <span aria-label="Current file" title={currentFile.source === 'saved' ? 'Last saved by another program' : 'Selected in Flint'}>
          {currentFile.path ?? 'none'}
        </span>
      </span>
    </footer>
  );
}
