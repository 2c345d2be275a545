/**
 * SaveHistory on real files: which versions it keeps, and what it reads.
 */
import { open, readFile, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { ProjectFiles } from '../fs/project-files';
import { SaveHistory } from './save-history';

const text = (lines: string[]) => `${lines.join('\n')}\n`;
const readText = (path: string) => readFile(path, 'utf8');
const linesOf = (body: string) => body.replace(/\n$/, '').split('\n');
const numbered = (count: number) => Array.from({ length: count }, (_, index) => `const value${index + 1} = ${index + 1};`);

/**
 * An editor saving in place: truncates, then writes `body` in pieces with `pauseMs`
 * between them, telling `onPiece` after each (as the watcher would).
 */
async function writeInPieces(path: string, body: string, pieces: number, pauseMs: number, onPiece: () => void): Promise<void> {
  const bytes = Buffer.from(body);
  const size = Math.ceil(bytes.length / pieces);
  const handle = await open(path, 'w');
  try {
    for (let offset = 0; offset < bytes.length; offset += size) {
      await handle.write(bytes, offset, Math.min(size, bytes.length - offset), offset);
      onPiece();
      if (offset + size < bytes.length) await sleep(pauseMs);
    }
  } finally {
    await handle.close();
  }
}

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
    history = new SaveHistory({ files: new ProjectFiles(project.root), settleMs: 1 });
    await history.noteShown('a.ts');
    await save('a.ts', ['a1', 'A2', 'a3']);
    expect((await history.recentChange('a.ts', ['a1', 'A2', 'a3']))?.lines).toMatchObject({ startLine: 2, endLine: 2, added: 1, removed: 1 });
  });

  it('forgets the change once the file no longer holds what the save wrote', async () => {
    history = new SaveHistory({ files: new ProjectFiles(project.root), settleMs: 1 });
    await history.noteShown('a.ts');
    await save('a.ts', ['a1', 'A2', 'a3']);
    expect(await history.recentChange('a.ts', ['a1', 'A2', 'a3', 'typed since'])).toBeNull();
  });

  it('does not count Flint’s own write as the user’s change', async () => {
    history = new SaveHistory({ files: new ProjectFiles(project.root), settleMs: 1 });
    await history.noteShown('a.ts');
    await writeFile(project.path('a.ts'), text(['a1', 'flint', 'a3']));
    await history.noteOwnWrite('a.ts');
    expect(await history.recentChange('a.ts', ['a1', 'flint', 'a3'])).toBeNull();
    await save('a.ts', ['a1', 'flint', 'user']);
    expect((await history.recentChange('a.ts', ['a1', 'flint', 'user']))?.lines).toMatchObject({ startLine: 3, endLine: 3 });
  });

  it('drops the least recently used version, and its change, beyond the memory limit', async () => {
    history = new SaveHistory({ files: new ProjectFiles(project.root), settleMs: 1, maxChars: 12 });
    await history.noteShown('a.ts');
    await save('a.ts', ['a1', 'A2', 'a3']);
    await history.noteShown('b.ts');
    // a.ts (9 chars) + b.ts (6 chars) > 12: a.ts goes, with its change.
    expect(await history.recentChange('a.ts', ['a1', 'A2', 'a3'])).toBeNull();
    await save('b.ts', ['b1', 'B2']);
    expect(await history.recentChange('b.ts', ['b1', 'B2'])).not.toBeNull();
  });

  it('in a burst of saves to files it never saw, reads only the one saved last', async () => {
    history = new SaveHistory({ files: new ProjectFiles(project.root), settleMs: 20 });
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
    history = new SaveHistory({ files: new ProjectFiles(project.root), settleMs: 30 });
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

  describe('with a writer that pauses between pieces longer than a read, shorter than the quiet period', () => {
    const original = numbered(40_000);
    const edited = [...original];
    edited[19_999] = 'const value20000 = -1; // the user’s one line';

    beforeEach(async () => {
      await project.write({ 'big.ts': text(original) });
    });

    it('records the file only once written: the lines just changed are the user’s one line', async () => {
      history = new SaveHistory({ files: new ProjectFiles(project.root), settleMs: 5, quietMs: 250 });
      await history.noteShown('big.ts');
      const saves: Array<Promise<void>> = [];
      await writeInPieces(project.path('big.ts'), text(edited), 8, 40, () => saves.push(history.noteSaved('big.ts')));
      // The first event's read is the one that used to take the first pieces for the whole file.
      await saves[0];
      expect((await history.recentChange('big.ts', edited))?.lines).toEqual({ startLine: 20_000, endLine: 20_000, added: 1, removed: 1, places: 1 });
      await Promise.all(saves);
      expect((await history.recentChange('big.ts', edited))?.lines).toEqual({ startLine: 20_000, endLine: 20_000, added: 1, removed: 1, places: 1 });
    });

    it('gives the ask the whole file, waiting for the writer, never the half written so far', async () => {
      history = new SaveHistory({ files: new ProjectFiles(project.root), settleMs: 5, quietMs: 250 });
      await history.noteShown('big.ts');
      let asked: ReturnType<SaveHistory['settledLines']> | null = null;
      await writeInPieces(project.path('big.ts'), text(edited), 8, 40, () => {
        history.noteSaved('big.ts');
        // The hotkey, pressed at the first change event.
        asked ??= history.settledLines('big.ts');
      });
      expect(await asked).toEqual({ kind: 'settled', lines: edited });
    });

    it('records nothing of a file that never holds still, and says it is still being written', async () => {
      history = new SaveHistory({ files: new ProjectFiles(project.root), settleMs: 5, quietMs: 250, writeTimeoutMs: 600 });
      await history.noteShown('big.ts');
      // A writer that keeps appending: no moment of it is a saved version.
      const handle = await open(project.path('big.ts'), 'a');
      let writing = true;
      const writer = (async () => {
        for (let index = 0; writing; index += 1) {
          await handle.write(`const more${index} = ${index};\n`);
          history.noteSaved('big.ts');
          await sleep(20);
        }
      })();
      await sleep(50);
      const answer = await history.settledLines('big.ts');
      writing = false;
      await writer;
      await handle.close();
      expect(answer).toMatchObject({ kind: 'still-writing', message: expect.stringContaining('still being written') });
      // Once it holds still, the change is measured from the last settled version: everything appended.
      await history.noteSaved('big.ts');
      const final = linesOf(await readText(project.path('big.ts')));
      expect((await history.recentChange('big.ts', final))?.lines).toMatchObject({ startLine: original.length + 1, endLine: final.length, removed: 0 });
    });
  });

  it('answers the ask at once for a file already seen settled: no quiet period, no read', async () => {
    let sleeps = 0;
    const clock = { now: () => performance.now(), sleep: (ms: number) => ((sleeps += 1), sleep(ms)) };
    history = new SaveHistory({ files: new ProjectFiles(project.root), settleMs: 1, quietMs: 5_000, clock });
    await history.noteShown('a.ts');
    expect(await history.settledLines('a.ts')).toEqual({ kind: 'settled', lines: ['a1', 'a2', 'a3'] });
    expect(sleeps).toBe(0);
  });
});
