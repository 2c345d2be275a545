import { describe, expect, it } from 'vitest';
import type { CurrentFile } from '../../shared/project-types';
import { CurrentFileTracker } from './current-file';

const START = Date.UTC(2026, 10, 28);

function tracker() {
  // A clock like Date.now, stepping 100 ms per read; saves carry times on the same clock.
  let now = START;
  const files = new CurrentFileTracker(() => (now += 100));
  const seen: CurrentFile[] = [];
  files.onDidChange((value) => seen.push(value));
  return { files, seen };
}

describe('CurrentFileTracker', () => {
  it('makes the focused editor’s file current, and offers the last saved one as the other', () => {
    const { files } = tracker();
    files.noteSaved('src/formatted.ts');
    files.noteFocused('src/app.ts', 'VS Code');
    expect(files.value).toMatchObject({ path: 'src/app.ts', source: 'focused', editor: 'VS Code', other: { path: 'src/formatted.ts', source: 'saved' } });
  });

  it('switches to the other candidate and back with one call each', () => {
    const { files } = tracker();
    files.select('src/picked.ts');
    files.noteFocused('src/app.ts', 'Zed');
    expect(files.switchToOther()).toBe(true);
    expect(files.value).toMatchObject({ path: 'src/picked.ts', source: 'selected', other: { path: 'src/app.ts', source: 'focused', editor: 'Zed' } });
    expect(files.switchToOther()).toBe(true);
    expect(files.value).toMatchObject({ path: 'src/app.ts', source: 'focused' });
  });

  it('has nothing to switch to with only one candidate, or two of the same file', () => {
    const { files } = tracker();
    expect(files.switchToOther()).toBe(false);
    files.noteSaved('src/app.ts');
    expect(files.switchToOther()).toBe(false);
    files.noteFocused('src/app.ts', 'Vim');
    expect(files.value.other).toBeUndefined();
  });

  it('lets a newer save or selection take over from the focused file (the newest signal wins)', () => {
    const { files } = tracker();
    files.noteFocused('src/app.ts', 'VS Code');
    files.noteSaved('src/other.ts');
    expect(files.value).toMatchObject({ path: 'src/other.ts', source: 'saved', other: { path: 'src/app.ts', source: 'focused' } });
  });

  it('keeps the file the user picked when a save made before the pick is reported after it (the watcher was slow)', () => {
    const { files } = tracker();
    files.noteSaved('src/first.ts');
    files.select('src/picked.ts');
    const pickedAt = files.value.at;
    files.noteSaved('src/late.ts', pickedAt - 200);
    expect(files.value).toMatchObject({ path: 'src/picked.ts', source: 'selected' });
    // Still remembered as used, at the time it was saved: older than the pick.
    expect(files.lastUsed('src/late.ts')).toBe(pickedAt - 200);
    // A save made after the pick takes over, even one stamped a clock tick early.
    files.noteSaved('src/after.ts', pickedAt + 5);
    expect(files.value).toMatchObject({ path: 'src/after.ts', source: 'saved' });
  });

  it('orders saves by when they were made, not by when they were reported', () => {
    const { files } = tracker();
    files.noteSaved('src/second.ts', START - 100);
    files.noteSaved('src/first.ts', START - 200);
    expect(files.value.path).toBe('src/second.ts');
  });

  it('keeps the focused file current over an older save, which becomes the other candidate if newer than the last', () => {
    const { files } = tracker();
    files.select('src/old.ts');
    files.noteFocused('src/app.ts', 'VS Code');
    const focusedAt = files.value.at;
    files.noteSaved('src/late.ts', focusedAt - 50);
    expect(files.value).toMatchObject({ path: 'src/app.ts', source: 'focused', other: { path: 'src/late.ts', source: 'saved' } });
  });

  it('takes a save whose time is long past (cp -p, an archive, another clock) or unknown as made now', () => {
    const { files } = tracker();
    files.select('src/picked.ts');
    files.noteSaved('src/copied.ts', 0);
    expect(files.value).toMatchObject({ path: 'src/copied.ts', source: 'saved' });
    files.select('src/picked.ts');
    files.noteSaved('src/gone.ts', undefined);
    expect(files.value.path).toBe('src/gone.ts');
  });

  it('keeps the last saved file current when the focused window names none, with the window’s note', () => {
    const { files } = tracker();
    files.noteSaved('src/app.ts');
    files.noteFocused('src/old.ts', 'VS Code');
    files.noteWindow({ message: 'The focused window names no file of the project.', candidates: [] });
    expect(files.value).toEqual({ path: 'src/app.ts', source: 'saved', at: expect.any(Number), windowNote: { message: 'The focused window names no file of the project.', candidates: [] } });
    // The next save is newer news than the window: its note goes.
    files.noteSaved('src/app.ts');
    expect(files.value.windowNote).toBeUndefined();
  });

  it('says what the window showed even before any file was current', () => {
    const { files } = tracker();
    files.noteWindow({ message: 'index.ts is in 3 folders', candidates: ['a/index.ts', 'b/index.ts'] });
    expect(files.value).toEqual({ path: null, source: null, at: 0, windowNote: { message: 'index.ts is in 3 folders', candidates: ['a/index.ts', 'b/index.ts'] } });
  });

  it('remembers when each file was last used, and forgets everything on clear', () => {
    const { files, seen } = tracker();
    files.noteSaved('a.ts');
    files.select('b.ts');
    files.noteFocused('c.ts', null);
    expect(files.lastUsed('a.ts')! < files.lastUsed('b.ts')!).toBe(true);
    expect(files.lastUsed('b.ts')! < files.lastUsed('c.ts')!).toBe(true);
    files.clear();
    expect(files.value).toEqual({ path: null, source: null, at: 0 });
    expect(files.lastUsed('a.ts')).toBeUndefined();
    expect(seen).toHaveLength(4);
  });
});
