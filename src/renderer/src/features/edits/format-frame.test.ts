/**
 * Every view's prose formats in one commit a frame: the frame (stood in for by a callback the
 * test runs) renders all that the views queued, in one renderNow.
 */
import { describe, expect, it } from 'vitest';
import { FormatFrame } from './format-frame';

function harness() {
  const frames = new Map<number, () => void>();
  let nextId = 0;
  const commits: string[][] = [];
  let open: string[] | null = null;
  const frame = new FormatFrame({
    request: (run) => {
      nextId += 1;
      frames.set(nextId, run);
      return nextId;
    },
    cancel: (id) => void frames.delete(id),
    renderNow: (work) => {
      open = [];
      work();
      commits.push(open);
      open = null;
    },
  });
  const runFrame = (): void => {
    const due = [...frames.values()];
    frames.clear();
    for (const run of due) run();
  };
  const update = (name: string) => () => open?.push(name);
  return { frame, runFrame, commits, update, pendingFrames: () => frames.size };
}

describe('FormatFrame', () => {
  it('renders the two views of an answer in one commit, with one frame requested', () => {
    const { frame, runFrame, commits, update, pendingFrames } = harness();
    const bar = {};
    const pane = {};
    frame.next(bar, update('bar'));
    frame.next(pane, update('pane'));
    frame.next(bar, update('bar again'));
    expect(pendingFrames()).toBe(1);
    runFrame();
    expect(commits).toEqual([['bar again', 'pane']]);
  });

  it('renders nothing for a view that formatted at once, and requests no frame when none is left', () => {
    const { frame, runFrame, commits, update, pendingFrames } = harness();
    const bar = {};
    const pane = {};
    frame.next(bar, update('bar'));
    frame.next(pane, update('pane'));
    frame.drop(bar);
    expect(pendingFrames()).toBe(1);
    frame.drop(pane);
    expect(pendingFrames()).toBe(0);
    runFrame();
    expect(commits).toEqual([]);
  });

  it('keeps the frame for the other view when a view that queued nothing, or already formatted, drops', () => {
    const { frame, runFrame, commits, update, pendingFrames } = harness();
    const bar = {};
    const pane = {};
    frame.next(pane, update('pane'));
    frame.drop(bar);
    expect(pendingFrames()).toBe(1);
    runFrame();
    frame.drop(pane);
    expect(commits).toEqual([['pane']]);
    expect(pendingFrames()).toBe(0);
  });

  it('puts what a view asks for during the frame’s commit into the next frame, not this one', () => {
    const { frame, runFrame, commits, update } = harness();
    const bar = {};
    frame.next(bar, () => frame.next(bar, update('more text')));
    runFrame();
    expect(commits).toEqual([[]]);
    runFrame();
    expect(commits).toEqual([[], ['more text']]);
  });
});
