import { describe, expect, it } from 'vitest';
import { fileConflict } from './file-conflicts';

const file = (path: string, exists: boolean) => ({ path, exists });

describe('fileConflict', () => {
  it('lets an Add create a missing file and never overwrites one that exists', () => {
    expect(fileConflict('add', file('a.ts', false))).toBeNull();
    expect(fileConflict('add', file('a.ts', true))).toBe('a.ts already exists; Flint will not overwrite it.');
  });

  it('needs the file for an update or a delete', () => {
    for (const kind of ['update', 'delete'] as const) {
      expect(fileConflict(kind, file('a.ts', true))).toBeNull();
      expect(fileConflict(kind, file('a.ts', false))).toBe('a.ts does not exist (any more).');
    }
  });

  it('moves only an existing file, and only onto a free name', () => {
    expect(fileConflict('move', file('a.ts', true), file('b.ts', false))).toBeNull();
    expect(fileConflict('move', file('a.ts', false), file('b.ts', false))).toBe('a.ts does not exist (any more).');
    expect(fileConflict('move', file('a.ts', true), file('b.ts', true))).toBe('b.ts already exists; Flint will not overwrite it.');
  });
});
