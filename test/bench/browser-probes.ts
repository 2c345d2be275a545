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
 * way (DOM change → Element Timing's paintTime), 60 times 40 ms apart. Resolves to the
 * latencies in ms.
 */
export const PAINT_FLOOR_PROBE = `(async () => {
  const inserted = new Map();
  const latencies = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const at = inserted.get(entry.identifier);
      if (at !== undefined) latencies.push((entry.paintTime ?? entry.renderTime) - at);
    }
  });
  observer.observe({ type: 'element', buffered: false });
  const host = document.querySelector('.edit-session') ?? document.body;
  for (let index = 0; index < 60; index += 1) {
    const row = document.createElement('div');
    row.textContent = 'floor ' + index;
    row.setAttribute('elementtiming', 'floor-' + index);
    inserted.set('floor-' + index, performance.now());
    host.append(row);
    await new Promise((resolve) => setTimeout(resolve, 40));
    row.remove();
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  observer.disconnect();
  return latencies;
})()`;
