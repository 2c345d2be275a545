import { describe, expect, it } from 'vitest';
import { OwnWrites } from './own-writes';

function clocked() {
  let time = 1_000;
  return { writes: new OwnWrites(2_000, () => time), advance: (ms: number) => (time += ms) };
}

describe('OwnWrites', () => {
  it('takes a save of an announced file inside the window for Flint’s own write', () => {
    const { writes, advance } = clocked();
    writes.expect('src/a.ts');
    advance(1_999);
    expect(writes.isOwn('src/a.ts')).toBe(true);
  });

  it('takes a save after the window for the user’s', () => {
    const { writes, advance } = clocked();
    writes.expect('src/a.ts');
    advance(2_000);
    expect(writes.isOwn('src/a.ts')).toBe(false);
  });

  it('never takes a save of a file Flint did not announce for its own', () => {
    const { writes } = clocked();
    writes.expect('src/a.ts');
    expect(writes.isOwn('src/b.ts')).toBe(false);
    expect(writes.isOwn('src/a.ts/')).toBe(false);
  });

  it('starts the window again when Flint writes the same file again', () => {
    const { writes, advance } = clocked();
    writes.expect('src/a.ts');
    advance(1_500);
    writes.expect('src/a.ts');
    advance(1_500);
    expect(writes.isOwn('src/a.ts')).toBe(true);
  });
});
