import { describe, expect, it } from 'vitest';
import { BoardSnapshotSchema, hunkUpdatesOf, restoredRecords, type BoardSnapshot } from './board-snapshot';

const hunk = (id: string, state: BoardSnapshot['hunks'][number]['state'], extra: Partial<BoardSnapshot['hunks'][number]> = {}): BoardSnapshot['hunks'][number] => ({
  id,
  turn: 1,
  number: Number(id.split('.')[1]) + 1,
  kind: 'update',
  fileIndex: 0,
  state,
  lines: [{ kind: 'remove', text: 'one' }, { kind: 'add', text: 'uno' }],
  contextHints: [],
  atEndOfFile: false,
  anchorLine: 1,
  ...extra,
});
const snapshot = (...hunks: BoardSnapshot['hunks']): BoardSnapshot => ({ files: [{ operation: 'update', format: 'patch', path: 'src/a.ts' }], hunks });

describe('a board kept between runs', () => {
  it('settles undecided hunks again, and never leaves one streaming or being written', () => {
    const { hunks, toSettle } = restoredRecords(snapshot(hunk('1.0', 'pending'), hunk('1.1', 'streaming'), hunk('1.2', 'applying'), hunk('1.3', 'accepted'), hunk('1.4', 'conflict')));
    expect(hunks.map((record) => record.state)).toEqual(['streaming', 'partial', 'refused', 'accepted', 'streaming']);
    expect(toSettle.map((record) => record.id)).toEqual(['1.0', '1.4']);
    expect(hunks[2]!.message).toContain('Flint stopped while writing this hunk');
    expect(toSettle.every((record) => record.complete)).toBe(true);
  });

  it('is refused when a hunk names a file it does not have, or two hunks share an id', () => {
    expect(BoardSnapshotSchema.safeParse(snapshot(hunk('1.0', 'pending', { fileIndex: 3 }))).success).toBe(false);
    expect(BoardSnapshotSchema.safeParse(snapshot(hunk('1.0', 'pending'), hunk('1.0', 'rejected'))).success).toBe(false);
    expect(BoardSnapshotSchema.safeParse(snapshot(hunk('1.0', 'pending'))).success).toBe(true);
  });

  it('gives every hunk with all its lines for a renderer loading the whole answer, the superseded one with its warning', () => {
    const updates = hunkUpdatesOf(snapshot(hunk('1.0', 'pending', { superseded: true }), hunk('2.0', 'accepted', { turn: 2, number: 2 })));
    expect(updates.map((update) => [update.id, update.appendLines.length, update.superseded ?? false])).toEqual([
      ['1.0', 2, true],
      ['2.0', 2, false],
    ]);
    expect(updates[0]!.overlapsNewer).toContain('Hunk 2 (from the redirect) was accepted and changed the same lines of src/a.ts');
  });
});
