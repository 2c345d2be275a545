/**
 * Runs work just after the next frame is painted: a task posted from requestAnimationFrame
 * runs once that frame is done. For work that must not hold up what the frame shows.
 */

/** Runs `run` after the next frame (within `fallbackMs` on a page that draws none, a hidden one); returns a function that cancels it. */
export function afterNextPaint(run: () => void, fallbackMs = 100): () => void {
  let done = false;
  let posted: ReturnType<typeof setTimeout> | undefined;
  const once = (): void => {
    if (done) return;
    done = true;
    cancel();
    run();
  };
  const frame = requestAnimationFrame(() => (posted = setTimeout(once, 0)));
  const timer = setTimeout(once, fallbackMs);
  const cancel = (): void => {
    done = true;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    clearTimeout(posted);
  };
  return cancel;
}
