import { describe, expect, it } from 'vitest';
import { OwnWrites } from './own-writes';

const bytes = (text: string) => new TextEncoder().encode(text);

function clocked() {
  let time = 1_000;
  return { writes: new OwnWrites(10_000, () => time), advance: (ms: number) => (time += ms) };
}

describe('OwnWrites', () => {
  it('takes the file holding exactly what Flint wrote for Flint’s echo', () => {
    const { writes, advance } = clocked();
    writes.expect('src/a.ts', bytes('uno\n'));
    advance(9_999);
    expect(writes.isOwn('src/a.ts', bytes('uno\n'))).toBe(true);
  });

  it('takes anything else for the user’s save, even a moment after Flint wrote', () => {
    const { writes } = clocked();
    writes.expect('src/a.ts', bytes('uno\n'));
    expect(writes.isOwn('src/a.ts', bytes('uno\n// mine\n'))).toBe(false);
    expect(writes.isOwn('src/a.ts', null)).toBe(false);
  });

  it('recognises any of several quick writes to one file, whichever the watcher reports', () => {
    const { writes } = clocked();
    writes.expect('src/a.ts', bytes('one'));
    writes.expect('src/a.ts', bytes('two'));
    expect(writes.isOwn('src/a.ts', bytes('one'))).toBe(true);
    expect(writes.isOwn('src/a.ts', bytes('two'))).toBe(true);
  });

  it('forgets a write once its echo is no longer expected', () => {
    const { writes, advance } = clocked();
    writes.expect('src/a.ts', bytes('uno\n'));
    advance(10_000);
    expect(writes.expects('src/a.ts')).toBe(false);
    expect(writes.isOwn('src/a.ts', bytes('uno\n'))).toBe(false);
  });

  it('never takes a file Flint did not write for its own', () => {
    const { writes } = clocked();
    writes.expect('src/a.ts', bytes('x'));
    expect(writes.expects('src/b.ts')).toBe(false);
    expect(writes.isOwn('src/b.ts', bytes('x'))).toBe(false);
  });
});
