/**
 * One hunk in the pane's list, the review's navigator: where it goes (path:line, a link
 * that opens the file at the hunk), +/− counts, its state and its decision buttons. Its
 * lines stream in under it; once it waits in the file (or is decided) they fold away.
 */
import { memo, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { isUndecided, nextHunkState } from '../../../../shared/edits/hunk-state';
import { oldLinesOf } from '../../../../shared/edits/edit-types';
import type { HunkMeta } from './answer-view';
import { ConflictText } from './ConflictText';
import { markElementPainted } from '../../lib/paint-marks';
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

export interface HunkCardActions {
  onAccept: (hunkId: string) => void;
  onReject: (hunkId: string) => void;
  onRevert: (hunkId: string) => void;
  /** Takes a rejection back: the hunk is undecided again. */
  onRestore: (hunkId: string) => void;
  /** Makes it the current hunk and opens its file at it. */
  onSelect: (hunkId: string) => void;
  /** As onSelect, with focus in the file view and the hunk's first line selected (Shift+↓/↑ on the card). */
  onSelectLines: (hunkId: string) => void;
  /** The keys, as shown on the current hunk's buttons. */
  keys: { accept: string; reject: string };
}

export interface HunkCardProps {
  hunk: HunkMeta;
  store: HunkLineStore;
  isCurrent: boolean;
  actions: HunkCardActions;
}

/** Memoized: a frame's update re-renders only the hunks it changed. */
export const HunkCard = memo(function HunkCard({ hunk, store, isCurrent, actions }: HunkCardProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const countsRef = useRef<HTMLSpanElement>(null);
  const [expanded, setExpanded] = useState(false);
  const pathRef = useRef<HTMLButtonElement>(null);
  useHunkLines(hunk, store, hostRef, countsRef);
  useFirstPaintMark(hunk, pathRef);

  // From the table main decides by: Accept only where main would take it; Reject for what
  // is undecided (as Reject all takes it), not for a hunk already decided or refused.
  const canAccept = nextHunkState(hunk.state, { type: 'accept' }).ok;
  const canReject = isUndecided(hunk.state);
  const canRevert = hunk.state === 'accepted';
  const canRestore = hunk.state === 'rejected';
  const folded = !expanded && isFolded(hunk);
  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    // A held key decides one hunk, not the ones focus moves to after it.
    if (event.target !== event.currentTarget || (event.repeat && event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return;
    // A superseded hunk is accepted with its button only, after its warning is in view.
    if (event.key === 'a' && canAccept && !hunk.superseded) actions.onAccept(hunk.id);
    else if (event.key === 'r' && canReject) actions.onReject(hunk.id);
    else if (event.key === 'u' && canRevert) actions.onRevert(hunk.id);
    else if (event.key === 'u' && canRestore) actions.onRestore(hunk.id);
    else if (event.key === 'l' && isFolded(hunk)) setExpanded(!expanded);
    else if (event.key === 'Enter') actions.onSelect(hunk.id);
    // Lines are chosen in the file view: Shift+↓/↑ goes there with the first line selected, and goes on selecting.
    else if (event.shiftKey && (event.key === 'ArrowDown' || event.key === 'ArrowUp') && canSelectLines(hunk)) actions.onSelectLines(hunk.id);
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') focusSibling(event.currentTarget, event.key === 'ArrowDown' ? 1 : -1);
    else return;
    event.preventDefault();
  };
  const where = `${hunk.path}${hunk.anchorLine !== null ? `:${hunk.anchorLine}` : ''}`;

  return (
    <article
      className={`hunk-card is-${hunk.state}${hunk.superseded ? ' is-superseded' : ''}${isCurrent ? ' is-current' : ''}${folded ? ' is-folded' : ''}`}
      aria-label={`Hunk ${hunk.number} in ${where}, ${STATE_LABELS[hunk.state]}`}
      aria-current={isCurrent ? 'true' : undefined}
      data-hunk-id={hunk.id}
      data-hunk-number={hunk.number}
      // One Tab stop per hunk: its buttons answer to keys on the card (and to the pointer).
      tabIndex={0}
      aria-keyshortcuts={[canAccept && !hunk.superseded ? 'A' : '', canReject ? 'R' : '', canRevert || canRestore ? 'U' : '', isFolded(hunk) ? 'L' : '', 'Enter', canSelectLines(hunk) ? 'Shift+ArrowDown' : ''].filter(Boolean).join(' ')}
      onKeyDown={onKeyDown}
    >
      <header className="hunk-header">
        <button ref={pathRef} type="button" tabIndex={-1} className="hunk-path link" onClick={() => actions.onSelect(hunk.id)} title="Open the file at this hunk (Enter)">
          {describeOperation(hunk)}
          {hunk.anchorLine !== null && <span className="hunk-line">:{hunk.anchorLine}</span>}
        </button>
        <span ref={countsRef} className="hunk-counts" />
        <span className="hunk-state" aria-label="Hunk state">
          {STATE_LABELS[hunk.state]}
          {hunk.revised ? ` (${hunk.revised})` : ''}
        </span>
        <span className="spacer" />
        <HunkButtons hunk={hunk} isCurrent={isCurrent} actions={actions} />
        {isFolded(hunk) && (
          <button type="button" tabIndex={-1} className="hunk-fold" aria-expanded={expanded} onClick={() => setExpanded(!expanded)} title="Show or hide the hunk's lines here (L)">
            {expanded ? 'Hide lines' : 'Lines'}
          </button>
        )}
      </header>
      {hunk.message && <p className="hunk-message">{hunk.message}</p>}
      {hunk.overlapsNewer && canAccept && (
        <p className="hunk-warning" role="note">
          {hunk.overlapsNewer}
        </p>
      )}
      <div className={hunk.state === 'conflict' ? 'hunk-beside' : undefined}>
        <div ref={hostRef} className="hunk-body" hidden={folded} />
        {hunk.state === 'conflict' && hunk.operation === 'update' && hunk.anchorLine !== null && (
          <ConflictText path={hunk.path} anchorLine={hunk.anchorLine} oldCount={oldLinesOf(store.linesOf(hunk.id)).length} />
        )}
      </div>
    </article>
  );
});

/** Accept and Reject while it waits; Revert once it is on disk; Restore once rejected. Keys show on the current hunk's. */
function HunkButtons({ hunk, isCurrent, actions }: { hunk: HunkMeta; isCurrent: boolean; actions: HunkCardActions }) {
  const canAccept = nextHunkState(hunk.state, { type: 'accept' }).ok;
  const canReject = isUndecided(hunk.state);
  if (hunk.state === 'rejected') {
    return (
      <button type="button" tabIndex={-1} onClick={() => actions.onRestore(hunk.id)} title="Take the rejection back: the hunk waits for a decision again (U here, or Undo)">
        Restore
      </button>
    );
  }
  if (hunk.state === 'accepted') {
    return (
      <button type="button" tabIndex={-1} onClick={() => actions.onRevert(hunk.id)} title="Take this hunk back off disk, even after an Accept all (U here)">
        Revert
      </button>
    );
  }
  return (
    <>
      <button type="button" tabIndex={-1} onClick={() => actions.onAccept(hunk.id)} disabled={!canAccept} title={hunk.superseded ? 'Superseded by your redirect: accept it on its own' : `Accept (${actions.keys.accept}, or A here)`}>
        {hunk.superseded && canAccept ? 'Accept anyway' : 'Accept'}
        {isCurrent && canAccept && !hunk.superseded && <kbd>{actions.keys.accept}</kbd>}
      </button>
      <button type="button" tabIndex={-1} onClick={() => actions.onReject(hunk.id)} disabled={!canReject} title={`${hunk.state === 'partial' ? 'Discard' : 'Reject'} (${actions.keys.reject}, or R here)`}>
        Reject
        {isCurrent && canReject && <kbd>{actions.keys.reject}</kbd>}
      </button>
    </>
  );
}

/** A hunk drawn in its file, whose lines can be chosen there. */
function canSelectLines(hunk: HunkMeta): boolean {
  return hunk.operation === 'update' && hunk.state === 'pending' && !hunk.superseded;
}

/** ↓ / ↑ on a card: the next or previous card in the pane takes focus. */
function focusSibling(card: HTMLElement, step: 1 | -1): void {
  const cards = [...(card.closest('.edit-session')?.querySelectorAll<HTMLElement>('.hunk-card') ?? [])].filter((candidate) => candidate.offsetParent !== null);
  const next = cards[cards.indexOf(card) + step];
  next?.focus();
}

/** Lines fold away once the hunk waits in its file (drawn there) or is decided. */
function isFolded(hunk: HunkMeta): boolean {
  if (hunk.state === 'accepted' || hunk.state === 'rejected' || hunk.state === 'applying') return true;
  return hunk.state === 'pending' && hunk.operation === 'update' && !hunk.superseded;
}

/** The card's lines and counts, grown outside React as they stream (see HunkLineStore). */
function useHunkLines(hunk: HunkMeta, store: HunkLineStore, hostRef: React.RefObject<HTMLDivElement | null>, countsRef: React.RefObject<HTMLSpanElement | null>): void {
  const settled = hunk.state !== 'streaming';
  // A layout effect, so a new card and its first lines reach the screen in the same frame.
  useLayoutEffect(() => {
    // A hunk drawn before this card mounted (hunk-previews.ts) keeps its drawing.
    const adopted = store.previews.adopt(hunk.id, hostRef.current!, countsRef.current!);
    const editor = adopted ?? new HunkEditor(hostRef.current!, countsRef.current!);
    if (!adopted || settled) editor.show(store.linesOf(hunk.id), settled, store.partialOf(hunk.id));
    const stop = store.listen(hunk.id, editor);
    return () => {
      stop();
      editor.destroy();
    };
  }, [hunk.id, store, settled, hostRef, countsRef]);
}

/**
 * A streaming hunk is on screen once its head (its path) is painted — this card's, or the
 * preview's drawn before it (hunk-previews.ts), whichever comes first: timed from its first byte.
 */
function useFirstPaintMark(hunk: HunkMeta, pathRef: React.RefObject<HTMLButtonElement | null>): void {
  const firstByteAt = hunk.state === 'streaming' ? hunk.firstByteAtEpochMs : undefined;
  useLayoutEffect(() => {
    if (firstByteAt !== undefined && pathRef.current) markElementPainted(pathRef.current, `hunk:${hunk.id}@${firstByteAt}`, firstByteAt);
  }, [hunk.id, firstByteAt, pathRef]);
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
