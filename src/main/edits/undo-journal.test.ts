import { existsSync } from 'node:fs';
import { appendFile, readFile, rm, stat, symlink, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FlintFailure } from '../../shared/result';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { UndoJournal, type JournalEntry } from './undo-journal';

let project: TempProject;
let journalFile: string;

beforeEach(async () => {
  project = await createTempProject();
  journalFile = join(project.root, 'journals', 'project.jsonl');
});

afterEach(async () => {
  await project.remove();
});

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (value: Uint8Array | null): string | null => (value === null ? null : new TextDecoder().decode(value));

/** Records a change of `path` from `before` to `after` (null: the file is absent). */
function change(journal: UndoJournal, path: string, before: string | null, after: string | null, mode = 0o644): Promise<JournalEntry> {
  return journal.record({
    path,
    absolutePath: project.path(path),
    before: before === null ? null : bytes(before),
    after: after === null ? null : bytes(after),
    mode,
  });
}

const pathsOf = (entries: readonly JournalEntry[]): string[] => entries.map((entry) => entry.path);

async function journalLines(): Promise<Record<string, unknown>[]> {
  const contents = await readFile(journalFile, 'utf8');
  return contents
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('UndoJournal: bookkeeping', () => {
  it('starts empty when the journal file does not exist yet, and creates nothing until it records', async () => {
    const journal = await UndoJournal.open(journalFile);
    expect(journal.history).toEqual([]);
    expect(journal.nextUndo()).toBeNull();
    expect(journal.nextRedo()).toBeNull();
    expect(journal.touchedPaths.size).toBe(0);
    expect(existsSync(journalFile)).toBe(false);
  });

  it('creates the journal folder and file on the first record', async () => {
    const journal = await UndoJournal.open(journalFile);
    await change(journal, 'a.ts', 'one', 'two');
    expect(existsSync(journalFile)).toBe(true);
    expect(await journalLines()).toHaveLength(1);
  });

  it('keeps the journal readable by its owner only, since it holds file contents', async () => {
    const journal = await UndoJournal.open(journalFile);
    await change(journal, 'a.ts', 'secret before', 'secret after');
    expect((await stat(journalFile)).mode & 0o777).toBe(0o600);
  });

  it('lists history newest first', async () => {
    const journal = await UndoJournal.open(journalFile);
    await change(journal, 'a.ts', 'a0', 'a1');
    await change(journal, 'b.ts', 'b0', 'b1');
    await change(journal, 'c.ts', 'c0', 'c1');
    expect(pathsOf(journal.history)).toEqual(['c.ts', 'b.ts', 'a.ts']);
  });

  it('undoes newest first and redoes in the order the changes were made', async () => {
    const journal = await UndoJournal.open(journalFile);
    const first = await change(journal, 'a.ts', 'a0', 'a1');
    const second = await change(journal, 'b.ts', 'b0', 'b1');
    const third = await change(journal, 'c.ts', 'c0', 'c1');

    const undone: JournalEntry[] = [];
    for (let entry = journal.nextUndo(); entry; entry = journal.nextUndo()) {
      undone.push(entry);
      await journal.mark(entry, 'undo');
    }
    expect(undone).toEqual([third, second, first]);
    expect(journal.nextRedo()).toBe(first);

    const redone: JournalEntry[] = [];
    for (let entry = journal.nextRedo(); entry; entry = journal.nextRedo()) {
      redone.push(entry);
      await journal.mark(entry, 'redo');
    }
    expect(redone).toEqual([first, second, third]);
    expect(journal.nextUndo()).toBe(third);
  });

  it('offers the just-undone change for redo, and the change before it for undo', async () => {
    const journal = await UndoJournal.open(journalFile);
    const first = await change(journal, 'a.ts', 'a0', 'a1');
    const second = await change(journal, 'a.ts', 'a1', 'a2');
    await journal.mark(second, 'undo');
    expect(second.undone).toBe(true);
    expect(journal.nextUndo()).toBe(first);
    expect(journal.nextRedo()).toBe(second);
    await journal.mark(second, 'redo');
    expect(second.undone).toBe(false);
    expect(journal.nextUndo()).toBe(second);
    expect(journal.nextRedo()).toBeNull();
  });

  it('ends the redo branch when a new change is recorded', async () => {
    const journal = await UndoJournal.open(journalFile);
    const first = await change(journal, 'a.ts', 'a0', 'a1');
    const second = await change(journal, 'b.ts', 'b0', 'b1');
    const third = await change(journal, 'c.ts', 'c0', 'c1');
    await journal.mark(third, 'undo');
    await journal.mark(second, 'undo');

    const fourth = await change(journal, 'd.ts', 'd0', 'd1');
    expect(journal.nextRedo()).toBeNull();
    expect(journal.history).toEqual([fourth, first]);
    expect(journal.nextUndo()).toBe(fourth);
  });

  it('forgets a dropped entry, and dropping it twice is harmless', async () => {
    const journal = await UndoJournal.open(journalFile);
    const first = await change(journal, 'a.ts', 'a0', 'a1');
    const failed = await change(journal, 'b.ts', 'b0', 'b1');
    await journal.drop(failed);
    await journal.drop(failed);
    expect(journal.history).toEqual([first]);
    expect(journal.nextUndo()).toBe(first);
    expect((await journalLines()).filter((line) => line.op === 'drop')).toHaveLength(1);
  });

  it('keeps a path in touchedPaths after its entry is dropped: a crash may have left scratch files there', async () => {
    const journal = await UndoJournal.open(journalFile);
    await change(journal, 'a.ts', 'a0', 'a1');
    const failed = await change(journal, 'nested/b.ts', 'b0', 'b1');
    await journal.drop(failed);
    expect([...journal.touchedPaths].sort()).toEqual([project.path('a.ts'), project.path('nested/b.ts')].sort());
  });

  it('lists each touched path once however often it was written', async () => {
    const journal = await UndoJournal.open(journalFile);
    await change(journal, 'a.ts', 'a0', 'a1');
    await change(journal, 'a.ts', 'a1', 'a2');
    expect([...journal.touchedPaths]).toEqual([project.path('a.ts')]);
  });

  it('keeps every entry: the journal has no size bound', async () => {
    const journal = await UndoJournal.open(journalFile);
    for (let index = 0; index < 150; index += 1) await change(journal, `file-${index}.ts`, `${index}`, `${index + 1}`);
    expect(journal.history).toHaveLength(150);
    const reopened = await UndoJournal.open(journalFile);
    expect(reopened.history).toHaveLength(150);
    expect(reopened.history.at(-1)!.path).toBe('file-0.ts');
  });
});

describe('UndoJournal: persistence', () => {
  it('brings back every entry with its exact bytes, absent files and mode after a reopen', async () => {
    const journal = await UndoJournal.open(journalFile);
    const binary = new Uint8Array([0, 255, 0xc3, 0x28, 10, 13, 0]);
    await journal.record({ path: 'bin.dat', absolutePath: project.path('bin.dat'), before: binary, after: new Uint8Array(), mode: 0o755 });
    await change(journal, 'created.ts', null, 'new file\n');
    await change(journal, 'deleted.ts', 'old file\n', null);

    const reopened = await UndoJournal.open(journalFile);
    const [deleted, created, bin] = reopened.history;
    expect(Array.from(bin!.before!)).toEqual(Array.from(binary));
    expect(Array.from(bin!.after!)).toEqual([]);
    expect(bin!.mode).toBe(0o755);
    expect(created!.before).toBeNull();
    expect(text(created!.after)).toBe('new file\n');
    expect(text(deleted!.before)).toBe('old file\n');
    expect(deleted!.after).toBeNull();
    expect(reopened.history.map(({ id, path, absolutePath, at }) => ({ id, path, absolutePath, at }))).toEqual(
      journal.history.map(({ id, path, absolutePath, at }) => ({ id, path, absolutePath, at })),
    );
  });

  it('remembers which changes were undone and redone across a reopen', async () => {
    const journal = await UndoJournal.open(journalFile);
    const first = await change(journal, 'a.ts', 'a0', 'a1');
    const second = await change(journal, 'b.ts', 'b0', 'b1');
    const third = await change(journal, 'c.ts', 'c0', 'c1');
    await journal.mark(third, 'undo');
    await journal.mark(second, 'undo');
    await journal.mark(second, 'redo');

    const reopened = await UndoJournal.open(journalFile);
    expect(reopened.history.map((entry) => [entry.id, entry.undone])).toEqual([
      [third.id, true],
      [second.id, false],
      [first.id, false],
    ]);
    expect(reopened.nextUndo()?.id).toBe(second.id);
    expect(reopened.nextRedo()?.id).toBe(third.id);
  });

  it('stays without the cleared redo branch and dropped entries after a reopen', async () => {
    const journal = await UndoJournal.open(journalFile);
    const first = await change(journal, 'a.ts', 'a0', 'a1');
    const undone = await change(journal, 'b.ts', 'b0', 'b1');
    await journal.mark(undone, 'undo');
    const replacement = await change(journal, 'c.ts', 'c0', 'c1');
    const failed = await change(journal, 'd.ts', 'd0', 'd1');
    await journal.drop(failed);

    const reopened = await UndoJournal.open(journalFile);
    expect(reopened.history.map((entry) => entry.id)).toEqual([replacement.id, first.id]);
    expect(reopened.nextRedo()).toBeNull();
    // Dropped entries still count as touched: the reopen is where crash recovery looks.
    expect([...reopened.touchedPaths].sort()).toEqual(['a.ts', 'b.ts', 'c.ts', 'd.ts'].map((path) => project.path(path)));
  });

  it('goes on appending to the same file after a reopen', async () => {
    const journal = await UndoJournal.open(journalFile);
    const first = await change(journal, 'a.ts', 'a0', 'a1');
    const reopened = await UndoJournal.open(journalFile);
    const second = await change(reopened, 'b.ts', 'b0', 'b1');
    await reopened.mark(reopened.nextUndo()!, 'undo');

    const again = await UndoJournal.open(journalFile);
    expect(again.history.map((entry) => [entry.id, entry.undone])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
  });

  it('skips a torn last line left by a crash and keeps everything before it', async () => {
    const journal = await UndoJournal.open(journalFile);
    const first = await change(journal, 'a.ts', 'a0', 'a1');
    await change(journal, 'b.ts', 'b0', 'b1');
    const { size } = await stat(journalFile);
    await truncate(journalFile, size - 20);

    const reopened = await UndoJournal.open(journalFile);
    expect(reopened.history.map((entry) => entry.id)).toEqual([first.id]);
    expect(reopened.nextUndo()?.id).toBe(first.id);
  });

  it('skips a torn undo record: the change counts as not undone', async () => {
    const journal = await UndoJournal.open(journalFile);
    const entry = await change(journal, 'a.ts', 'a0', 'a1');
    await journal.mark(entry, 'undo');
    const { size } = await stat(journalFile);
    await truncate(journalFile, size - 5);

    const reopened = await UndoJournal.open(journalFile);
    expect(reopened.history.map((candidate) => [candidate.id, candidate.undone])).toEqual([[entry.id, false]]);
  });

  it('skips a corrupt line in the middle and still applies the lines after it', async () => {
    const journal = await UndoJournal.open(journalFile);
    const first = await change(journal, 'a.ts', 'a0', 'a1');
    await appendFile(journalFile, '{"op":"write","id":"torn-by-a-disk\n\n   \nnot json at all\n');
    const second = await change(journal, 'b.ts', 'b0', 'b1');
    await journal.mark(second, 'undo');

    const reopened = await UndoJournal.open(journalFile);
    expect(reopened.history.map((entry) => [entry.id, entry.undone])).toEqual([
      [second.id, true],
      [first.id, false],
    ]);
  });

  it('ignores undo, redo and drop records for entries it does not know', async () => {
    const journal = await UndoJournal.open(journalFile);
    const entry = await change(journal, 'a.ts', 'a0', 'a1');
    await appendFile(
      journalFile,
      ['undo', 'redo', 'drop'].map((op) => `${JSON.stringify({ op, id: 'no-such-entry', at: 0 })}\n`).join(''),
    );
    const reopened = await UndoJournal.open(journalFile);
    expect(reopened.history.map((candidate) => [candidate.id, candidate.undone])).toEqual([[entry.id, false]]);
  });

  it('keeps the first change recorded after a crash tore the last line (it used to be appended onto the torn line and lost)', async () => {
    const journal = await UndoJournal.open(journalFile);
    await change(journal, 'a.ts', 'a0', 'a1');
    await change(journal, 'b.ts', 'b0', 'b1');
    const { size } = await stat(journalFile);
    await truncate(journalFile, size - 20);

    const afterCrash = await UndoJournal.open(journalFile);
    const next = await change(afterCrash, 'c.ts', 'c0', 'c1');
    const reopened = await UndoJournal.open(journalFile);
    expect(reopened.history.map((entry) => entry.id)).toContain(next.id);
  });
});

describe('UndoJournal: failures', () => {
  it.skipIf(!existsSync('/dev/full'))('reports a journal it cannot write as an io-error, and does not list the change', async () => {
    const journal = await UndoJournal.open(journalFile);
    const first = await change(journal, 'a.ts', 'a0', 'a1');
    // The journal reopens its file on every append: point the path at a device that is always full.
    await rm(journalFile);
    await symlink('/dev/full', journalFile);

    const failure = await change(journal, 'b.ts', 'b0', 'b1').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FlintFailure);
    expect((failure as FlintFailure).code).toBe('io-error');
    expect((failure as FlintFailure).message).toMatch(/^Could not write the undo journal: /);
    expect(journal.history).toEqual([first]);
    expect(journal.nextUndo()).toBe(first);

    // A mark that cannot be written leaves the entry as it was.
    await expect(journal.mark(first, 'undo')).rejects.toBeInstanceOf(FlintFailure);
    expect(first.undone).toBe(false);
  });
});
