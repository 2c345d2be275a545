/**
 * The model's output rate in the pane's bar ("≈ 980 tok/s"), written straight into its
 * span as batches bring it: the rate changes with nearly every batch, and a React state
 * (a store read with useSyncExternalStore renders synchronously, in the batch's own task,
 * and takes the pane's pending render along) would put a render of the pane between each
 * message and its paint.
 */
import { useLayoutEffect, useRef } from 'react';
import type { TurnView } from '../../../../shared/ask-types';
import { rateFigure, type OutputRateStore } from './output-rate';

export interface RateFigureProps {
  rates: OutputRateStore;
  /** Which turn is the latest decides whether a rate is shown (see rateFigure). */
  turns: readonly Pick<TurnView, 'index' | 'status'>[];
}

export function RateFigure({ rates, turns }: RateFigureProps) {
  const spanRef = useRef<HTMLSpanElement>(null);
  // Before paint: a turn that changed shows its figure (or none) in the same frame.
  useLayoutEffect(() => {
    const span = spanRef.current!;
    const write = (): void => {
      const figure = rateFigure(rates.current(), turns);
      if (span.textContent !== (figure ?? '')) span.textContent = figure ?? '';
      span.hidden = figure === null;
    };
    write();
    return rates.onDidChange(write);
  }, [rates, turns]);
  return <span ref={spanRef} className="review-rate" hidden />;
}
