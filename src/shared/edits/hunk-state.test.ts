import { describe, expect, it } from 'vitest';
import { HUNK_EVENT_TYPES, HUNK_STATES, isUndecided, nextHunkState, type HunkEvent } from './hunk-state';
import type { HunkState } from './hunk-types';

/** Every event, each `outcome` variant on its own, keyed by a label for the table. */
const EVENTS = {
  'settled (pending)': { type: 'settled', outcome: 'pending' },
  'settled (unmatched)': { type: 'settled', outcome: 'unmatched' },
  'settled (conflict)': { type: 'settled', outcome: 'conflict' },
  'settled (refused)': { type: 'settled', outcome: 'refused' },
  'cut-off': { type: 'cut-off' },
  accept: { type: 'accept' },
  written: { type: 'written' },
  'write-declined (conflict)': { type: 'write-declined', outcome: 'conflict' },
  'write-declined (unmatched)': { type: 'write-declined', outcome: 'unmatched' },
  'write-declined (refused)': { type: 'write-declined', outcome: 'refused' },
  'write-failed': { type: 'write-failed' },
  reject: { type: 'reject' },
  'restored (pending)': { type: 'restored', to: 'pending' },
  'restored (conflict)': { type: 'restored', to: 'conflict' },
  'restored (unmatched)': { type: 'restored', to: 'unmatched' },
  'restored (partial)': { type: 'restored', to: 'partial' },
  'restored (refused)': { type: 'restored', to: 'refused' },
  'replanned (pending)': { type: 'replanned', outcome: 'pending' },
  'replanned (conflict)': { type: 'replanned', outcome: 'conflict' },
  'replanned (unmatched)': { type: 'replanned', outcome: 'unmatched' },
  'file-deleted': { type: 'file-deleted' },
  'section-refused': { type: 'section-refused' },
  undone: { type: 'undone' },
  redone: { type: 'redone' },
} as const satisfies Record<string, HunkEvent>;

type EventLabel = keyof typeof EVENTS;

/**
 * What the machine must answer: a state name is the next state; `{ refused }` is a
 * refusal with exactly that message; `'n/a'` is the generic "does not apply" sentence.
 */
type Expected = HunkState | { refused: string } | 'n/a';

const STILL_STREAMING_ACCEPT = { refused: 'This hunk is still streaming; wait for it to complete.' };
const STILL_STREAMING_REJECT = { refused: 'This hunk is still streaming; Stop first, or wait for it.' };
const cannotAccept = (state: HunkState) => ({ refused: `This hunk is ${state}; only a complete, anchored hunk can be accepted.` });

