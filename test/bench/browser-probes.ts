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
  return { frames: state.frames, longest: state.longest, paints, received };
})()`;

export const CLEAR_EDIT_MARKS = `performance.clearMarks('flint:edit-painted')`;

/** The latest "ask → final diff painted" latency, or undefined. */
export const READ_EDIT_MARK = `performance.getEntriesByName('flint:edit-painted')[0]?.detail.latencyMs`;

/** True once the edit session reports a complete answer (a cheap query, safe to poll). */
export const ANSWER_COMPLETE = `document.querySelector('[aria-label="Edit status"]')?.textContent === 'Answer complete'`;

export const CLEAR_BAR_MARKS = `performance.clearMarks('flint:bar-painted')`;

/** The latest "shortcut → ask bar painted" latency, or undefined. */
export const READ_BAR_MARK = `performance.getEntriesByName('flint:bar-painted')[0]?.detail.latencyMs`;
