/**
 * One hunk: where it goes, its state, its lines as they stream, and its decision buttons.
 */
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { HunkEditor } from './hunk-editor';
import type { HunkLineStore, HunkMeta } from './use-edit-session';

const STATE_LABELS: Record<HunkMeta['state'], string> = {
  streaming: 'Streaming…',
  pending: 'Ready',
  applying: 'Writing…',
  accepted: 'Accepted',
  rejected: 'Rejected',
  partial: 'Partial (cut off)',
  conflict: 'Conflict',
  unmatched: 'Unmatched',
  refused: 'Refused',
};

export interface HunkCardProps {
  hunk: HunkMeta;
  store: HunkLineStore;
  onAccept: () => void;
  onReject: () => void;
}

export function HunkCard({ hunk, store, onAccept, onReject }: HunkCardProps) {
  const hostRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const editor = new HunkEditor(hostRef.current!);
    editor.append(store.linesOf(hunk.id));
    const stop = store.listen(hunk.id, (lines) => editor.append(lines));
    return () => {
      stop();
      editor.destroy();
    };
  }, [hunk.id, store]);

  const canAccept = hunk.state === 'pending';
  const canReject = hunk.state === 'pending' || hunk.state === 'partial' || hunk.state === 'unmatched' || hunk.state === 'conflict';
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'a' && canAccept) onAccept();
    else if (event.key === 'r' && canReject) onReject();
    else return;
    event.preventDefault();
  };

  return (
    <article
      className={`hunk-card is-${hunk.state}`}
      aria-label={`Hunk in ${hunk.path}`}
      data-hunk-id={hunk.id}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <header className="hunk-header">
        <span className="hunk-path">
          {describeOperation(hunk)}
          {hunk.anchorLine !== null && <span className="hunk-line">:{hunk.anchorLine}</span>}
        </span>
        <span className="hunk-state" aria-label="Hunk state">
          {STATE_LABELS[hunk.state]}
        </span>
        <span className="spacer" />
        <button type="button" onClick={onAccept} disabled={!canAccept} title="Accept (A)">
          Accept
        </button>
        <button type="button" onClick={onReject} disabled={!canReject} title={hunk.state === 'partial' ? 'Discard (R)' : 'Reject (R)'}>
          Reject
        </button>
      </header>
      {hunk.message && <p className="hunk-message">{hunk.message}</p>}
      <div ref={hostRef} className="hunk-body" />
    </article>
  );
}

function describeOperation(hunk: HunkMeta): string {
  switch (hunk.operation) {
    case 'add':
      return `New file ${hunk.path}`;
    case 'delete':
      return `Delete ${hunk.path}`;
    case 'move':
      return `Move ${hunk.path} → ${hunk.moveTo ?? ''}`;
    case 'update':
      return hunk.path;
    default: {
      const exhaustive: never = hunk.operation;
      return exhaustive;
    }
  }
}