/** The whole machine, written out by hand: 9 states × 24 events (13 types with their outcomes). */
const TABLE: Record<HunkState, Record<EventLabel, Expected>> = {
  streaming: {
    'settled (pending)': 'pending',
    'settled (unmatched)': 'unmatched',
    'settled (conflict)': 'conflict',
    'settled (refused)': 'refused',
    'cut-off': 'partial',
    accept: STILL_STREAMING_ACCEPT,
    written: 'n/a',
    'write-declined (conflict)': 'n/a',
    'write-declined (unmatched)': 'n/a',
    'write-declined (refused)': 'n/a',
    'write-failed': 'n/a',
    reject: STILL_STREAMING_REJECT,
    'restored (pending)': 'n/a',
    'restored (conflict)': 'n/a',
    'restored (unmatched)': 'n/a',
    'restored (partial)': 'n/a',
    'restored (refused)': 'n/a',
    'replanned (pending)': 'n/a',
    'replanned (conflict)': 'n/a',
    'replanned (unmatched)': 'n/a',
    'file-deleted': 'n/a',
    'section-refused': 'refused',
    undone: 'n/a',
    redone: 'n/a',
  },
  pending: {
    'settled (pending)': 'n/a',
    'settled (unmatched)': 'n/a',
    'settled (conflict)': 'n/a',
    'settled (refused)': 'n/a',
    'cut-off': 'n/a',
    accept: 'applying',
    written: 'n/a',
    'write-declined (conflict)': 'n/a',
    'write-declined (unmatched)': 'n/a',
    'write-declined (refused)': 'n/a',
    'write-failed': 'n/a',
    reject: 'rejected',
    'restored (pending)': 'n/a',
    'restored (conflict)': 'n/a',
    'restored (unmatched)': 'n/a',
    'restored (partial)': 'n/a',
    'restored (refused)': 'n/a',
    'replanned (pending)': 'pending',
    'replanned (conflict)': 'conflict',
    'replanned (unmatched)': 'unmatched',
    'file-deleted': 'conflict',
    'section-refused': 'refused',
    undone: 'n/a',
    redone: 'accepted',
  },
  applying: {
    'settled (pending)': 'n/a',
    'settled (unmatched)': 'n/a',
    'settled (conflict)': 'n/a',
    'settled (refused)': 'n/a',
    'cut-off': 'n/a',
    accept: cannotAccept('applying'),
    written: 'accepted',
    'write-declined (conflict)': 'conflict',
    'write-declined (unmatched)': 'unmatched',
    'write-declined (refused)': 'refused',
    'write-failed': 'pending',
    reject: { refused: 'This hunk is being written; use Undo once it is.' },
    'restored (pending)': 'n/a',
    'restored (conflict)': 'n/a',
    'restored (unmatched)': 'n/a',
    'restored (partial)': 'n/a',
    'restored (refused)': 'n/a',
    'replanned (pending)': 'n/a',
    'replanned (conflict)': 'n/a',
    'replanned (unmatched)': 'n/a',
    'file-deleted': 'n/a',
    'section-refused': 'n/a',
    undone: 'n/a',
    redone: 'n/a',
  },
  accepted: {
    'settled (pending)': 'n/a',
    'settled (unmatched)': 'n/a',
    'settled (conflict)': 'n/a',
    'settled (refused)': 'n/a',
    'cut-off': 'n/a',
    accept: cannotAccept('accepted'),
    written: 'n/a',
    'write-declined (conflict)': 'n/a',
    'write-declined (unmatched)': 'n/a',
    'write-declined (refused)': 'n/a',
    'write-failed': 'n/a',
    reject: { refused: 'This hunk is already written; use Undo instead.' },
    'restored (pending)': 'n/a',
    'restored (conflict)': 'n/a',
    'restored (unmatched)': 'n/a',
    'restored (partial)': 'n/a',
    'restored (refused)': 'n/a',
    'replanned (pending)': 'n/a',
    'replanned (conflict)': 'n/a',
    'replanned (unmatched)': 'n/a',
    'file-deleted': 'n/a',
    'section-refused': 'n/a',
    undone: 'pending',
    redone: 'n/a',
  },
  conflict: {
    'settled (pending)': 'n/a',
    'settled (unmatched)': 'n/a',
    'settled (conflict)': 'n/a',
    'settled (refused)': 'n/a',
    'cut-off': 'n/a',
    accept: cannotAccept('conflict'),
    written: 'n/a',
    'write-declined (conflict)': 'n/a',
    'write-declined (unmatched)': 'n/a',
    'write-declined (refused)': 'n/a',
    'write-failed': 'n/a',
    reject: 'rejected',
    'restored (pending)': 'n/a',
    'restored (conflict)': 'n/a',
    'restored (unmatched)': 'n/a',
    'restored (partial)': 'n/a',
    'restored (refused)': 'n/a',
    'replanned (pending)': 'pending',
    'replanned (conflict)': 'conflict',
    'replanned (unmatched)': 'unmatched',
    'file-deleted': 'conflict',
    'section-refused': 'refused',
    undone: 'n/a',
    redone: 'accepted',
  },
  unmatched: {
    'settled (pending)': 'n/a',
    'settled (unmatched)': 'n/a',
    'settled (conflict)': 'n/a',
    'settled (refused)': 'n/a',
    'cut-off': 'n/a',
    accept: cannotAccept('unmatched'),
    written: 'n/a',
    'write-declined (conflict)': 'n/a',
    'write-declined (unmatched)': 'n/a',
    'write-declined (refused)': 'n/a',
    'write-failed': 'n/a',
    reject: 'rejected',
    'restored (pending)': 'n/a',
    'restored (conflict)': 'n/a',
    'restored (unmatched)': 'n/a',
    'restored (partial)': 'n/a',
    'restored (refused)': 'n/a',
    'replanned (pending)': 'n/a',
    'replanned (conflict)': 'n/a',
    'replanned (unmatched)': 'n/a',
    'file-deleted': 'n/a',
    'section-refused': 'refused',
    undone: 'n/a',
    redone: 'accepted',
  },
  partial: {
    'settled (pending)': 'n/a',
    'settled (unmatched)': 'n/a',
    'settled (conflict)': 'n/a',
    'settled (refused)': 'n/a',
    'cut-off': 'n/a',
    accept: cannotAccept('partial'),
    written: 'n/a',
    'write-declined (conflict)': 'n/a',
    'write-declined (unmatched)': 'n/a',
    'write-declined (refused)': 'n/a',
    'write-failed': 'n/a',
    reject: 'rejected',
    'restored (pending)': 'n/a',
    'restored (conflict)': 'n/a',
    'restored (unmatched)': 'n/a',
    'restored (partial)': 'n/a',
    'restored (refused)': 'n/a',
    'replanned (pending)': 'n/a',
    'replanned (conflict)': 'n/a',
    'replanned (unmatched)': 'n/a',
    'file-deleted': 'n/a',
    'section-refused': 'refused',
    undone: 'n/a',
    redone: 'n/a',
  },
  rejected: {
    'settled (pending)': 'n/a',
    'settled (unmatched)': 'n/a',
    'settled (conflict)': 'n/a',
    'settled (refused)': 'n/a',
    'cut-off': 'n/a',
    accept: cannotAccept('rejected'),
    written: 'n/a',
    'write-declined (conflict)': 'n/a',
    'write-declined (unmatched)': 'n/a',
    'write-declined (refused)': 'n/a',
    'write-failed': 'n/a',
    reject: 'rejected',
    'restored (pending)': 'pending',
    'restored (conflict)': 'conflict',
    'restored (unmatched)': 'unmatched',
    'restored (partial)': 'partial',
    'restored (refused)': 'refused',
    'replanned (pending)': 'n/a',
    'replanned (conflict)': 'n/a',
    'replanned (unmatched)': 'n/a',
    'file-deleted': 'n/a',
    'section-refused': 'n/a',
    undone: 'n/a',
    redone: 'accepted',
  },
  refused: {
    'settled (pending)': 'n/a',
    'settled (unmatched)': 'n/a',
    'settled (conflict)': 'n/a',
    'settled (refused)': 'n/a',
    'cut-off': 'n/a',
    accept: cannotAccept('refused'),
    written: 'n/a',
    'write-declined (conflict)': 'n/a',
    'write-declined (unmatched)': 'n/a',
    'write-declined (refused)': 'n/a',
    'write-failed': 'n/a',
    reject: 'rejected',
    'restored (pending)': 'n/a',
    'restored (conflict)': 'n/a',
    'restored (unmatched)': 'n/a',
    'restored (partial)': 'n/a',
    'restored (refused)': 'n/a',
    'replanned (pending)': 'n/a',
    'replanned (conflict)': 'n/a',
    'replanned (unmatched)': 'n/a',
    'file-deleted': 'n/a',
    'section-refused': 'n/a',
    undone: 'n/a',
    redone: 'n/a',
  },
};

