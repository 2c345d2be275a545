/**
 * One React commit a frame for every view of a streaming answer's prose.
 *
 * The ask bar and the pane each show the turn's prose (TurnProse.tsx), and each formats it
 * once a frame. With an animation callback and a flushSync each, a frame paid for two React
 * commits (their layout effects, their passive-effect flush) where one does: so the views
 * queue their updates here and the frame's one callback renders them all in one flushSync.
 */
import { flushSync } from 'react-dom';

export interface FrameScheduler {
  request(run: () => void): number;
  cancel(id: number): void;
  /** Renders what `work` sets before returning (React's flushSync). */
  renderNow(work: () => void): void;
}

const browserScheduler: FrameScheduler = {
  request: (run) => requestAnimationFrame(run),
  cancel: (id) => cancelAnimationFrame(id),
  renderNow: (work) => flushSync(work),
};

export class FormatFrame {
  /** The updates the next frame renders, one per view (keyed by it: a view asking twice is rendered once). */
  private readonly queued = new Map<object, () => void>();
  /** The frame asked for; 0 when none is (an animation frame's handle is never 0). */
  private frame = 0;

  constructor(private readonly scheduler: FrameScheduler = browserScheduler) {}

  /** `update` (it only sets state) is rendered in the next frame, in the same commit as the other views'. */
  next(view: object, update: () => void): void {
    this.queued.set(view, update);
    this.frame ||= this.scheduler.request(() => this.run());
  }

  /** Takes back what `view` queued: it rendered at once, or went away. */
  drop(view: object): void {
    this.queued.delete(view);
    if (this.queued.size > 0 || this.frame === 0) return;
    this.scheduler.cancel(this.frame);
    this.frame = 0;
  }

  private run(): void {
    this.frame = 0;
    const updates = [...this.queued.values()];
    this.queued.clear();
    // A view that asks again while this commit runs (its layout effect found more text) goes to the next frame.
    this.scheduler.renderNow(() => {
      for (const update of updates) update();
    });
  }
}

/** The page's: every TurnProse shares it. */
export const formatFrame = new FormatFrame();
