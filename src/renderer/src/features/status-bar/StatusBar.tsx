/**
 * The status bar: indexing progress and the current file.
 */
import type { ConnectionStatus } from '../../../../shared/contract';
import type { LatencyFigures } from '../../../../shared/inference-types';
import type { CurrentFile } from '../../../../shared/project-types';

export interface StatusBarProps {
  indexing: number | null;
  entryCount: number;
  currentFile: CurrentFile;
  connection: ConnectionStatus | null;
  latency: LatencyFigures | null;
  onOpenSettings: () => void;
}

export function StatusBar({ indexing, entryCount, currentFile, connection, latency, onOpenSettings }: StatusBarProps) {
  return (
    <footer className="status-bar">
      {indexing !== null ? (
        <span className="status-indexing" role="progressbar" aria-label="Indexing" aria-valuetext={`${indexing} entries found`}>
          <span className="spinner" aria-hidden="true" /> Indexing… {indexing.toLocaleString()} entries
        </span>
      ) : (
        <span className="status-count">{entryCount.toLocaleString()} entries</span>
      )}
      {connection && (
        <button
          type="button"
          className={`status-connection is-${connection.state}`}
          aria-label="Model connection"
          title={connection.message ?? 'Open Settings'}
          onClick={onOpenSettings}
        >
          <span className="dot" aria-hidden="true" /> {CONNECTION_LABELS[connection.state]}
        </button>
      )}
      {latency && (
        <span className="status-latency" aria-label="Latency" title={describeLatency(latency)}>
          {formatLatency(latency)}
        </span>
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

const CONNECTION_LABELS: Record<ConnectionStatus['state'], string> = {
  'no-key': 'No API key',
  connecting: 'Connecting…',
  ready: 'Model ready',
  reconnecting: 'Reconnecting…',
  offline: 'Model offline',
};

/** The HUD's short form: Flint's overhead first, because it is the figure Flint owns. */
export function formatLatency(figures: LatencyFigures): string {
  const parts = [`Flint ${figures.keypressToWriteMs.toFixed(1)} ms`];
  if (figures.requestToFirstDeltaMs !== null) parts.push(`first token ${Math.round(figures.requestToFirstDeltaMs)} ms`);
  if (figures.tokensPerSecond !== null) parts.push(`${figures.tokensPerSecond.toLocaleString()} tok/s`);
  parts.push(`total ${Math.round(figures.totalMs)} ms`);
  return parts.join(' · ');
}

function describeLatency(figures: LatencyFigures): string {
  return [
    `Model: ${figures.model}`,
    `Keypress → request written (Flint): ${figures.keypressToWriteMs.toFixed(2)} ms`,
    `Request → first token (network + model): ${figures.requestToFirstDeltaMs === null ? '—' : `${figures.requestToFirstDeltaMs.toFixed(1)} ms`}`,
    `Output: ${figures.outputTokens} tokens${figures.tokensPerSecond === null ? '' : ` at ${figures.tokensPerSecond} tok/s`}`,
    `Total: ${figures.totalMs.toFixed(1)} ms`,
  ].join('\n');
}
