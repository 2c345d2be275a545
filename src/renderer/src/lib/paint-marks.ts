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

type ElementMark = 'flint:hunk-painted' | 'flint:bar-painted';
const waiting = new Map<string, { sinceEpochMs: number; mark: ElementMark }>();
/** Identifiers whose first DOM insertion was marked (an element drawn twice, as a hunk's preview then its card, counts once). */
const inDom = new Set<string>();
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
      }
    }).observe({ type: 'element', buffered: true });
  }
  element.setAttribute('elementtiming', identifier);
  if (inDom.has(identifier)) return;
  // Bounded: an identifier is marked within a frame or two of its first use.
  if (inDom.size > 1000) inDom.clear();
  inDom.add(identifier);
  waiting.set(identifier, { sinceEpochMs, mark });
  // Flint's own share: from `sinceEpochMs` to the DOM holding the element (the rest is the frame).
  if (mark === 'flint:hunk-painted') performance.mark('flint:hunk-dom', { detail: { latencyMs: performance.timeOrigin + performance.now() - sinceEpochMs } });
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
