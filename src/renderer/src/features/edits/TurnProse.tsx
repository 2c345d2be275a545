/**
 * A turn's prose on screen (the pane's and the ask bar's), growing with the stream apart
 * from the app's render: it follows the ProseStore itself.
 *
 * Characters are in the DOM in the task their message came in: what arrived since the last
 * format is written, as it came, into a hidden span after the formatted text (one small DOM
 * write, no render, no layout). The Markdown is formatted again once a frame, in the frame's
 * animation callback, before the frame's main layout and its paint: so the frame shows the
 * new text formatted, and the span is empty again. Both views format in one React commit
 * (format-frame.ts). Formatting per message instead re-parsed the open block and rendered
 * it for every delta, four or more a frame at 1,000 tokens/s.
 *
 * The span is hidden because it would never be painted anyway (the frame formats its text
 * first), and because laying it out cost every streaming frame a second layout of both
 * views: Chromium lays out a changed page at the start of each frame, before the animation
 * callbacks, to report the selection's bounds (a focused text field has one), and the
 * format then changed the page again.
 *
 * Text that does not only add to what is formatted (a tail taken back: a path line that
 * went to its hunk) is formatted at once: the span can only ever add to the formatted text.
 */
import { useCallback, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { MarkdownAnswer } from '../markdown/LazyMarkdownAnswer';
import { formatFrame } from './format-frame';
import { arrivingSince, type ProseStore, type TurnProseText } from './prose-store';

/** Whether `turn` has prose to show: re-renders its caller only when that changes, not per delta. */
export function useHasProse(prose: ProseStore, turn: number): boolean {
  const subscribe = useCallback((listener: () => void) => prose.subscribe(turn, listener), [prose, turn]);
  return useSyncExternalStore(subscribe, () => prose.hasText(turn));
}

export function TurnProse({ prose, turn }: { prose: ProseStore; turn: number }) {
  // Mounted with nothing formatted: what the turn has goes into the span at once, and is
  // formatted at the next frame like any delta. The first words of an answer then cost their
  // message no Markdown parse (the first parse of a page runs cold: 2-4 ms on a 2-core
  // machine); a conversation loaded whole is formatted before its first paint all the same.
  const [formatted, setFormatted] = useState((): TurnProseText => ({ text: '', tail: '', generation: prose.textOf(turn).generation }));
  /** The text formatted, then the span's. Each delta adds only what came since, never what the span already has. */
  const shownRef = useRef(formatted);
  const arrivingRef = useRef<HTMLSpanElement>(null);
  /** This view, to the frame that formats every view's prose (format-frame.ts). */
  const [view] = useState(() => ({}));

  const format = useCallback((): void => {
    formatFrame.drop(view);
    flushSync(() => setFormatted(prose.textOf(turn)));
  }, [prose, turn, view]);
  const formatNextFrame = useCallback((): void => formatFrame.next(view, () => setFormatted(prose.textOf(turn))), [prose, turn, view]);

  // After each render: the span holds only what came after the text just formatted. A render
  // React did not commit at once (the first, in a transition) may have let deltas in first.
  useLayoutEffect(() => {
    const now = prose.textOf(turn);
    const rest = arrivingSince(formatted, now);
    writeArriving(arrivingRef.current, rest ?? '');
    shownRef.current = rest === null ? formatted : now;
    if (rest === null) setFormatted(now);
    else if (rest !== '') formatNextFrame();
  }, [formatted, prose, turn, formatNextFrame]);

  // Followed from the commit on (a layout effect: no delta can come between the two).
  useLayoutEffect(() => {
    const follow = (): void => {
      const now = prose.textOf(turn);
      const added = arrivingSince(shownRef.current, now);
      if (added === null) return format();
      if (added === '') return;
      appendArriving(arrivingRef.current, added);
      shownRef.current = now;
      formatNextFrame();
    };
    const unsubscribe = prose.subscribe(turn, follow);
    return () => {
      unsubscribe();
      formatFrame.drop(view);
    };
  }, [prose, turn, format, formatNextFrame, view]);

  return (
    <>
      <MarkdownAnswer text={formatted.text} tail={formatted.tail} />
      {/* Hidden (see above), so not announced either: the formatted text is, a frame later, once. */}
      <span ref={arrivingRef} className="prose-arriving" hidden />
    </>
  );
}

/** Makes `text` the span's. */
function writeArriving(span: HTMLSpanElement | null, text: string): void {
  if (span && span.textContent !== text) span.textContent = text;
}

/** Adds `text` to the span: one text node grown in place, however long the frame (or a hidden window's wait for one). */
function appendArriving(span: HTMLSpanElement | null, text: string): void {
  if (!span) return;
  if (span.firstChild instanceof Text) span.firstChild.appendData(text);
  else span.textContent = text;
}
