/**
 * A hunk on screen before its first line is whole: it opens at its `@@` line (or SEARCH
 * marker), and the line still arriving is previewed — never what may turn out a marker.
 */
import { describe, expect, it } from 'vitest';
import { EditStreamParser } from './edit-stream-parser';
import type { EditEvent } from './edit-types';

function feed(pieces: readonly string[], now?: () => number): EditEvent[] {
  const events: EditEvent[] = [];
  const parser = new EditStreamParser((event) => events.push(event), now ? { now } : {});
  for (const piece of pieces) parser.push(piece);
  return events;
}

const kinds = (events: readonly EditEvent[]) => events.map((event) => event.type);

describe('EditStreamParser: a hunk before its first line is whole', () => {
  it('opens a V4A hunk at the first two bytes of its @@ line, its hint following', () => {
    const events = feed(['*** Begin Patch\n*** Update File: a.ts\n@@', ' function a']);
    expect(events.at(-1)).toEqual({ type: 'hunk-open', hunkIndex: 0, fileIndex: 0, contextHints: [] });
    const whole = feed(['*** Begin Patch\n*** Update File: a.ts\n@@ function a\n']);
    expect(whole.slice(-2)).toEqual([
      { type: 'hunk-open', hunkIndex: 0, fileIndex: 0, contextHints: [] },
      { type: 'hunk-hints', hunkIndex: 0, contextHints: ['function a'] },
    ]);
  });

  it('adds the hints of stacked @@ lines to the hunk they narrow', () => {
    const events = feed(['*** Begin Patch\n*** Update File: a.ts\n@@ class A\n@@ method b\n-x\n']);
    expect(kinds(events)).toEqual(['file', 'hunk-open', 'hunk-hints', 'hunk-hints', 'hunk-line']);
    expect(events[3]).toEqual({ type: 'hunk-hints', hunkIndex: 0, contextHints: ['class A', 'method b'] });
  });

  it('drops blank lines between stacked @@ lines: they separate, they are not lines of the hunk', () => {
    const events = feed(['*** Begin Patch\n*** Update File: a.ts\n@@ a\n\n@@ b\n x\n']);
    expect(events.filter((event) => event.type === 'hunk-line')).toEqual([{ type: 'hunk-line', hunkIndex: 0, line: { kind: 'context', text: 'x' } }]);
  });

  it('previews the line still arriving, growing, until it is whole', () => {
    const events = feed(['*** Begin Patch\n*** Update File: a.ts\n@@\n-ret', 'urn 1;', '\n+re']);
    expect(events.filter((event) => event.type === 'hunk-partial' || event.type === 'hunk-line')).toEqual([
      { type: 'hunk-partial', hunkIndex: 0, line: { kind: 'remove', text: 'ret' } },
      { type: 'hunk-partial', hunkIndex: 0, line: { kind: 'remove', text: 'return 1;' } },
      { type: 'hunk-line', hunkIndex: 0, line: { kind: 'remove', text: 'return 1;' } },
      { type: 'hunk-partial', hunkIndex: 0, line: { kind: 'add', text: 're' } },
    ]);
  });

  it('previews search/replace lines, removed before the divider and added after it', () => {
    const events = feed(['a.ts\n<<<<<<< SEARCH\nold li', 'ne\n=======\nnew']);
    const previews = events.filter((event) => event.type === 'hunk-partial');
    expect(previews.map((event) => event.type === 'hunk-partial' && event.line)).toEqual([
      { kind: 'remove', text: 'old li' },
      { kind: 'add', text: 'new' },
    ]);
  });

  it('never previews what may still be a marker, a header, a fence or padding', () => {
    for (const start of ['*', ' **', '@', '  ', '`', ' ~~']) {
      const events = feed(['*** Begin Patch\n*** Update File: a.ts\n@@\n-x\n', start]);
      expect(events.some((event) => event.type === 'hunk-partial'), JSON.stringify(start)).toBe(false);
    }
    for (const start of ['=', '>>>', '<', '   ']) {
      const events = feed(['a.ts\n<<<<<<< SEARCH\nx\n', start]);
      expect(events.some((event) => event.type === 'hunk-partial'), JSON.stringify(start)).toBe(false);
    }
  });

  it('reads the clock only where a line begins, not with every delta', () => {
    let reads = 0;
    // One delta with whole lines, then two-character deltas: a line begins with the first of them and in two that end one.
    feed(['*** Begin Patch\n*** Update File: a.ts\n@@\n', ...'-return 1;\n+return 2;\n'.match(/[^]{1,2}/g)!], () => (reads += 1));
    expect(reads).toBe(4);
  });

  it('dates a hunk by the first byte of the line that opened it', () => {
    let clock = 100;
    const events = feed(['*** Begin Patch\n', '*** Update File: a.ts\n@', '@ f', '\n'], () => (clock += 10));
    const open = events.find((event) => event.type === 'hunk-open');
    // The `@@` line's first byte came with the second piece (clock 120); it ended in the fourth.
    expect(open).toMatchObject({ startedAt: 120 });
  });
});
