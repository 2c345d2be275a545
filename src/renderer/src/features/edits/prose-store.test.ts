import { describe, expect, it } from 'vitest';
import type { AnswerUpdate } from '../../../../shared/ask-types';
import { arrivingSince, ProseStore, type TurnProseText } from './prose-store';

const update = (extra: Partial<AnswerUpdate> = {}): AnswerUpdate => ({ sessionId: 's1', hunks: [], ...extra });
const shown = (store: ProseStore, turn: number): string => store.textOf(turn).text + store.textOf(turn).tail;

describe('ProseStore', () => {
  it('shows a turn’s tail after its lines: appended, replaced, ended by the turn’s next line', () => {
    const store = new ProseStore();
    store.take(update({ proseTail: [{ turn: 1, text: 'Hel', replace: false }] }));
    store.take(update({ proseTail: [{ turn: 1, text: 'lo', replace: false }] }));
    expect(store.textOf(1)).toMatchObject({ text: '', tail: 'Hello' });
    store.take(update({ prose: [{ turn: 1, text: 'Hello\n' }], proseTail: [{ turn: 1, text: 'W', replace: false }] }));
    expect(store.textOf(1)).toMatchObject({ text: 'Hello\n', tail: 'W' });
    store.take(update({ proseTail: [{ turn: 1, text: '', replace: true }] }));
    expect(store.textOf(1)).toMatchObject({ text: 'Hello\n', tail: '' });
  });

  it('keeps each turn’s prose apart, and tells only that turn’s listeners, once a batch', () => {
    const store = new ProseStore();
    const heard: number[] = [];
    store.subscribe(1, () => heard.push(1));
    const stop = store.subscribe(2, () => heard.push(2));
    expect(store.take(update({ prose: [{ turn: 1, text: 'Skipping ' }, { turn: 1, text: 'cancelled' }, { turn: 2, text: 'Using reduce.' }] }))).toBe(true);
    expect([shown(store, 1), shown(store, 2)]).toEqual(['Skipping cancelled', 'Using reduce.']);
    expect(heard).toEqual([1, 2]);
    stop();
    store.take(update({ prose: [{ turn: 2, text: '!' }] }));
    expect(heard).toEqual([1, 2]);
  });

  it('says a batch with nothing new changed nothing, and tells no one', () => {
    const store = new ProseStore();
    store.take(update({ prose: [{ turn: 1, text: 'a' }] }));
    let heard = 0;
    store.subscribe(1, () => (heard += 1));
    expect(store.take(update({ hunks: [] }))).toBe(false);
    expect(store.take(update({ proseTail: [{ turn: 1, text: '', replace: true }] }))).toBe(false);
    expect(heard).toBe(0);
  });

  it('has text only when a turn shows more than white space', () => {
    const store = new ProseStore();
    expect(store.hasText(1)).toBe(false);
    store.take(update({ proseTail: [{ turn: 1, text: '  ', replace: false }] }));
    expect(store.hasText(1)).toBe(false);
    store.take(update({ proseTail: [{ turn: 1, text: 'src/a.ts', replace: false }] }));
    expect(store.hasText(1)).toBe(true);
    store.take(update({ proseTail: [{ turn: 1, text: '', replace: true }] }));
    expect(store.hasText(1)).toBe(false);
  });

  it('replaces everything with a full update, and tells the turns it had', () => {
    const store = new ProseStore();
    store.take(update({ prose: [{ turn: 1, text: 'old' }, { turn: 3, text: 'gone' }] }));
    const heard: number[] = [];
    store.subscribe(3, () => heard.push(3));
    store.take(update({ full: { title: 't' }, prose: [{ turn: 1, text: 'Done.' }] }));
    expect([shown(store, 1), shown(store, 3)]).toEqual(['Done.', '']);
    expect(heard).toEqual([3]);
  });
});

describe('arrivingSince', () => {
  const at = (text: string, tail: string, generation = 0): TurnProseText => ({ text, tail, generation });

  it('is what was added: to the tail, to the lines, across a tail that became a line', () => {
    expect(arrivingSince(at('a\n', 'He'), at('a\n', 'Hello'))).toBe('llo');
    expect(arrivingSince(at('a\n', 'He'), at('a\nHello\n', 'W'))).toBe('llo\nW');
    expect(arrivingSince(at('a\n', ''), at('a\nb\n', ''))).toBe('b\n');
    const same = at('a', 'b');
    expect(arrivingSince(same, same)).toBe('');
  });

  it('is null when the new text does not only add: a tail taken back, another conversation', () => {
    expect(arrivingSince(at('a\n', 'src/x.ts'), at('a\n', ''))).toBeNull();
    expect(arrivingSince(at('a\n', 'src/x.ts'), at('a\nsrc/y.ts\n', ''))).toBeNull();
    expect(arrivingSince(at('abc\n', ''), at('ab', ''))).toBeNull();
    expect(arrivingSince(at('a', ''), at('ab', '', 1))).toBeNull();
  });

  it('agrees with comparing the whole texts, for any tail and any growth (seeded)', () => {
    let seed = 7;
    const random = (): number => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const piece = (): string => ['', 'a', 'b\n', 'ab', '\n', 'ba'][Math.floor(random() * 6)]!;
    for (let trial = 0; trial < 2_000; trial += 1) {
      const before = at(piece() + piece(), piece());
      const grown = random() < 0.5;
      const after = at(grown ? before.text + piece() : piece() + piece(), piece());
      if (after.text.length >= before.text.length && !after.text.startsWith(before.text)) continue; // never within a generation
      const whole = after.text + after.tail;
      const was = before.text + before.tail;
      expect(arrivingSince(before, after), JSON.stringify([before, after])).toBe(whole.startsWith(was) && after.text.startsWith(before.text) ? whole.slice(was.length) : null);
    }
  });
});
