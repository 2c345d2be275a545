import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, readdir, rename, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HunkLine } from '../../shared/edits/edit-types';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { ProjectFiles, TEXT_READ_LIMIT } from '../fs/project-files';
import { EditApplier } from './edit-applier';
import { UndoJournal } from './undo-journal';
import { versionOfText } from '../../../test/helpers/file-versions';

const remove = (text: string): HunkLine => ({ kind: 'remove', text });
const add = (text: string): HunkLine => ({ kind: 'add', text });
const context = (text: string): HunkLine => ({ kind: 'context', text });

describe('EditApplier', () => {
  let project: TempProject;
  let outside: TempProject;
  let journalFile: string;
  let applier: EditApplier;

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
    outside = await createTempProject({ 'secret.txt': 'do not touch\n' });
    journalFile = join(outside.root, 'journal.jsonl');
    applier = new EditApplier(new ProjectFiles(project.root), await UndoJournal.open(journalFile));
  });

  afterEach(async () => {
    await project.remove();
    await outside.remove();
  });

  const read = (path: string) => readFile(project.path(path), 'utf8');

  it('applies a hunk, leaving exactly the expected bytes', async () => {
    const result = await applier.applyHunk({ path: 'src/app.ts', lines: [context('const a = 1;'), remove('const b = 2;'), add('const b = 20;')], base: null });
    expect(result).toMatchObject({ status: 'applied', merged: false });
    expect(await read('src/app.ts')).toBe('const a = 1;\nconst b = 20;\nconst c = 3;\n');
  });

  it('preserves CRLF, a BOM, a missing final newline and the file mode', async () => {
    await writeFile(project.path('win.txt'), '\ufeffone\r\ntwo\r\nthree');
    await chmod(project.path('win.txt'), 0o755);
    await applier.applyHunk({ path: 'win.txt', lines: [remove('two'), add('TWO'), add('two and a half')], base: null });
    expect(await read('win.txt')).toBe('\ufeffone\r\nTWO\r\ntwo and a half\r\nthree');
    expect((await stat(project.path('win.txt'))).mode & 0o777).toBe(0o755);
  });

  it('writes through a symlink inside the project to its target, keeping the link', async () => {
    await symlink('src/app.ts', project.path('link.ts'));
    await applier.applyHunk({ path: 'link.ts', lines: [remove('const c = 3;'), add('const c = 30;')], base: null });
    expect(await read('src/app.ts')).toContain('const c = 30;');
    expect((await readdir(project.root, { withFileTypes: true })).find((entry) => entry.name === 'link.ts')!.isSymbolicLink()).toBe(true);
  });

  it('refuses every path that leaves the project or touches .git, and writes nothing', async () => {
    await mkdir(project.path('.git'));
    await writeFile(project.path('.git/config'), '[core]\n');
    await symlink(outside.root, project.path('escape'));
    await symlink('.git', project.path('sneaky'));
    const paths = ['../secret.txt', `${outside.root}/secret.txt`, 'C:\\Windows\\win.ini', '\\\\server\\share\\x', 'src/\0app.ts', '.git/config', 'escape/secret.txt', 'sneaky/config', 'src/../../secret.txt'];
    for (const path of paths) {
      const result = await applier.applyHunk({ path, lines: [remove('do not touch'), add('pwned')], base: null });
      expect(result.status, path).toBe('refused');
      expect((await applier.createFile(path, ['pwned'])).status, path).toBe('refused');
    }
    expect(await readFile(join(outside.root, 'secret.txt'), 'utf8')).toBe('do not touch\n');
    expect(await read('.git/config')).toBe('[core]\n');
  });

  it('merges around the user’s edits made after the hunk was proposed', async () => {
    const base = 'const a = 1;\nconst b = 2;\nconst c = 3;';
    await writeFile(project.path('src/app.ts'), 'const a = 100; // user\nconst b = 2;\nconst c = 3;\n');
    const result = await applier.applyHunk({ path: 'src/app.ts', lines: [remove('const c = 3;'), add('const c = 30;')], base: versionOfText(base) });
    expect(result).toMatchObject({ status: 'applied', merged: true });
    expect(await read('src/app.ts')).toBe('const a = 100; // user\nconst b = 2;\nconst c = 30;\n');
  });

  it('reports a conflict when the user changed the same lines, and keeps their text', async () => {
    const base = 'const a = 1;\nconst b = 2;\nconst c = 3;';
    const users = 'const a = 1;\nconst b = 2222; // mine\nconst c = 3;\n';
    await writeFile(project.path('src/app.ts'), users);
    const result = await applier.applyHunk({ path: 'src/app.ts', lines: [remove('const b = 2;'), add('const b = 20;')], base: versionOfText(base) });
    expect(result.status).toBe('conflict');
    expect(await read('src/app.ts')).toBe(users);
  });

  it('reports a conflict for a hunk whose file was deleted meanwhile', async () => {
    await rm(project.path('src/app.ts'));
    expect((await applier.applyHunk({ path: 'src/app.ts', lines: [remove('const b = 2;')], base: null })).status).toBe('conflict');
  });

  it('refuses binary files and reports unmatched hunks without writing', async () => {
    await writeFile(project.path('image.bin'), new Uint8Array([1, 0, 2]));
    expect((await applier.applyHunk({ path: 'image.bin', lines: [remove('x')], base: null })).status).toBe('refused');
    const before = await read('src/app.ts');
    expect(await applier.applyHunk({ path: 'src/app.ts', lines: [remove('nope'), add('x')], base: null })).toMatchObject({ status: 'unmatched' });
    expect(await read('src/app.ts')).toBe(before);
  });

  it('refuses a FIFO without waiting for a writer, and a file too large to read, writing nothing', async () => {
    execFileSync('mkfifo', [project.path('pipe')]);
    await writeFile(project.path('huge.log'), '');
    await truncate(project.path('huge.log'), TEXT_READ_LIMIT + 1024 * 1024);
    expect(await applier.applyHunk({ path: 'pipe', lines: [remove('x')], base: null })).toMatchObject({ status: 'refused', message: 'pipe is not a regular file (a device, socket or pipe).' });
    expect(await applier.deleteFile('huge.log')).toMatchObject({ status: 'refused', message: 'huge.log is 33.0 MB; Flint reads files up to 32.0 MB.' });
    expect((await stat(project.path('huge.log'))).size).toBe(TEXT_READ_LIMIT + 1024 * 1024);
    expect((await applier.undo()).status).toBe('empty');
  });

  it('undoes and redoes exactly, even after a restart, and never undoes over the user’s later edits', async () => {
    const original = await readFile(project.path('src/app.ts'));
    await applier.applyHunk({ path: 'src/app.ts', lines: [remove('const a = 1;'), add('const a = 10;')], base: null });
    const changed = await readFile(project.path('src/app.ts'));

    const reopened = new EditApplier(new ProjectFiles(project.root), await UndoJournal.open(journalFile));
    expect((await reopened.undo()).status).toBe('done');
    expect(await readFile(project.path('src/app.ts'))).toEqual(original);
    expect((await reopened.redo()).status).toBe('done');
    expect(await readFile(project.path('src/app.ts'))).toEqual(changed);

    await writeFile(project.path('src/app.ts'), 'the user rewrote everything\n');
    const outcome = await new EditApplier(new ProjectFiles(project.root), await UndoJournal.open(journalFile)).undo();
    expect(outcome.status).toBe('conflict');
    expect(await read('src/app.ts')).toBe('the user rewrote everything\n');
  });

  it('creates, deletes and moves files as explicit changes that undo', async () => {
    const journal = await UndoJournal.open(journalFile);
    const local = new EditApplier(new ProjectFiles(project.root), journal);
    expect((await local.createFile('src/new/util.ts', ['export {};'])).status).toBe('applied');
    expect(await read('src/new/util.ts')).toBe('export {};\n');
    expect((await local.createFile('src/app.ts', ['x'])).status).toBe('conflict');
    expect((await local.deleteFile('src/app.ts')).status).toBe('applied');
    await expect(stat(project.path('src/app.ts'))).rejects.toThrow();
    await local.undo();
    expect(await read('src/app.ts')).toBe('const a = 1;\nconst b = 2;\nconst c = 3;\n');
    expect((await local.moveFile('src/app.ts', 'src/main.ts')).status).toBe('applied');
    expect(await read('src/main.ts')).toContain('const a = 1;');
  });

  it('serializes accepts on one file however its path is spelled: both changes land', async () => {
    const [first, second] = await Promise.all([
      applier.applyHunk({ path: 'src/app.ts', lines: [remove('const a = 1;'), add('const a = 10;')], base: null }),
      applier.applyHunk({ path: './src/app.ts', lines: [remove('const c = 3;'), add('const c = 30;')], base: null }),
    ]);
    expect([first.status, second.status]).toEqual(['applied', 'applied']);
    expect(await read('src/app.ts')).toBe('const a = 10;\nconst b = 2;\nconst c = 30;\n');
  });

  it('ends the redo branch when a new change is written, as editors do', async () => {
    const journal = await UndoJournal.open(journalFile);
    const local = new EditApplier(new ProjectFiles(project.root), journal);
    const edit = (from: string, to: string) => local.applyHunk({ path: 'src/app.ts', lines: [remove(from), add(to)], base: null });
    await edit('const a = 1;', 'const a = 10;');
    await edit('const b = 2;', 'const b = 20;');
    await local.undo();
    await edit('const c = 3;', 'const c = 30;');
    await local.undo();
    await local.undo();
    expect(await read('src/app.ts')).toBe('const a = 1;\nconst b = 2;\nconst c = 3;\n');
    expect((await local.redo()).status).toBe('done');
    expect((await local.redo()).status).toBe('done');
    expect((await local.redo()).status).toBe('empty');
    expect(await read('src/app.ts')).toBe('const a = 10;\nconst b = 2;\nconst c = 30;\n');
  });

  it('forgets a journal entry whose write did not happen, so undo still reaches older changes', async () => {
    const journal = await UndoJournal.open(journalFile);
    const local = new EditApplier(new ProjectFiles(project.root), journal);
    await local.applyHunk({ path: 'src/app.ts', lines: [remove('const a = 1;'), add('const a = 10;')], base: null });
    const ghost = await journal.record({ path: 'src/app.ts', absolutePath: project.path('src/app.ts'), before: new Uint8Array([1]), after: new Uint8Array([2]), mode: 0o644 });
    await journal.drop(ghost);
    expect((await new EditApplier(new ProjectFiles(project.root), await UndoJournal.open(journalFile)).undo()).status).toBe('done');
    expect(await read('src/app.ts')).toBe('const a = 1;\nconst b = 2;\nconst c = 3;\n');
  });

  it('never replaces a file another program changed after Flint read it', async () => {
    const local = new EditApplier(new ProjectFiles(project.root), await UndoJournal.open(journalFile), undefined, {
      quietMs: 0,
      atStep: async (step) => (step === 'before-capture' ? writeFile(project.path('src/app.ts'), 'the user saved this\n') : undefined),
    });
    const result = await local.applyHunk({ path: 'src/app.ts', lines: [remove('const a = 1;'), add('const a = 10;')], base: null });
    expect(result.status).toBe('conflict');
    expect(await read('src/app.ts')).toBe('the user saved this\n');
    expect((await readdir(project.path('src'))).filter((name) => name.includes('.flint-'))).toEqual([]);
    expect((await local.undo()).status).toBe('empty');
  });

  it('leaves the original intact when the process dies between the temp write and the rename', async () => {
    const before = await read('src/app.ts');
    const script = `
      const fs = require('node:fs');
      const { syncBuiltinESMExports } = require('node:module');
      fs.promises.rename = async () => process.exit(137);
      syncBuiltinESMExports();
      import(${JSON.stringify(join(import.meta.dirname, '..', 'fs', 'atomic-write.ts'))}).then(({ writeFileAtomic }) =>
        writeFileAtomic(${JSON.stringify(project.path('src/app.ts'))}, 'half-written garbage'));
    `;
    const tsx = join(import.meta.dirname, '..', '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const crashed = (() => {
      try {
        execFileSync(process.execPath, [tsx, '-e', script], { stdio: 'pipe' });
        return false;
      } catch (error) {
        return (error as { status?: number }).status === 137;
      }
    })();
    expect(crashed).toBe(true);
    expect(await read('src/app.ts')).toBe(before);
  });

  describe('a folder swapped for a symlink after the change', () => {
    const swapForLink = async (folder: string) => {
      await rename(project.path(folder), project.path(`${folder}-moved`));
      await symlink(outside.root, project.path(folder));
    };
    const outsideNames = async () => (await readdir(outside.root)).filter((name) => name !== 'journal.jsonl' && name !== 'secret.txt');

    it('refuses to undo an accepted Delete File through it, writing nothing outside', async () => {
      await project.write({ 'sub/app.ts': 'export const app = 1;\n' });
      expect((await applier.deleteFile('sub/app.ts')).status).toBe('applied');
      await swapForLink('sub');
      const outcome = await applier.undo();
      expect(outcome).toMatchObject({ status: 'refused' });
      expect(await outsideNames()).toEqual([]);
    });

    it('refuses to redo an undone Add File through it, writing nothing outside', async () => {
      expect((await applier.createFile('sub/new.ts', ['export {};'])).status).toBe('applied');
      expect((await applier.undo()).status).toBe('done');
      await swapForLink('sub');
      expect(await applier.redo()).toMatchObject({ status: 'refused' });
      expect(await outsideNames()).toEqual([]);
    });
  });

  it('reports an undo as a conflict, never as done, when a save lands in the middle of it', async () => {
    const journal = await UndoJournal.open(journalFile);
    const save = async () => {
      await writeFile(project.path('src/app.ts.editor~'), 'saved during the undo\n');
      await rename(project.path('src/app.ts.editor~'), project.path('src/app.ts'));
    };
    const local = new EditApplier(new ProjectFiles(project.root), journal, undefined, { quietMs: 0, atStep: async (step) => (step === 'captured' ? save() : undefined) });
    expect((await new EditApplier(new ProjectFiles(project.root), journal).applyHunk({ path: 'src/app.ts', lines: [remove('const a = 1;'), add('const a = 10;')], base: null })).status).toBe('applied');
    expect((await local.undo()).status).toBe('conflict');
    expect(await read('src/app.ts')).toBe('saved during the undo\n');
  });

  it('keeps the file under its name when a write fails midway, and the journal still names its folder for recovery', async () => {
    const journal = await UndoJournal.open(journalFile);
    const local = new EditApplier(new ProjectFiles(project.root), journal, undefined, {
      quietMs: 0,
      atStep: async (step) => {
        if (step === 'captured') throw Object.assign(new Error('EIO: i/o error'), { code: 'EIO' });
      },
    });
    await expect(local.applyHunk({ path: 'src/app.ts', lines: [remove('const a = 1;'), add('const a = 10;')], base: null })).rejects.toThrow('EIO');
    expect(await readdir(project.path('src'))).toEqual(['app.ts']);
    expect(await read('src/app.ts')).toBe('const a = 1;\nconst b = 2;\nconst c = 3;\n');
    expect(journal.history).toEqual([]);
    expect([...(await UndoJournal.open(journalFile)).touchedPaths]).toEqual([project.path('src/app.ts')]);
  });

  it('leaves nothing to redo when a move is refused because its source was saved meanwhile', async () => {
    let saved = false;
    const local = new EditApplier(new ProjectFiles(project.root), await UndoJournal.open(journalFile), undefined, {
      quietMs: 0,
      atStep: async (step) => {
        if (step !== 'before-capture' || saved) return;
        saved = true;
        await writeFile(project.path('src/app.ts'), 'the user saved this\n');
      },
    });
    expect((await local.moveFile('src/app.ts', 'src/moved.ts')).status).toBe('conflict');
    expect((await local.redo()).status).toBe('empty');
    await local.dispose();
    expect(await readdir(project.path('src'))).toEqual(['app.ts']);
    expect(await read('src/app.ts')).toBe('the user saved this\n');
  });
});
