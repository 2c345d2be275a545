/**
 * One hunk: where it goes, its state, its lines as they stream, and its decision buttons.
 */
import { memo, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import type { HunkLine } from '../../../../shared/edits/edit-types';
import { isUndecided, nextHunkState } from '../../../../shared/edits/hunk-state';
import { markElementPainted } from '../../lib/paint-marks';
import type { HunkMeta } from './answer-view';
import { HunkEditor } from './hunk-editor';
import type { HunkLineStore } from './hunk-line-store';

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
  onAccept: (hunkId: string) => void;
  onReject: (hunkId: string) => void;
}

/** Memoized: a frame's update re-renders only the hunks it changed. */
export const HunkCard = memo(function HunkCard({ hunk, store, onAccept: acceptHunk, onReject: rejectHunk }: HunkCardProps) {
  const onAccept = (): void => acceptHunk(hunk.id);
  const onReject = (): void => rejectHunk(hunk.id);
  const hostRef = useRef<HTMLDivElement>(null);

  const firstLineAt = hunk.firstLineAtEpochMs;
  // A layout effect, so a new card and its first lines reach the screen in the same frame.
  useLayoutEffect(() => {
    const editor = new HunkEditor(hostRef.current!);
    let painted = false;
    const append = (lines: readonly HunkLine[]): void => {
      editor.append(lines);
      if (painted || !editor.firstRow || firstLineAt === undefined) return;
      painted = true;
      markElementPainted(editor.firstRow, `hunk:${hunk.id}`, firstLineAt);
    };
    append(store.linesOf(hunk.id));
    const stop = store.listen(hunk.id, append);
    return () => {
      stop();
      editor.destroy();
    };
  }, [hunk.id, store, firstLineAt]);

  // From the table main decides by: Accept only where main would take it; Reject for what
  // is undecided (as Reject all takes it), not for a hunk already decided or refused.
  const canAccept = nextHunkState(hunk.state, { type: 'accept' }).ok;
  const canReject = isUndecided(hunk.state);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    if (event.target !== event.currentTarget) return;
    // A superseded hunk is accepted with its button only, after its warning is in view.
    if (event.key === 'a' && canAccept && !hunk.superseded) onAccept();
    else if (event.key === 'r' && canReject) onReject();
    else return;
    event.preventDefault();
  };

  return (
    <article
      className={`hunk-card is-${hunk.state}${hunk.superseded ? ' is-superseded' : ''}`}
      aria-label={`Hunk in ${hunk.path}${hunk.anchorLine !== null ? `:${hunk.anchorLine}` : ''}, number ${hunk.number}, ${STATE_LABELS[hunk.state]}`}
      data-hunk-id={hunk.id}
      data-hunk-number={hunk.number}
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
        <button type="button" onClick={onAccept} disabled={!canAccept} title={hunk.superseded ? 'Superseded by your redirect: accept it on its own' : 'Accept (A)'}>
          {hunk.superseded && canAccept ? 'Accept anyway' : 'Accept'}
        </button>
        <button type="button" onClick={onReject} disabled={!canReject} title={hunk.state === 'partial' ? 'Discard (R)' : 'Reject (R)'}>
          Reject
        </button>
      </header>
      {hunk.message && <p className="hunk-message">{hunk.message}</p>}
      {hunk.overlapsNewer && canAccept && (
        <p className="hunk-warning" role="note">
          {hunk.overlapsNewer}
        </p>
      )}
      <div ref={hostRef} className="hunk-body" />
    </article>
  );
});

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
