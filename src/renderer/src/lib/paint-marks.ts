/**
 * Paint-latency marks (User Timing API): what the bench reads, and what a HUD can show.
 *
 * `flint:hunk-painted` and `flint:bar-painted` use Element Timing: the first row of a
 * hunk (the ask bar's title) carries an `elementtiming` id, and Chromium reports the
 * time it was actually painted (paintTime). `flint:hunk-dom` is Flint's own share: first
 * byte in main → the row in the DOM.
 * `flint:edit-painted` (ask → final diff) uses rAF + a posted message, which fires just
 * after the next frame is painted. A mark's `detail.latencyMs` runs from `sinceEpochMs`
 * (performance.timeOrigin + now, comparable across processes on one machine); element
 * marks also carry `detail.paintedAtEpochMs`, for latencies measured from another process.
 */

import { afterNextPaint } from './after-paint';

type ElementMark = 'flint:hunk-painted' | 'flint:bar-painted';
const waiting = new Map<string, { sinceEpochMs: number; mark: ElementMark }>();
/** Identifiers whose first DOM insertion was marked (an element drawn twice, as a hunk's preview then its card, counts once). */
const inDom = new Set<string>();
/** Who waits for an identifier's paint to be on record (see onceElementPainted). */
const paintListeners = new Map<string, () => void>();
let observing = false;

interface ElementTiming extends PerformanceEntry {
  identifier: string;
  renderTime: number;
  /** When the frame was painted (Chromium's paint timing); renderTime where absent. */
  paintTime?: number;
}

/**
 * Marks (as `mark`) when the element tagged with `identifier` is first painted. Several
 * elements may carry one identifier (a hunk's preview, then its card): the first painted counts.
 */
export function markElementPainted(element: Element, identifier: string, sinceEpochMs: number, mark: ElementMark = 'flint:hunk-painted'): void {
  if (!observing && typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes.includes('element')) {
    observing = true;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as ElementTiming[]) {
        const wait = waiting.get(entry.identifier);
        if (wait === undefined) continue;
        waiting.delete(entry.identifier);
        const paintedAtEpochMs = performance.timeOrigin + (entry.paintTime ?? entry.renderTime);
        performance.mark(wait.mark, { detail: { latencyMs: paintedAtEpochMs - wait.sinceEpochMs, paintedAtEpochMs } });
        const listener = paintListeners.get(entry.identifier);
        paintListeners.delete(entry.identifier);
        listener?.();
      }
    }).observe({ type: 'element', buffered: true });
  }
  element.setAttribute('elementtiming', identifier);
  if (inDom.has(identifier)) return;
  // Bounded: an identifier is marked within a frame or two of its first use.
  if (inDom.size > 1000) {
    inDom.clear();
    paintListeners.clear();
  }
  inDom.add(identifier);
  waiting.set(identifier, { sinceEpochMs, mark });
  // Flint's own share: from `sinceEpochMs` to the DOM holding the element (the rest is the frame).
  if (mark === 'flint:hunk-painted') markLatency('flint:hunk-dom', performance.timeOrigin + performance.now() - sinceEpochMs);
}

const queuedMarks: Array<{ name: string; latencyMs: number }> = [];

/**
 * Records a latency measured now as a mark, made after the next paint: performance.mark
 * clones its detail (a tenth of a millisecond or more), which must not delay the frame
 * that shows what is being timed.
 */
export function markLatency(name: 'flint:hunk-dom' | 'flint:hunk-received', latencyMs: number): void {
  if (queuedMarks.push({ name, latencyMs }) > 1) return;
  afterNextPaint(() => {
    for (const { name: queued, latencyMs: latency } of queuedMarks.splice(0)) performance.mark(queued, { detail: { latencyMs: latency } });
  });
}

/**
 * Runs `run` once the paint of the element marked as `identifier` is on record; returns
 * a function that cancels it, or null if that cannot be known (no Element Timing, an
 * identifier not waiting for its paint). Chromium reports an element's paint only if it
 * is still in the document when the frame is presented: an element that replaces another
 * can wait for this before removing it.
 */
export function onceElementPainted(identifier: string, run: () => void): (() => void) | null {
  if (!observing || !waiting.has(identifier)) return null;
  paintListeners.set(identifier, run);
  return () => {
    if (paintListeners.get(identifier) === run) paintListeners.delete(identifier);
  };
}

export function markPainted(name: 'flint:edit-painted', sinceEpochMs: number): void {
  // rAF runs just before the next frame paints; a message posted from it is handled
  // right after that paint: the moment the change is on screen.
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      const latencyMs = performance.timeOrigin + performance.now() - sinceEpochMs;
      performance.mark(name, { detail: { latencyMs } });
      channel.port1.close();
    };
    channel.port2.postMessage(null);
  });
}
