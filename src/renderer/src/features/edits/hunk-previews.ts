/**
 * A new hunk on screen in the very task its first update arrives in, before React renders
 * its card: a plain-DOM card in its turn's place, drawn by the same HunkEditor, which the
 * React card takes over (adopt) when it mounts. This takes React off the path of a hunk's
 * first paint (the bench's first_hunk_paint, timed to its head's paint).
 */
import type { HunkUpdate } from '../../../../shared/edits/hunk-types';
import { markElementPainted, onceElementPainted } from '../../lib/paint-marks';
import { HunkEditor } from './hunk-editor';
import type { HunkLineStore } from './hunk-line-store';
import { afterNextPaint } from '../../lib/after-paint';

/** The longest a card waits for its preview's paint to be on record (see whenPainted). */
const PAINT_RECORD_WAIT_MS = 500;

export class HunkPreviews {
  private readonly shown = new Map<string, { card: HTMLElement; editor: HunkEditor }>();
  /** The previews drawn since whenPainted was last asked: each one's head and its paint identifier. */
  private drawn: Array<{ identifier: string; head: HTMLElement }> = [];

  constructor(private readonly store: HunkLineStore) {}

  /** Draws `hunk` if it streams, no card follows it yet and its turn's place is on screen; true if it drew it now. */
  take(hunk: HunkUpdate): boolean {
    if (hunk.state !== 'streaming' || this.store.isFollowed(hunk.id) || this.shown.has(hunk.id)) return false;
    const place = document.querySelector<HTMLElement>(`.hunk-previews[data-turn="${hunk.turn}"]`);
    if (!place) return false;
    const card = document.createElement('article');
    card.className = 'hunk-card is-streaming is-preview';
    // Its React card, a frame later, is the one assistive technology reads.
    card.setAttribute('aria-hidden', 'true');
    const header = document.createElement('header');
    header.className = 'hunk-header';
    const path = document.createElement('span');
    path.className = 'hunk-path';
    path.textContent = hunk.path;
    const counts = document.createElement('span');
    counts.className = 'hunk-counts';
    const state = document.createElement('span');
    state.className = 'hunk-state';
    state.textContent = 'Streaming…';
    header.append(path, counts, state);
    const body = document.createElement('div');
    body.className = 'hunk-body';
    card.append(header, body);
    const editor = new HunkEditor(body, counts);
    editor.show(this.store.linesOf(hunk.id), false, this.store.partialOf(hunk.id));
    this.store.listen(hunk.id, editor);
    place.append(card);
    // The hunk is on screen when its card's head (its path) is: timed from its first byte.
    if (hunk.firstByteAtEpochMs !== undefined) {
      const identifier = `hunk:${hunk.id}@${hunk.firstByteAtEpochMs}`;
      markElementPainted(path, identifier, hunk.firstByteAtEpochMs);
      this.drawn.push({ identifier, head: path });
    }
    this.shown.set(hunk.id, { card, editor });
    return true;
  }

  /**
   * Runs `run` once the previews drawn so far are painted and their paint is on record —
   * their React cards, which remove them, wait for this: Chromium drops the paint of an
   * element gone by the time its frame is presented — or after PAINT_RECORD_WAIT_MS; where
   * that cannot be known, after the next frame. A preview out of view (the user scrolled up
   * to read) is never painted, so never on record: it is not waited for once the frame's
   * layout says so. Returns a function that cancels it.
   */
  whenPainted(run: () => void): () => void {
    const drawn = this.drawn;
    this.drawn = [];
    let left = 0;
    let done = false;
    const cancels: Array<() => void> = [];
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      for (const cancel of cancels) cancel();
      run();
    };
    for (const { identifier, head } of drawn) {
      let counted = false;
      const painted = (): void => {
        if (counted) return;
        counted = true;
        if (--left === 0) finish();
      };
      const cancel = onceElementPainted(identifier, painted);
      if (cancel === null) continue;
      left += 1;
      cancels.push(cancel, whenOutOfView(head, painted));
    }
    if (left === 0) return afterNextPaint(run);
    const timer = setTimeout(finish, PAINT_RECORD_WAIT_MS);
    return () => {
      done = true;
      clearTimeout(timer);
      for (const cancel of cancels) cancel();
    };
  }

  /** The React card for `id` mounted: it takes the drawing (or null if there was none). */
  adopt(id: string, host: HTMLElement, counts: HTMLElement): HunkEditor | null {
    const shown = this.shown.get(id);
    if (!shown) return null;
    this.shown.delete(id);
    shown.editor.moveTo(host, counts);
    shown.card.remove();
    return shown.editor;
  }

  clear(): void {
    for (const { card } of this.shown.values()) card.remove();
    this.shown.clear();
    this.drawn = [];
  }
}

/** Runs `run` if `element` turns out to be outside the viewport (its scroll containers' clips included) at the next layout; returns a function that cancels it. */
function whenOutOfView(element: HTMLElement, run: () => void): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => undefined;
  const observer = new IntersectionObserver((entries) => {
    observer.disconnect();
    if (entries.some((entry) => !entry.isIntersecting)) run();
  });
  observer.observe(element);
  return () => observer.disconnect();
}
