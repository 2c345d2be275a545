/**
 * A turn's prose on screen (the pane's and the ask bar's), growing with the stream apart
 * from the app's render: it follows the ProseStore itself.
 *
 * Characters are in the page in the task their message came in: what arrived since the
 * last format is written, as it came, into a span after the formatted text (one small DOM
 * write, no render). The Markdown is formatted again once a frame, in the frame's
 * animation callback, before the frame is painted: so the frame shows the new text
 * formatted, and the span is empty again. Formatting per message instead re-parsed the
 * open block and rendered it for every delta, four or more a frame at 1,000 tokens/s.
 * Text that does not only add to what is shown (a tail taken back: a path line that went
 * to its hunk) is formatted at once, so nothing is ever shown twice.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { MarkdownAnswer } from '../markdown/LazyMarkdownAnswer';
import { arrivingSince, type ProseStore } from './prose-store';

/** Whether `turn` has prose to show: re-renders its caller only when that changes, not per delta. */
export function useHasProse(prose: ProseStore, turn: number): boolean {
  const subscribe = useCallback((listener: () => void) => prose.subscribe(turn, listener), [prose, turn]);
  return useSyncExternalStore(subscribe, () => prose.hasText(turn));
}

export function TurnProse({ prose, turn }: { prose: ProseStore; turn: number }) {
  const [formatted, setFormatted] = useState(() => prose.textOf(turn));
  const formattedRef = useRef(formatted);
  const arrivingRef = useRef<HTMLSpanElement>(null);

  // After each format: the span holds only what came after the text just formatted.
  useLayoutEffect(() => {
    formattedRef.current = formatted;
    writeArriving(arrivingRef.current, arrivingSince(formatted, prose.textOf(turn)) ?? '');
  }, [formatted, prose, turn]);

  useEffect(() => {
    let frame = 0;
    const format = (): void => {
      cancelAnimationFrame(frame);
      frame = 0;
      flushSync(() => setFormatted(prose.textOf(turn)));
    };
    const follow = (): void => {
      const arriving = arrivingSince(formattedRef.current, prose.textOf(turn));
      if (arriving === null) return format();
      writeArriving(arrivingRef.current, arriving);
      if (arriving !== '') frame ||= requestAnimationFrame(format);
    };
    const unsubscribe = prose.subscribe(turn, follow);
    // What came between the render and the subscription is formatted at the next frame.
    if (prose.textOf(turn) !== formattedRef.current) frame = requestAnimationFrame(format);
    return () => {
      unsubscribe();
      cancelAnimationFrame(frame);
    };
  }, [prose, turn]);

  return (
    <>
      <MarkdownAnswer text={formatted.text} tail={formatted.tail} />
      {/* Hidden from assistive technology: the formatted text is announced once it is in, a frame later, not twice. */}
      <span ref={arrivingRef} className="prose-arriving" aria-hidden="true" />
    </>
  );
}

/** Puts `text` in the span: appended when it only adds to what the span has (most deltas), else replaced. */
function writeArriving(span: HTMLSpanElement | null, text: string): void {
  if (!span) return;
  const node = span.firstChild;
  if (node instanceof Text && text.startsWith(node.data)) {
    if (text.length > node.data.length) node.appendData(text.slice(node.data.length));
  } else span.textContent = text;
}
