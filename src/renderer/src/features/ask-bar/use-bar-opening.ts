/**
 * What happens each time the bar opens (not each render): the input takes focus, the
 * title's paint is marked, a previous attempt's emphasis is dropped, and the answer
 * already on screen is noted so it is not shown as this opening's. When the bar
 * closes, focus goes to the hunk waiting for a decision (`focusAfterClose`), else back
 * where it was.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { markElementPainted } from '../../lib/paint-marks';
import type { AnswerView } from '../edits/answer-view';
import type { AskBarHandle } from './use-ask-bar';

export function useBarOpening(bar: AskBarHandle, view: AnswerView | null, focusAfterClose?: () => boolean) {
  const [isAttempted, setAttempted] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const titleRef = useRef<HTMLParagraphElement>(null);
  const returnFocusRef = useRef<HTMLElement | null>(null);
  /** The session that was on screen when the bar opened: an older answer is not shown as this one's. */
  const [sessionAtOpen, setSessionAtOpen] = useState<string | null>(view?.sessionId ?? null);
  const isStreaming = view?.status === 'streaming';

  useLayoutEffect(() => {
    if (titleRef.current) markElementPainted(titleRef.current, `ask-bar-${bar.openCount}`, bar.openedAtEpochMs, 'flint:bar-painted');
    if (document.activeElement !== inputRef.current) returnFocusRef.current ??= document.activeElement as HTMLElement | null;
    inputRef.current?.focus();
    setAttempted(false);
    setSessionAtOpen((current) => (isStreaming ? null : (view?.sessionId ?? current)));
    // Each opening (not each render) re-focuses and re-marks.
  }, [bar.openCount]);

  const afterClose = useRef(focusAfterClose);
  afterClose.current = focusAfterClose;
  useEffect(
    () => () => {
      if (!afterClose.current?.()) returnFocusRef.current?.focus();
    },
    [],
  );

  /** Whether the answer on screen belongs to this opening (or is still streaming). */
  const isAnswerShown = view !== null && (isStreaming || view.sessionId !== sessionAtOpen);
  return { inputRef, titleRef, isAttempted, markAttempted: () => setAttempted(true), isAnswerShown };
}
