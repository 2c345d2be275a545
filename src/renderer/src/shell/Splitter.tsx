/**
 * A vertical splitter between two columns (the WAI-ARIA window splitter pattern): drag
 * it, or focus it and use Left / Right (16 px), Home (the pane's smallest) and End
 * (its largest). Its value is the width of the pane it sizes.
 */
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { splitterKeyWidth } from './pane-widths';

export interface SplitterProps {
  /** Names the pane it sizes, e.g. "Resize the file tree". */
  label: string;
  width: number;
  min: number;
  max: number;
  /** Where the pane is: a pane on the left grows as the splitter moves right, one on the right shrinks. */
  side: 'left' | 'right';
  /** A new width for the pane; `shouldRemember` once the move is done (a key, or the end of a drag). */
  onResize: (width: number, shouldRemember: boolean) => void;
}

export function Splitter({ label, width, min, max, side, onResize }: SplitterProps) {
  const dragRef = useRef<{ startX: number; startWidth: number } | null>(null);
  const towardRight = side === 'left' ? 1 : -1;
  const widthAt = (clientX: number): number => dragRef.current!.startWidth + towardRight * (clientX - dragRef.current!.startX);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.focus();
    // Captured: the drag goes on over the code view's shadow root and outside the window.
    event.currentTarget.setPointerCapture(event.pointerId);
    dragRef.current = { startX: event.clientX, startWidth: width };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>): void => {
    if (dragRef.current) onResize(widthAt(event.clientX), false);
  };
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>): void => {
    if (!dragRef.current) return;
    onResize(widthAt(event.clientX), true);
    dragRef.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const next = splitterKeyWidth(event.key, width, { min, max }, side);
    if (next === null) return;
    event.preventDefault();
    onResize(next, true);
  };

  return (
    <div
      className="splitter"
      role="separator"
      aria-orientation="vertical"
      aria-label={label}
      aria-valuenow={width}
      aria-valuemin={min}
      aria-valuemax={max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onKeyDown={onKeyDown}
    />
  );
}
