/**
 * The status bar: indexing progress, the model connection and the current file.
 *
 * In the serve shell, while the page cannot reach Flint, the model's last known state
 * is not the truth (nothing is known): the bar shows the page's own connection instead.
 */
import { memo, useRef } from 'react';
import type { ConnectionStatus } from '../../../../shared/contract';
import type { LatencyFigures } from '../../../../shared/inference-types';
import type { CurrentFile, WatchLimit } from '../../../../shared/project-types';
import type { ServeConnection } from '../../lib/serve-connection';
import { useServeConnection } from '../../lib/serve-connection-store';
import { useFitSteps } from './use-fit-steps';
import './status-bar.css';

export interface StatusBarProps {
  /** Entries found while the first index runs (null once the tree is in). */
  indexing: number | null;
  /** The first index's scan is over and waits for the size warning's answer. */
  isScanHeld: boolean;
  /** The open project's entries; null with no project (a first start says nothing of entries). */
  entryCount: number | null;
  currentFile: CurrentFile;
  connection: ConnectionStatus | null;
  latency: LatencyFigures | null;
  /** Folders the OS would not watch (polled instead), or null. */
  watchLimit: WatchLimit | null;
  onOpenSettings: () => void;
  /** Shows the watch limit's notice again (what happened and how to raise the limit). */
  onShowWatchLimit: () => void;
}

const SOURCE_LABELS = { focused: 'Focused:', saved: 'Saved:', selected: 'Current:' } as const;

/**
 * What gives way, in order, when the bar is narrower than its items (status-bar.css says
 * how): the least important first. Then the current file's path shrinks (cut at its
 * start); the connection's word goes last, for a long Flint-offline notice beside it.
 */
const FIT_STEPS = ['latency-detail', 'entries', 'model', 'latency', 'source', 'path', 'watch-label', 'connection-label'] as const;

/** Memoized: the app renders at every batch of a streaming answer, and nothing here changes with it. */
export const StatusBar = memo(function StatusBar({ indexing, isScanHeld, entryCount, currentFile, connection, latency, watchLimit, onOpenSettings, onShowWatchLimit }: StatusBarProps) {
  const serve = useServeConnection();
  const isFlintReachable = serve === null || serve.state === 'connected' || serve.state === 'connecting';
  const barRef = useRef<HTMLElement>(null);
  useFitSteps(barRef, FIT_STEPS);
  // Flint's own figure comes first (formatLatency): on a narrow bar it stays, the rest folds away.
  const [ownLatency, ...latencyDetail] = latency ? formatLatency(latency).split(' · ') : [];
  return (
    <footer className="status-bar" ref={barRef}>
      {indexing !== null && isScanHeld ? (
        <span className="status-count">{indexing.toLocaleString()} entries · waiting for your answer</span>
      ) : indexing !== null ? (
        <span className="status-indexing" role="progressbar" aria-label="Indexing" aria-valuetext={`${indexing} entries found`}>
          <span className="spinner" aria-hidden="true" /> Indexing… {indexing.toLocaleString()} entries
        </span>
      ) : entryCount === null ? (
        <span className="status-count status-entries">No folder open</span>
      ) : (
        <span className="status-count status-entries">{entryCount.toLocaleString()} entries</span>
      )}
      {watchLimit && (
        <button type="button" className="status-watch-limit" aria-label={`${unwatchedLabel(watchLimit)}: show why`} title={watchLimit.message} onClick={onShowWatchLimit}>
          <span className="dot" aria-hidden="true" /> <span className="status-watch-label">{unwatchedLabel(watchLimit)}</span>
        </button>
      )}
      {serve && !isFlintReachable && (
        <span className={`status-serve is-${serve.state}`} role="status" aria-label="Flint connection" title={serve.message}>
          <span className="dot" aria-hidden="true" /> {serveLabel(serve)}
        </span>
      )}
      {connection && isFlintReachable && (
        <button
          type="button"
          className={`status-connection is-${connection.state}`}
          aria-label={`Model connection: ${CONNECTION_LABELS[connection.state]}`}
          title={connection.message ?? 'Open Settings'}
          onClick={onOpenSettings}
        >
          <span className="dot" aria-hidden="true" /> <span className="status-connection-label">{CONNECTION_LABELS[connection.state]}</span>
        </button>
      )}
      {/* A refused request has figures too, but its model answered nothing: named only when it did. */}
      {latency && latency.requestToFirstDeltaMs !== null && (
        <span className="status-model" aria-label="Model that answered last" title="The model that answered the last request">
          {latency.model}
        </span>
      )}
      {latency && (
        <span className="status-latency" aria-label="Latency" title={describeLatency(latency)}>
          {ownLatency}
          {latencyDetail.length > 0 && <span className="status-latency-detail">{latencyDetail.map((part) => ` · ${part}`).join('')}</span>}
        </span>
      )}
      <span className="status-current">
        <span className="status-label" aria-hidden="true">
          {SOURCE_LABELS[currentFile.source ?? 'selected']}
        </span>
        <span className="status-path" aria-label="Current file" title={describeCurrentFile(currentFile)}>
          {/* An isolate: the path reads left to right in a box that ellipsizes at its start (status-bar.css). */}
          <bdi>{currentFile.path ?? 'none'}</bdi>
        </span>
      </span>
    </footer>
  );
});

/** Where the current file came from; with its whole path first, which a narrow bar cuts. */
function describeCurrentFile(currentFile: CurrentFile): string {
  const source = currentFile.source === 'focused' ? `Focused in ${currentFile.editor ?? 'your editor'} when you pressed the shortcut` : currentFile.source === 'saved' ? 'Last saved by another program' : 'Selected in Flint';
  return currentFile.path === null ? source : `${currentFile.path}\n${source}`;
}

const CONNECTION_LABELS: Record<ConnectionStatus['state'], string> = {
  'no-key': 'No API key',
  connecting: 'Connecting…',
  ready: 'Model ready',
  reconnecting: 'Reconnecting…',
  offline: 'Model offline',
};

/** The bar's short word for a page that cannot reach Flint; the notice and the tooltip say what to do. */
function serveLabel(serve: Exclude<ServeConnection, { state: 'connected' | 'connecting' }>): string {
  switch (serve.state) {
    case 'reconnecting':
      return 'Flint offline — reconnecting…';
    case 'not-answering':
      return 'Flint offline — not answering';
    case 'ended':
      return SERVE_ENDED_LABELS[serve.reason];
    default: {
      const exhaustive: never = serve;
      return exhaustive;
    }
  }
}

const SERVE_ENDED_LABELS: Record<Extract<ServeConnection, { state: 'ended' }>['reason'], string> = {
  restarted: 'Flint session ended — open the new URL',
  refused: 'Flint refused this page — open the URL Flint printed',
  'no-token': 'No Flint token — open the URL Flint printed',
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

/** The watch limit in a few words: how many folders are read by polling. */
function unwatchedLabel(limit: WatchLimit): string {
  return `${limit.unwatchedFolders.toLocaleString()} ${limit.unwatchedFolders === 1 ? 'folder' : 'folders'} not watched`;
}
