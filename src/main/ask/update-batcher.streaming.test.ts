/**
 * Streaming hunks' updates built as their batch goes out (UpdateBatcher.streaming): what
 * grows with every delta costs one update per hunk and batch. Counts, never time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AnswerUpdate } from '../../shared/ask-types';
import type { HunkLine } from '../../shared/edits/edit-types';
import type { HunkUpdate } from '../../shared/edits/hunk-types';
import { added, hunkUpdate } from '../../../test/helpers/hunk-updates';
import { UpdateBatcher } from './update-batcher';

/** Far beyond any test: only an acknowledgement (or flush) releases a held batch. */
const NEVER_MS = 60 * 60 * 1000;
const batchers: UpdateBatcher[] = [];
afterEach(() => {
  for (const batcher of batchers.splice(0)) batcher.dispose();
});

/** A batcher whose batches land in `sent`. */
function createBatcher(): { batcher: UpdateBatcher; sent: AnswerUpdate[] } {
  const sent: AnswerUpdate[] = [];
  const batcher = new UpdateBatcher('session-1', (update) => sent.push(update), NEVER_MS);
  batchers.push(batcher);
  return { batcher, sent };
}

/** A streaming hunk as its board knows it: its lines and line in progress change; `build` counts the updates made of it. */
function streamingHunk(id: string) {
  const hunk = { lines: [] as HunkLine[], sent: 0, partial: undefined as HunkLine | undefined, builds: 0 };
  const build = (): HunkUpdate | null => {
    hunk.builds += 1;
    const appendLines = hunk.lines.slice(hunk.sent);
    hunk.sent = hunk.lines.length;
    if (appendLines.length === 0 && hunk.partial === undefined) return null;
    return hunkUpdate(id, appendLines, 'streaming', hunk.partial ? { partialLine: hunk.partial } : {});
  };
  return { hunk, build };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('UpdateBatcher: streaming hunks', () => {
  it('a hunk’s previews within one batch go out as one, the latest, built once', async () => {
    const { batcher, sent } = createBatcher();
    const { hunk, build } = streamingHunk('0.0');
    for (const text of ['re', 'retu', 'return', 'return 1;']) {
      hunk.partial = { kind: 'add', text };
      batcher.streaming('0.0', build, false);
    }
    expect(hunk.builds).toBe(0);
    await turn();
    expect(hunk.builds).toBe(1);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.hunks).toEqual([hunkUpdate('0.0', [], 'streaming', { partialLine: { kind: 'add', text: 'return 1;' } })]);
  });

  it('sends every line once across batches, each batch one update per hunk, with the preview as it was when the batch went out', () => {
    const { batcher, sent } = createBatcher();
    const { hunk, build } = streamingHunk('0.0');
    const lines = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    lines.forEach((text, index) => {
      hunk.partial = { kind: 'add', text: text.slice(0, 1) };
      batcher.streaming('0.0', build, false);
      hunk.lines.push({ kind: 'add', text });
      hunk.partial = undefined;
      batcher.streaming('0.0', build, false);
      // The renderer takes a batch every third line.
      if (index % 3 === 2) batcher.flush();
    });
    batcher.flush();
    expect(sent).toHaveLength(3);
    expect(sent.every((update) => update.hunks.length === 1)).toBe(true);
    expect(sent.flatMap((update) => update.hunks[0]!.appendLines.map((line) => line.text))).toEqual(lines);
    expect(hunk.builds).toBe(3);
  });

  it('merges a streaming hunk’s built update with the batch’s other updates of it: their lines first, then its own and the latest fields', () => {
    const { batcher, sent } = createBatcher();
    const { hunk, build } = streamingHunk('0.0');
    batcher.hunk(hunkUpdate('0.0', added('one')), true);
    hunk.sent = 1;
    hunk.lines.push(...added('one', 'two'));
    hunk.partial = { kind: 'add', text: 'thr' };
    batcher.streaming('0.0', build, false);
    batcher.flush();
    expect(sent).toEqual([{ sessionId: 'session-1', hunks: [hunkUpdate('0.0', added('one', 'two'), 'streaming', { partialLine: { kind: 'add', text: 'thr' } })] }]);
  });

  it('sends nothing for a hunk whose builder has nothing by then, and forgets the builders of a batch once it is out', () => {
    const { batcher, sent } = createBatcher();
    const { hunk, build } = streamingHunk('0.0');
    hunk.partial = { kind: 'add', text: 'x' };
    batcher.streaming('0.0', build, false);
    hunk.partial = undefined;
    batcher.flush();
    expect(sent).toEqual([]);
    batcher.flush();
    expect(hunk.builds).toBe(1);
  });

  it('sends an urgent one (a hunk’s first line) on the next turn, and a held one only with an acknowledgement', async () => {
    const { batcher, sent } = createBatcher();
    const first = streamingHunk('0.0');
    first.hunk.lines.push(...added('first'));
    batcher.streaming('0.0', first.build, true);
    await turn();
    expect(sent).toHaveLength(1);
    first.hunk.lines.push(...added('second'));
    batcher.streaming('0.0', first.build, false);
    await turn();
    expect(sent).toHaveLength(1);
    batcher.acknowledge();
    expect(sent.map((update) => update.hunks[0]!.appendLines.map((line) => line.text))).toEqual([['first'], ['second']]);
  });

  it('builds nothing once disposed', () => {
    const { batcher } = createBatcher();
    const { hunk, build } = streamingHunk('0.0');
    hunk.partial = { kind: 'add', text: 'x' };
    batcher.streaming('0.0', build, true);
    batcher.dispose();
    batcher.flush();
    expect(hunk.builds).toBe(0);
  });
});
