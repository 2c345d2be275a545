/**
 * The view of the selected file, with the hunks waiting in it drawn in place (the review
 * in context); reloads when another program changes it.
 */
import { formatBytes } from '../../../../shared/format-bytes';
import { useEffect, useRef, useState } from 'react';
import { isSameOrBelow } from '../../../../shared/paths';
import type { FileContent } from '../../../../shared/project-types';
import { afterNextPaint } from '../../lib/after-paint';
import { flint } from '../../lib/flint';
import { buildReviewDoc, type InlineHunk } from '../review/review-doc';
import type { ReviewActions } from '../review/review-extension';
import { isFocusUnmoved, type PendingFocus, type ReviewSurface } from '../review/use-review';
import { CodeEditor } from './code-editor';

/**
 * Hunks arriving while an answer streams are drawn in the file at most this often (a
 * drawing takes a task of ~10 ms; a new hunk's first paint must not wait behind many),
 * each time right after the frame that shows what changed (see scheduleStreamingDraw).
 * Decisions, saves and the answer's end are drawn at the next idle moment.
 */
const STREAMING_REDRAW_INTERVAL_MS = 250;
/** While an answer streams, a change that came too soon after a drawing waits at most this long for the next change to be drawn with. */
const STREAMING_REDRAW_LATEST_MS = 1000;

/** What the view shows besides text: why there is no text. */
type ViewContent =
  /** Loaded from main (text, binary or too large). */
  | FileContent
  /** The read failed; the message comes from main. */
  | { kind: 'error'; path: string; message: string }
  /** The file was removed while shown. */
  | { kind: 'deleted'; path: string };

/** The review's part in the file view. */
export interface FileReview {
  /** The hunks waiting in this file (placed where their text still is). */
  hunks: readonly InlineHunk[];
  /** The hunk the keys act on, and a counter bumped when it should come into view. */
  current: string | null;
  revealTick: number;
  actions: ReviewActions;
  surface: { current: ReviewSurface | null };
  /** An answer is streaming (see STREAMING_REDRAW_INTERVAL_MS). */
  streaming: boolean;
  /** The conversation the hunks are of. */
  sessionId: string | null;
  /** Focus asked for a hunk before its file was drawn (see use-review.ts). */
  pendingFocus: { current: PendingFocus | null };
}

export interface FileViewProps {
  path: string | null;
  review: FileReview;
}

export function FileView({ path, review }: FileViewProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const editorRef = useRef<CodeEditor | null>(null);
  const requestRef = useRef(0);
  const [content, setContent] = useState<ViewContent | null>(null);
  const actionsRef = useRef(review.actions);
  actionsRef.current = review.actions;

  useEffect(() => {
    const editor = new CodeEditor(hostRef.current!, () => actionsRef.current);
    editorRef.current = editor;
    review.surface.current = { revisionOf: (id) => editor.revisionOf(id), focusHunk: (id, selectLine) => editor.focusHunk(id, selectLine), hunkAtCursor: () => editor.hunkAtCursor(), editedRevisions: () => editor.editedRevisions(), isEditingAtCursor: () => editor.isEditingAtCursor() };
    return () => {
      review.surface.current = null;
      editor.destroy();
    };
  }, [review.surface]);

  useFileText(path, setContent, requestRef);
  const placement = useDrawnReview(editorRef, path, content, review);

  const isText = content?.kind === 'text';
  return (
    <section className="file-view" aria-label="File view">
      <header className="file-view-header">
        <span className="file-view-path">{path ?? 'No file selected'}</span>
        {isText && placement.placed > 0 && (
          <span className="file-view-tag" title="Hunks waiting for a decision, drawn in this file">
            {placement.placed} {placement.placed === 1 ? 'hunk' : 'hunks'} to review
          </span>
        )}
        {isText && placement.unplaced > 0 && (
          <span className="file-view-tag" title="Their text is not where main anchored them in the text on view (a save apart): decide them in the pane">
            {placement.unplaced} not drawn: see the pane
          </span>
        )}
        {content?.kind === 'text' && content.encoding !== 'utf-8' && <span className="file-view-tag">{content.encoding}</span>}
      </header>
      {content?.kind === 'text' && content.notice && (
        <p className="file-view-notice" role="status">
          {content.notice}
        </p>
      )}
      {/* data-drawn-hunks: which hunks, where, the last drawing showed (what a redraw is known by). */}
      <div ref={hostRef} className="file-view-editor" data-drawn-hunks={placement.hunks} hidden={!isText} />
      {!isText && <p className="file-view-message">{describe(content, path)}</p>}
    </section>
  );
}

/** The hunks of a review and where they are: a change of it is drawn. Ids repeat across conversations: the session and the lines say which hunk it is. */
function reviewKey(review: FileReview): string {
  return `${review.sessionId}:${review.hunks.map((hunk) => `${hunk.id}@${hunk.anchorLine}+${hunk.lines.length}`).join(',')}`;
}

