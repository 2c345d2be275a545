/**
 * Scripts the bench runs inside the page, as plain JavaScript source: functions passed to
 * page.evaluate would carry the TypeScript runner's helpers into the browser.
 */

/** Starts counting animation frames and the longest long task. */
export const START_FRAME_PROBE = `(() => {
  const state = { frames: 0, longest: 0, running: true };
  window.benchRender = state;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) state.longest = Math.max(state.longest, entry.duration);
  }).observe({ type: 'longtask', buffered: false });
  const tick = () => {
    if (!state.running) return;
    state.frames += 1;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  performance.clearMarks();
})()`;

/** Stops the frame probe; returns frames, the longest task, and every hunk-paint latency. */
export const STOP_FRAME_PROBE = `(() => {
  const state = window.benchRender;
  state.running = false;
  const paints = performance.getEntriesByName('flint:hunk-painted').map((mark) => mark.detail.latencyMs);
  const received = performance.getEntriesByName('flint:hunk-received').map((mark) => mark.detail.latencyMs);
  const dom = performance.getEntriesByName('flint:hunk-dom').map((mark) => mark.detail.latencyMs);
  return { frames: state.frames, longest: state.longest, paints, received, dom };
})()`;

export const CLEAR_EDIT_MARKS = `performance.clearMarks('flint:edit-painted')`;

/** The latest "ask → final diff painted" latency, or undefined. */
export const READ_EDIT_MARK = `performance.getEntriesByName('flint:edit-painted')[0]?.detail.latencyMs`;

/** True once the edit session reports a complete answer (a cheap query, safe to poll). */
export const ANSWER_COMPLETE = `document.querySelector('[aria-label="Edit status"]')?.textContent === 'Answer complete'`;

export const CLEAR_BAR_MARKS = `performance.clearMarks('flint:bar-painted')`;

/** The latest "shortcut → ask bar painted" latency, or undefined. */
export const READ_BAR_MARK = `performance.getEntriesByName('flint:bar-painted')[0]?.detail.latencyMs`;

/** When the ask bar was last painted (epoch ms), or undefined. */
export const READ_BAR_PAINTED_AT = `performance.getEntriesByName('flint:bar-painted')[0]?.detail.paintedAtEpochMs`;

/**
 * Watches for the ask bar to say it is about \`path\`, focused in an editor; resolves to
 * when it did (epoch ms). Started before the shortcut; the bar's DOM is checked at every change.
 */
export const watchFocusedFile = (path: string): string => `new Promise((resolve) => {
  const check = () => {
    const title = document.querySelector('[aria-label="Ask scope"]')?.textContent ?? '';
    const source = document.querySelector('[aria-label="Where the file came from"]')?.textContent ?? '';
    if (!title.includes(${JSON.stringify(path)}) || !source.startsWith('focused in')) return false;
    resolve(performance.timeOrigin + performance.now());
    observer.disconnect();
    return true;
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
})`;

/**
 * The floor under first_hunk_paint: a one-element change on the same page, timed the same
 * way (DOM change → Element Timing's paintTime). Started before the answer and sampling
 * every 50 ms while it streams, so floor and hunks are measured under the same load.
 *
 * Each probe element stays until its paint is observed: Chromium reports an element's paint
 * only if it is still in the page when its frame is presented, and the probe used to remove
 * each row after 40 ms — under load, before that, so no paint was reported and the p95 of
 * no latencies was NaN. It sits fixed in the viewport's corner (painted wherever the pane
 * is scrolled, never below its fold), out of the flow and of hit testing: it lays out
 * nothing else and hovers nothing.
 */
export const START_PAINT_FLOOR_PROBE = `(() => {
  const state = { pending: new Map(), latencies: [], running: true, next: 0 };
  window.benchFloor = state;
  state.observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const probe = state.pending.get(entry.identifier);
      if (probe === undefined) continue;
      state.pending.delete(entry.identifier);
      state.latencies.push((entry.paintTime ?? entry.renderTime) - probe.at);
      probe.element.remove();
    }
  });
  state.observer.observe({ type: 'element', buffered: false });
  const insert = () => {
    if (!state.running) return;
    const element = document.createElement('div');
    const identifier = 'bench-floor-' + state.next++;
    element.textContent = identifier;
    element.style.cssText = 'position:fixed;left:2px;bottom:2px;font:10px monospace;pointer-events:none;z-index:2147483647';
    element.setAttribute('elementtiming', identifier);
    state.pending.set(identifier, { at: performance.now(), element });
    document.body.append(element);
    state.timer = setTimeout(insert, 50);
  };
  insert();
})()`;

/**
 * Stops the floor probe once the paints of its last elements are observed (at most 2 s);
 * resolves to the latencies in ms and how many elements were never seen painted.
 */
export const STOP_PAINT_FLOOR_PROBE = `(async () => {
  const state = window.benchFloor;
  state.running = false;
  clearTimeout(state.timer);
  for (let wait = 0; wait < 40 && state.pending.size > 0; wait += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  state.observer.disconnect();
  for (const probe of state.pending.values()) probe.element.remove();
  return { latencies: state.latencies, unobserved: state.pending.size };
})()`;
