/**
 * SaveHistory on real files: which versions it keeps, and what it reads.
 */
import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { SaveHistory } from './save-history';

const text = (lines: string[]) => `${lines.join('\n')}\n`;
const linesOf = (body: string) => body.replace(/\n$/, '').split('\n');

describe('SaveHistory', () => {
  let project: TempProject;
  let history: SaveHistory;

  beforeEach(async () => {
    project = await createTempProject({ 'a.ts': text(['a1', 'a2', 'a3']), 'b.ts': text(['b1', 'b2']) });
  });

  afterEach(async () => {
    history.dispose();
    await project.remove();
  });

  const save = async (path: string, lines: string[]) => {
    await writeFile(project.path(path), text(lines));
    await history.noteSaved(path);
  };

  it('compares a save with the version shown before it', async () => {
    history = new SaveHistory({ root: project.root, settleMs: 1 });
    await history.noteShown('a.ts');
    await save('a.ts', ['a1', 'A2', 'a3']);
    expect((await history.recentChange('a.ts', ['a1', 'A2', 'a3']))?.lines).toMatchObject({ startLine: 2, endLine: 2, added: 1, removed: 1 });
  });

  it('forgets the change once the file no longer holds what the save wrote', async () => {
    history = new SaveHistory({ root: project.root, settleMs: 1 });
    await history.noteShown('a.ts');
    await save('a.ts', ['a1', 'A2', 'a3']);
    expect(await history.recentChange('a.ts', ['a1', 'A2', 'a3', 'typed since'])).toBeNull();
  });

  it('does not count Flint’s own write as the user’s change', async () => {
    history = new SaveHistory({ root: project.root, settleMs: 1 });
    await history.noteShown('a.ts');
    await writeFile(project.path('a.ts'), text(['a1', 'flint', 'a3']));
    await history.noteOwnWrite('a.ts');
    expect(await history.recentChange('a.ts', ['a1', 'flint', 'a3'])).toBeNull();
    await save('a.ts', ['a1', 'flint', 'user']);
    expect((await history.recentChange('a.ts', ['a1', 'flint', 'user']))?.lines).toMatchObject({ startLine: 3, endLine: 3 });
  });

  it('drops the least recently used version, and its change, beyond the memory limit', async () => {
    history = new SaveHistory({ root: project.root, settleMs: 1, maxChars: 12 });
    await history.noteShown('a.ts');
    await save('a.ts', ['a1', 'A2', 'a3']);
    await history.noteShown('b.ts');
    // a.ts (9 chars) + b.ts (6 chars) > 12: a.ts goes, with its change.
    expect(await history.recentChange('a.ts', ['a1', 'A2', 'a3'])).toBeNull();
    await save('b.ts', ['b1', 'B2']);
    expect(await history.recentChange('b.ts', ['b1', 'B2'])).not.toBeNull();
  });

  it('in a burst of saves to files it never saw, reads only the one saved last', async () => {
    history = new SaveHistory({ root: project.root, settleMs: 20 });
    const paths = Array.from({ length: 30 }, (_, index) => `burst/f${index}.ts`);
    await project.write(Object.fromEntries(paths.map((path) => [path, 'v1\n'])));
    await Promise.all(paths.map((path) => history.noteSaved(path)));
    // Only the last file got a version to compare its next save with.
    for (const path of [paths[0]!, paths.at(-1)!]) {
      await writeFile(project.path(path), 'v2\n');
      await history.noteSaved(path);
    }
    expect(await history.recentChange(paths[0]!, ['v2'])).toBeNull();
    expect(await history.recentChange(paths.at(-1)!, ['v2'])).not.toBeNull();
  });

  it('reads a file once its writer has finished, not halfway', async () => {
    history = new SaveHistory({ root: project.root, settleMs: 30 });
    await history.noteShown('a.ts');
    const final = Array.from({ length: 2000 }, (_, index) => `line ${index}`);
    // An editor writing in place: the file is first truncated, then filled, in two events.
    await writeFile(project.path('a.ts'), '');
    const first = history.noteSaved('a.ts');
    await writeFile(project.path('a.ts'), text(final));
    const second = history.noteSaved('a.ts');
    await Promise.all([first, second]);
    const change = await history.recentChange('a.ts', linesOf(text(final)));
    expect(change?.lines).toMatchObject({ startLine: 1, endLine: 2000, removed: 3 });
  });
});
