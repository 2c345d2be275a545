/**
 * A late writer — an editor that opened the file before Flint replaced it and writes the
 * rest of its save into the replaced (captured) file — gets its bytes back only over
 * Flint's own file. They never replace a newer state and never bring a deleted file back:
 * then they are kept beside the file, visibly, and reported.
 */
import { mkdtemp, open, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import type { LateWriterReport } from './late-writer-watch';
import { ProjectFileWriter } from './project-file-writer';

const FIRST_PIECE = Buffer.from('export const saved = ');
const SECOND_PIECE = Buffer.from('"save 1";\n');
const SAVE_2 = Buffer.from('export const saved = "save 2";\n');
const FLINTS = Buffer.from('export const saved = "flint";\n');

describe('a late writer', () => {
  let project: TempProject;
  let cache: string;
  let reports: LateWriterReport[];
  let writer: ProjectFileWriter;
  const path = () => project.path('app.ts');
  const names = async () => (await readdir(project.root)).sort();

  beforeEach(async () => {
    project = await createTempProject({ 'app.ts': 'export const saved = "original";\n' });
    cache = await mkdtemp(join(tmpdir(), 'flint-late-writer-cache-'));
    reports = [];
    // A grace period no test reaches: the checks run when the writer is disposed.
    writer = new ProjectFileWriter(project.root, { quietMs: 0, graceMs: 3_600_000, cacheFolder: cache, onLateWriter: (report) => reports.push(report) });
  });

  afterEach(async () => {
    await project.remove();
    await rm(cache, { recursive: true, force: true });
  });

  it('never brings a deleted file back: a save paused across an accept, then a newer save, then a Delete File, keeps the paused save beside', async () => {
    // Save 1 is in place and pauses after its first piece; Flint reads that and accepts a hunk on it.
    const editor = await open(path(), 'r+');
    await editor.truncate(0);
    await editor.write(FIRST_PIECE, 0, FIRST_PIECE.length, 0);
    expect(await writer.replace('app.ts', FIRST_PIECE, FLINTS, 0o644)).toEqual({ status: 'written' });
    // Save 1 ends, into the file Flint replaced; the user saves again over Flint's file; Flint deletes that.
    await editor.write(SECOND_PIECE, 0, SECOND_PIECE.length, FIRST_PIECE.length);
    await editor.close();
    await writeFile(`${path()}~save`, SAVE_2);
    await rename(`${path()}~save`, path());
    expect(await writer.replace('app.ts', SAVE_2, null, 0o644)).toEqual({ status: 'written' });
    await writer.dispose();
    // Deleted it stays; save 1 is kept beside, and said.
    expect(reports).toEqual([{ path: 'app.ts', keptAs: expect.stringMatching(/^app\.flint-kept-\d{8}-\d{6}\.ts$/) }]);
    expect(await names()).toEqual([reports[0]!.keptAs]);
    expect(await readFile(project.path(reports[0]!.keptAs!))).toEqual(Buffer.concat([FIRST_PIECE, SECOND_PIECE]));
  });

  it('never brings back a file Flint itself deleted: what was written into it after is kept beside', async () => {
    const editor = await open(path(), 'r+');
    expect(await writer.replace('app.ts', Buffer.from('export const saved = "original";\n'), null, 0o644)).toEqual({ status: 'written' });
    await editor.write(SAVE_2, 0, SAVE_2.length, 0);
    await editor.close();
    await writer.dispose();
    expect(reports).toEqual([{ path: 'app.ts', keptAs: expect.stringMatching(/^app\.flint-kept-/) }]);
    expect(await names()).toEqual([reports[0]!.keptAs]);
    expect((await readFile(project.path(reports[0]!.keptAs!))).subarray(0, SAVE_2.length)).toEqual(SAVE_2);
  });

  it('never replaces Flint’s newer write: the late bytes of the first write are kept beside the second', async () => {
    const editor = await open(path(), 'r+');
    expect(await writer.replace('app.ts', Buffer.from('export const saved = "original";\n'), FLINTS, 0o644)).toEqual({ status: 'written' });
    await editor.write(SAVE_2, 0, SAVE_2.length, 0);
    await editor.close();
    const again = Buffer.from('export const saved = "flint again";\n');
    expect(await writer.replace('app.ts', FLINTS, again, 0o644)).toEqual({ status: 'written' });
    await writer.dispose();
    expect(await readFile(path())).toEqual(again);
    expect(reports).toEqual([{ path: 'app.ts', keptAs: expect.stringMatching(/^app\.flint-kept-/) }]);
  });

  it('goes back over Flint’s own file when nothing newer came: the writer’s save wins', async () => {
    const editor = await open(path(), 'r+');
    expect(await writer.replace('app.ts', Buffer.from('export const saved = "original";\n'), FLINTS, 0o644)).toEqual({ status: 'written' });
    await editor.write(SAVE_2, 0, SAVE_2.length, 0);
    await editor.close();
    await writer.dispose();
    expect((await readFile(path())).subarray(0, SAVE_2.length)).toEqual(SAVE_2);
    expect(reports).toEqual([{ path: 'app.ts' }]);
    expect(await names()).toEqual(['app.ts']);
  });
});
