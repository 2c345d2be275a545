/**
 * A redraw changes only the lines that differ: the result is exactly the new drawing, for
 * random documents and random edits of them (seeded: FLINT_SEED=<seed> starts the run
 * there; `npm run soak` runs more), and what lies between two changes keeps its place.
 */
import { EditorSelection, EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../../../test/helpers/soak';
import { redrawChanges } from './redraw-changes';

const trials = trialCount(2_000, 50_000);
const seed = baseSeed(22);
/** Few distinct lines, so that the diff meets repeats and empty lines. */
const LINES = ['a', 'b', '', '}', 'return x;'];

const redrawn = (before: string, after: string): EditorState => {
  const state = EditorState.create({ doc: before });
  return state.update({ changes: redrawChanges(state.doc, after) }).state;
};

function randomLines(random: () => number, most: number): string[] {
  return Array.from({ length: 1 + Math.floor(random() * most) }, () => LINES[Math.floor(random() * LINES.length)]!);
}

/** `lines` with a few runs removed, replaced or added, anywhere (the first and last lines included). */
function edited(random: () => number, lines: readonly string[]): string[] {
  const out = [...lines];
  for (let edit = Math.floor(random() * 4); edit >= 0; edit -= 1) {
    const at = Math.floor(random() * (out.length + 1));
    const removed = Math.floor(random() * 3);
    out.splice(at, removed, ...randomLines(random, 3).slice(0, Math.floor(random() * 4)));
  }
  return out.length > 0 ? out : [''];
}

describe('redrawChanges', () => {
  it('turns the document into the new drawing exactly, for random documents and edits', () => {
    for (let trial = 0; trial < trials; trial += 1) {
      const random = seededRandom(seed + trial);
      const before = randomLines(random, 12);
      const after = random() < 0.1 ? randomLines(random, 12) : edited(random, before);
      const result = redrawn(before.join('\n'), after.join('\n')).doc.toString();
      expect(result, `seed ${seed + trial}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`).toBe(after.join('\n'));
    }
  });

  it('changes nothing when the drawing is the same', () => {
    const state = EditorState.create({ doc: 'a\nb\nc' });
    expect(redrawChanges(state.doc, 'a\nb\nc')).toEqual([]);
  });

  it('adds a hunk at each end of the file without touching the lines between: the cursor on them stays', () => {
    const file = Array.from({ length: 100 }, (_, index) => `line ${index + 1}`);
    const state = EditorState.create({ doc: file.join('\n'), selection: EditorSelection.cursor(file.slice(0, 49).join('\n').length + 1 + 3) });
    const drawn = [...file.slice(0, 2), '-removed', '+added', ...file.slice(2, 97), '+appended', ...file.slice(97)];
    const changes = redrawChanges(state.doc, drawn.join('\n'));
    const next = state.update({ changes }).state;
    expect(changes).toHaveLength(2);
    expect(next.doc.toString()).toBe(drawn.join('\n'));
    // Line 50 of the file, now two lines further down, with the cursor where it was on it.
    const line = next.doc.lineAt(next.selection.main.head);
    expect([line.text, next.selection.main.head - line.from]).toEqual(['line 50', 3]);
  });

  it('falls back to one span when a large file changes in too many places for a cheap diff', () => {
    const file = Array.from({ length: 20_000 }, (_, index) => `line ${index + 1}`);
    // 200 lines changed, far apart: a diff of 20,000 lines that long would take millions of steps.
    const drawn = file.map((line, index) => (index % 100 === 50 ? `${line} changed` : line));
    const state = EditorState.create({ doc: file.join('\n') });
    const changes = redrawChanges(state.doc, drawn.join('\n'));
    expect(changes).toHaveLength(1);
    expect(state.update({ changes }).state.doc.toString()).toBe(drawn.join('\n'));
  });

  it('reads line breaks as CodeMirror does (\r\n and \r too)', () => {
    expect(redrawn('a\nb', 'a\r\nx\rb').doc.toString()).toBe('a\nx\nb');
  });

  it('removes the last lines with the line break before them', () => {
    expect(redrawn('a\nb\nc', 'a').doc.toString()).toBe('a');
    expect(redrawn('a\nb\nc', 'b\nc').doc.toString()).toBe('b\nc');
    expect(redrawn('a', '').doc.toString()).toBe('');
  });
});
