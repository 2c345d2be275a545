import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

const record = (journal: UndoJournal, path: string, group?: string): Promise<JournalEntry> =>
  journal.record({ path, absolutePath: project.path(path), before: new Uint8Array([1]), after: new Uint8Array([2]), mode: 0o644 }, group);
const paths = (entries: readonly JournalEntry[]): string[] => entries.map((entry) => entry.path);

describe('UndoJournal: groups (one Undo per Accept all)', () => {
  it('undoes a whole group in one step, newest first, and redoes it oldest first', async () => {
    const journal = await UndoJournal.open(journalFile);
    await record(journal, 'single.ts');
    await record(journal, 'a.ts', 'accept-all');
    await record(journal, 'b.ts', 'accept-all');
    expect(paths(journal.nextUndoGroup())).toEqual(['b.ts', 'a.ts']);
    for (const entry of journal.nextUndoGroup()) await journal.mark(entry, 'undo');
    expect(paths(journal.nextUndoGroup())).toEqual(['single.ts']);
    expect(paths(journal.nextRedoGroup())).toEqual(['a.ts', 'b.ts']);
  });

  it('splits a group that another write interrupted, so Undo and Redo keep the order the writes were made in', async () => {
    const journal = await UndoJournal.open(journalFile);
    await record(journal, 'a.ts', 'accept-all');
    await record(journal, 'x.ts');
    await record(journal, 'b.ts', 'accept-all');
    await record(journal, 'c.ts', 'accept-all');
    expect(paths(journal.nextUndoGroup())).toEqual(['c.ts', 'b.ts']);
    for (const entry of journal.nextUndoGroup()) await journal.mark(entry, 'undo');
    expect(paths(journal.nextUndoGroup())).toEqual(['x.ts']);
  });

  it('keeps groups across a restart, and reads an old journal without groups as one entry per step', async () => {
    const journal = await UndoJournal.open(journalFile);
    await record(journal, 'old.ts');
    await record(journal, 'a.ts', 'g');
    await record(journal, 'b.ts', 'g');
    const reopened = await UndoJournal.open(journalFile);
    expect(paths(reopened.nextUndoGroup())).toEqual(['b.ts', 'a.ts']);
    for (const entry of reopened.nextUndoGroup()) await reopened.mark(entry, 'undo');
    expect(paths(reopened.nextUndoGroup())).toEqual(['old.ts']);
  });
});