/** Loads `path`, and again whenever another program changes it. */
function useFileText(path: string | null, setContent: (content: ViewContent | null) => void, requestRef: { current: number }): void {
  useEffect(() => {
    if (path === null) {
      setContent(null);
      return;
    }
    const load = async (): Promise<void> => {
      const request = ++requestRef.current;
      const result = await flint.readFile({ path });
      // A newer read (or another file) superseded this one.
      if (request !== requestRef.current) return;
      setContent(result.ok ? result.value : { kind: 'error', path, message: result.error.message });
    };
    void load();
    return flint.on('project:changed', ({ changes }) => {
      for (const change of changes) {
        if (change.type === 'removed' && isSameOrBelow(path, change.path)) {
          requestRef.current += 1;
          setContent({ kind: 'deleted', path });
        } else if (change.type !== 'removed' && (change.type === 'modified' ? change.path : change.entry.path) === path) {
          void load();
        }
      }
    });
  }, [path, setContent, requestRef]);
}

/**
 * Draws the file with its hunks whenever either changes (keeping what the user edited in
 * a hunk still waiting), and brings the current hunk into view when asked.
 */
function useDrawnReview(editorRef: { current: CodeEditor | null }, path: string | null, content: ViewContent | null, review: FileReview): { placed: number; unplaced: number; hunks: string } {
  const shownPath = useRef<string | null>(null);
  const revealed = useRef(-1);
  const [drawn, setDrawn] = useState({ count: 0, placed: 0, unplaced: 0, hunks: '' });
  const lastDrawAt = useRef(0);
  const hunksKey = reviewKey(review);
  const latest = useRef({ path, content, review });
  latest.current = { path, content, review };
  useEffect(() => {
    if (editorRef.current === null || content?.kind !== 'text' || path === null || content.path !== path) return;
    const draw = (): void => {
      const editor = editorRef.current;
      const now = latest.current;
      if (!editor || now.content?.kind !== 'text' || now.path === null || now.content.path !== now.path) return;
      const edited = editor.editedTexts();
      const hunks = now.review.hunks.map((hunk) => (edited.has(hunk.id) ? { ...hunk, edited: edited.get(hunk.id)! } : hunk));
      // Drawn again, only the lines that differ are replaced: the selection maps through them.
      const doc = buildReviewDoc(now.content.text, hunks);
      editor.show(now.path, doc, shownPath.current === now.path);
      shownPath.current = now.path;
      lastDrawAt.current = performance.now();
      setDrawn((before) => ({ count: before.count + 1, placed: doc.blocks.length, unplaced: doc.unplaced.length, hunks: reviewKey(now.review) }));
    };
    // A new file is drawn at once; hunks that came or went at an idle moment, or while an answer streams, as scheduleStreamingDraw says.
    if (shownPath.current !== path || typeof requestIdleCallback === 'undefined') return draw();
    if (latest.current.review.streaming) return scheduleStreamingDraw(draw, performance.now() - lastDrawAt.current);
    const idle = requestIdleCallback(draw, { timeout: 150 });
    return () => cancelIdleCallback(idle);
  }, [editorRef, path, content, hunksKey, review.streaming]);
  useEffect(() => {
    const editor = editorRef.current;
    if (!editor) return;
    const reveal = revealed.current !== review.revealTick && review.current !== null && editor.shows(review.current);
    if (reveal) revealed.current = review.revealTick;
    const focus = review.pendingFocus.current;
    // The user took focus elsewhere while the hunk was being drawn: it stays theirs.
    if (focus !== null && !isFocusUnmoved(focus)) review.pendingFocus.current = null;
    else if (focus !== null && focus.hunkId === review.current && editor.focusHunk(focus.hunkId, focus.target === 'lines')) review.pendingFocus.current = null;
    else editor.setCurrent(review.current, reveal);
  }, [editorRef, review.current, review.revealTick, review.pendingFocus, drawn]);
  return drawn;
}

/**
 * While an answer streams, a hunk waits in its file once it is complete, which is when the
 * next hunk opens: drawn right after the frame that shows the change, the drawing runs when
 * that next hunk's first row has just been painted, and the one after it is a hunk's lines
 * away — a new hunk's first paint never waits behind it. A change within
 * STREAMING_REDRAW_INTERVAL_MS of the last drawing waits for the next change (the effect
 * runs again and cancels this), or STREAMING_REDRAW_LATEST_MS at most. Returns the cancel.
 */
function scheduleStreamingDraw(draw: () => void, sinceLastDrawMs: number): () => void {
  if (sinceLastDrawMs >= STREAMING_REDRAW_INTERVAL_MS) return afterNextPaint(draw);
  const timer = setTimeout(draw, STREAMING_REDRAW_LATEST_MS - sinceLastDrawMs);
  return () => clearTimeout(timer);
}

function describe(content: ViewContent | null, path: string | null): string {
  if (path === null) return 'Select a file in the tree to read it here.';
  if (content === null) return 'Loading…';
  switch (content.kind) {
    case 'text':
      return '';
    case 'binary':
      return `Binary file (${formatBytes(content.size)}); not shown.`;
    case 'too-large':
      return `This file is ${formatBytes(content.size)}, over the ${formatBytes(content.limit)} view limit; not loaded.`;
    case 'error':
      return content.message;
    case 'deleted':
      return 'This file was deleted.';
    default: {
      const exhaustive: never = content;
      return exhaustive;
    }
  }
}
