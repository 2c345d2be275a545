import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/helpers/seeded-random';
import { baseSeed, trialCount } from '../../../test/helpers/soak';
import type { HunkLine } from './edit-types';
import { LinePreview, previewShape, type ParserMode } from './edit-stream-lines';
import { HEAD_CHARACTERS, UnfinishedLine } from './unfinished-line';

/** The preview read from the whole head at once (what the parser computed per delta before). */
function previewOfHead(mode: ParserMode, head: string): HunkLine | null {
  const text = head.endsWith('\r') ? head.slice(0, -1) : head;
  const trimmed = text.trimStart();
  if (trimmed === '') return null;
  if (mode === 'search' || mode === 'replace') return /^[=<>`~]/.test(trimmed) ? null : { kind: mode === 'search' ? 'remove' : 'add', text };
  if (trimmed.startsWith('*') || trimmed.startsWith('`') || trimmed.startsWith('~')) return null;
  const kinds: Record<string, HunkLine['kind']> = { ' ': 'context', '-': 'remove', '+': 'add' };
  const kind = kinds[text[0]!];
  if (mode === 'add') return text[0] === '+' ? { kind: 'add', text: text.slice(1) } : null;
  return mode === 'update' && kind !== undefined ? { kind, text: text.slice(1) } : null;
}

const MODES: ParserMode[] = ['update', 'add', 'search', 'replace'];
const STARTS = ['', ' ', '  ', '\t', '+', '-', ' *', '*', '@', '`', '~', '=', '<', '>', '\u00a0', '\u3000', '\r'];
const BODIES = ['x', 'return 1;', 'a\rb', '', '=== not a marker', '  indented', 'é€😀', 'x'.repeat(HEAD_CHARACTERS + 40)];

describe('LinePreview', () => {
  it('is, after every piece, what the whole head says — kept up piece by piece, however the line is cut (property)', () => {
    const first = baseSeed(11);
    for (let seed = first; seed < first + trialCount(400, 20_000); seed += 1) {
      const random = seededRandom(seed);
      const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
      const mode = pick(MODES);
      const line = pick(STARTS) + pick(STARTS) + pick(BODIES) + (random() < 0.3 ? '\r' : '');
      const unfinished = new UnfinishedLine();
      const preview = new LinePreview();
      let shown = '';
      for (let offset = 0; offset < line.length; ) {
        const piece = line.slice(offset, (offset += 1 + Math.floor(random() * 12)));
        unfinished.add(piece);
        const head = unfinished.head;
        const expected = head === shown ? null : previewOfHead(mode, head);
        if (expected !== null) shown = head;
        expect(preview.next(mode, head, piece), `seed ${seed}: ${JSON.stringify({ mode, line: line.slice(0, 60), head: head.slice(0, 60) })}`).toEqual(expected);
      }
    }
  });

  it('starts again with each line', () => {
    const preview = new LinePreview();
    expect(preview.next('update', '+abc', '+abc')).toEqual({ kind: 'add', text: 'abc' });
    preview.reset();
    expect(preview.next('update', '-x', '-x')).toEqual({ kind: 'remove', text: 'x' });
    expect(preview.next('update', '-xy', 'y')).toEqual({ kind: 'remove', text: 'xy' });
  });
});

describe('previewShape', () => {
  it('tells nothing while a line is whitespace only, whatever the whitespace (all that trimStart strips)', () => {
    for (let code = 0; code < 0x10000; code += 1) {
      const character = String.fromCharCode(code);
      if (character.trimStart() !== '') continue;
      for (const mode of MODES) expect(previewShape(mode, `${character} ${character}`), `U+${code.toString(16)}`).toBeUndefined();
    }
  });

  it('is told by the first character that is not whitespace, and the line’s prefix', () => {
    expect(previewShape('update', ' \u00a0x')).toEqual({ kind: 'context', offset: 1 });
    expect(previewShape('update', '  ***')).toBeNull();
    expect(previewShape('add', '+ x')).toEqual({ kind: 'add', offset: 1 });
    expect(previewShape('add', ' x')).toBeNull();
    expect(previewShape('search', '  ====')).toBeNull();
    expect(previewShape('replace', '  new')).toEqual({ kind: 'add', offset: 0 });
  });
});
