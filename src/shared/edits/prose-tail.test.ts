/**
 * Prose on screen as it streams: the line still arriving and a possible block header are
 * shown at once, what could be a marker is held, and what the screen showed is either kept
 * or, for a path line that heads a block, moved into the hunk's file (never twice, never lost).
 */
import { describe, expect, it } from 'vitest';
import * as fixtures from '../../../test/fixtures/edit-answers';
import { stream } from '../../../test/helpers/prose-screen';
import { DECISION_WINDOW, proseLineGate } from './prose-tail';

describe('proseLineGate', () => {
  it.each([
    ['Here is', 'shown'],
    ['> quoted', 'shown'],
    ['- a list item', 'shown'],
    ['**bold** words', 'shown'],
    ['*** Bold', 'shown'],
    ['``inline`` code', 'shown'],
    ['<div>', 'shown'],
    ['<<<<<<< SEARCHING for', 'shown'],
    ['======= and more', 'shown'],
    ['    indented code', 'shown'],
    ['', 'undecided'],
    ['   ', 'undecided'],
    ['<<<', 'undecided'],
    ['<<<<<<< SEA', 'undecided'],
    ['<<<<<<< SEARCH>  ', 'undecided'],
    ['=======', 'undecided'],
    ['>>>>>>>REPLACE', 'undecided'],
    ['*** ', 'undecided'],
    ['*** Begin Pat', 'undecided'],
    ['*** Upd', 'undecided'],
    ['`', 'undecided'],
    ['~~', 'undecided'],
    ['```ts', 'hidden'],
    ['  ~~~', 'hidden'],
    ['*** Update File: src/a.ts', 'hidden'],
    [' '.repeat(DECISION_WINDOW), 'hidden'],
    [`=======${' '.repeat(DECISION_WINDOW)}`, 'hidden'],
  ])('%j is %s', (start, gate) => {
    expect(proseLineGate(start)).toBe(gate);
  });
});

describe('EditStreamParser: prose as it streams', () => {
  it('shows each character of a prose line as it arrives, before the line ends', () => {
    const text = 'A paragraph that takes a while to arrive at twenty-five tokens a second.\nAnd a second line';
    stream(text, [3], (screen, fed) => expect(screen.text).toBe(fed));
  });

  it('keeps a cut-off prose line the screen already showed (an interrupt, a redirect)', () => {
    const screen = stream('# Walk-through\nFirst, the parser reads', [5], () => undefined, true);
    expect(screen.text).toBe('# Walk-through\nFirst, the parser reads\n');
    expect(screen.tail).toBe('');
  });

  it('holds what may be a marker, at most until the line departs from every marker', () => {
    const seen: string[] = [];
    stream('Intro\n<<<<<<', [1], (screen) => seen.push(screen.text));
    expect(seen.at(-1)).toBe('Intro\n');
    const departed: string[] = [];
    stream('Intro\n<<<<<<< SEARCHING is fun', [1], (screen) => departed.push(screen.text));
    expect(departed.at(-1)).toBe('Intro\n<<<<<<< SEARCHING is fun');
  });

  it('shows a search/replace path line at once, then moves it into the hunk’s file when its SEARCH comes: never twice', () => {
    let shownBeforeSearch = false;
    const screen = stream(fixtures.SEARCH_REPLACE, [2], (now, fed) => {
      if (fed.endsWith('src/app.py') && !fed.includes('SEARCH')) shownBeforeSearch = now.tail.includes('src/app.py');
      if (fed.endsWith('<<<<<<< SEARCH\n') && fed.indexOf('<<<<<<< SEARCH') === fed.length - 15) expect(now.text).not.toContain('src/app.py');
    });
    expect(fixtures.SEARCH_REPLACE).toContain('src/app.py\n```python\n<<<<<<< SEARCH');
    expect(shownBeforeSearch).toBe(true);
    expect(screen.files).toEqual(['src/app.py', 'src/util.py']);
    expect(screen.text.trim()).toBe('Here is the fix.');
  });

  it('shows a path line that no SEARCH follows as the prose it was, once', () => {
    const screen = stream('See src/other.ts for more.\nsrc/other.ts\nThat file has it.\n', [4], () => undefined);
    expect(screen.text).toBe('See src/other.ts for more.\nsrc/other.ts\nThat file has it.\n');
  });

  it('shows prose and patches as what they will be: the screen is always the start of the final prose', () => {
    for (const text of [fixtures.V4A_TWO_HUNKS, fixtures.V4A_ADD_DELETE_MOVE, fixtures.STRAY_MARKERS]) {
      const final = stream(text, [text.length], () => undefined).lines;
      for (const size of [1, 2, 3, 7, 16]) stream(text, [size], (screen) => expect(final.startsWith(screen.text), JSON.stringify({ size, shown: screen.text })).toBe(true));
    }
  });
});