const CASES = Object.entries(TABLE).flatMap(([state, row]) =>
  Object.entries(row).map(([label, expected]) => ({ state: state as HunkState, label: label as EventLabel, expected, answer: describeExpected(expected) })),
);

function describeExpected(expected: Expected): string {
  if (expected === 'n/a') return 'answers that it does not apply';
  if (typeof expected === 'string') return `moves to ${expected}`;
  return `refuses with "${expected.refused}"`;
}

describe('nextHunkState', () => {
  it('is given a table row for every state and a column for every event type', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...HUNK_STATES].sort());
    expect(HUNK_STATES).toHaveLength(9);
    const typesInTable = new Set(Object.values(EVENTS).map((event) => event.type));
    expect([...typesInTable].sort()).toEqual([...HUNK_EVENT_TYPES].sort());
    expect(HUNK_EVENT_TYPES).toHaveLength(13);
    expect(CASES).toHaveLength(9 * 24);
  });

  it.each(CASES)('a hunk that is $state, given $label, $answer', ({ state, label, expected }) => {
    const transition = nextHunkState(state, EVENTS[label]);
    if (expected === 'n/a') {
      expect(transition.ok).toBe(false);
      if (transition.ok) return;
      // A plain sentence that names the hunk's state, for the UI.
      expect(transition.message).toMatch(new RegExp(`^This hunk is ${state}; [a-z].*\\.$`));
      expect(transition.message).not.toContain('undefined');
    } else if (typeof expected === 'string') {
      expect(transition).toEqual({ ok: true, state: expected });
    } else {
      expect(transition).toEqual({ ok: false, message: expected.refused });
    }
  });

  it('gives different reasons for different inapplicable events, so the UI message is specific', () => {
    const undo = nextHunkState('pending', { type: 'undone' });
    const written = nextHunkState('pending', { type: 'written' });
    expect(undo.ok || written.ok).toBe(false);
    if (!undo.ok && !written.ok) expect(undo.message).not.toBe(written.message);
  });

  it('lets a hunk go round accept, write, undo and redo', () => {
    const events: HunkEvent[] = [
      { type: 'settled', outcome: 'pending' },
      { type: 'accept' },
      { type: 'written' },
      { type: 'undone' },
      { type: 'redone' },
      { type: 'undone' },
      { type: 'reject' },
      { type: 'redone' },
    ];
    const states: HunkState[] = [];
    let state: HunkState = 'streaming';
    for (const event of events) {
      const transition = nextHunkState(state, event);
      if (!transition.ok) throw new Error(transition.message);
      state = transition.state;
      states.push(state);
    }
    expect(states).toEqual(['pending', 'applying', 'accepted', 'pending', 'accepted', 'pending', 'rejected', 'accepted']);
  });

  it('never answers an event with a state outside the nine', () => {
    for (const { state, label } of CASES) {
      const transition = nextHunkState(state, EVENTS[label]);
      if (transition.ok) expect(HUNK_STATES).toContain(transition.state);
    }
  });
});

describe('isUndecided', () => {
  const UNDECIDED: Record<HunkState, boolean> = {
    streaming: false,
    pending: true,
    applying: false,
    accepted: false,
    rejected: false,
    partial: true,
    conflict: true,
    unmatched: true,
    refused: false,
  };

  it.each(Object.entries(UNDECIDED))('says whether a hunk that is %s is undecided (%s)', (state, expected) => {
    expect(isUndecided(state as HunkState)).toBe(expected);
  });

  it('agrees with the table: exactly the undecided states are taken by a refused section and by reject', () => {
    for (const state of HUNK_STATES) {
      const refusedSection = nextHunkState(state, { type: 'section-refused' });
      const rejected = nextHunkState(state, { type: 'reject' });
      // Streaming is the one exception: a section refusal takes it too, before it settles.
      if (state === 'streaming') continue;
      expect(refusedSection.ok, state).toBe(isUndecided(state));
      if (isUndecided(state)) expect(rejected).toEqual({ ok: true, state: 'rejected' });
    }
  });
});
