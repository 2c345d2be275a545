/**
 * ProjectFiles on real temp folders: the path policy for each purpose, and the two
 * readers on the one bounded read. Symlinks have their own file.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, rm, truncate, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failureOf } from '../../../test/helpers/failure-of';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { decodeForView, lexicalRefusal, ProjectFiles, relativePathOf, VIEW_SIZE_LIMIT, type PathPurpose } from './project-files';

const PURPOSES: PathPurpose[] = ['user', 'model'];
const ESCAPES = ['../secret.txt', 'src/../../x', 'src/../README.md', '/etc/passwd', 'C:\\Windows\\win.ini', 'C:x', '\\\\server\\share', 'a\0b', 'src\\app.ts', '', '.. /x', '.../x'];

describe('the lexical policy', () => {
  it('accepts an ordinary path inside the project for the model', () => {
    expect(lexicalRefusal('src/app.ts', 'model')).toBeNull();
    expect(lexicalRefusal('.github/workflows/ci.yml', 'model')).toBeNull();
    expect(lexicalRefusal('.gitignore', 'model')).toBeNull();
  });

  it.each(PURPOSES)('refuses every path that could leave the root, for the %s', (purpose) => {
    for (const path of ESCAPES) {
      expect(lexicalRefusal(path, purpose), JSON.stringify(path)).toBe(`Refused: ${JSON.stringify(path)} is not a path inside the project (Flint refuses absolute paths and "..").`);
      expect(() => relativePathOf(path, purpose), JSON.stringify(path)).toThrow(expect.objectContaining({ code: 'outside-project' }));
    }
  });

  it('refuses .git as Linux spells it, for the model', () => {
    expect(lexicalRefusal('.git/config', 'model')).toBe('Refused: .git/config is inside .git; Flint never edits repository internals.');
    expect(lexicalRefusal('sub/.GIT/hooks/pre-commit', 'model')).toContain('is inside .git;');
  });

  it.each([
    ['a trailing space (Win32 strips it)', '.git /config'],
    ['a trailing dot (Win32 strips it)', '.git./config'],
    ['the 8.3 short name', 'GIT~1/config'],
    ['an NTFS stream suffix', '.git::$INDEX_ALLOCATION/config'],
    ['a zero-width joiner (HFS+ ignores it)', '.g\u200dit/config'],
    ['a zero-width space', '.gi\u200bt/config'],
    ['a Cyrillic i', '.g\u0456t/config'],
    ['a Greek tau', '.gi\u03c4/hooks/pre-commit'],
    ['fullwidth letters', '.\uff47\uff49\uff54/config'],
    ['mixed case, dots and a space', 'a/.GiT.. /config'],
    ['a decomposed Greek iota with tonos', '.g\u03b9\u0301t/config'],
  ])('refuses .git spelled with %s for the model, as Windows or macOS would read it', (_how, path) => {
    expect(lexicalRefusal(path, 'model')).toMatch(/^Refused: .* is inside \.git \(Windows or macOS read that name as \.git\); Flint never edits repository internals\.$/);
  });

  it('refuses a model path longer than any file system takes, in a short message', () => {
    expect(lexicalRefusal(`src/${'a'.repeat(4_092)}`, 'model')).toBeNull();
    expect(lexicalRefusal(`src/${'a'.repeat(1_000_000)}`, 'model')).toMatch(/^Refused: src\/a{196}… is 1000004 characters long; no file system takes such a path\.$/);
    expect(lexicalRefusal(`.git./${'a'.repeat(4_000)}`, 'model')!.length).toBeLessThan(400);
  });

  it('leaves .git and the length to the file system for the user, who may look anywhere in the project', () => {
    expect(lexicalRefusal('.git/config', 'user')).toBeNull();
    expect(lexicalRefusal(`src/${'a'.repeat(5_000)}`, 'user')).toBeNull();
  });

  it('shows a huge refused path shortened, whoever named it', () => {
    for (const purpose of PURPOSES) expect(lexicalRefusal(`../${'a'.repeat(100_000)}`, purpose)!.length, purpose).toBeLessThan(300);
  });

  it('normalizes the path it returns', () => {
    expect(relativePathOf('a/./b', 'user')).toBe('a/b');
    expect(relativePathOf('./src//app.ts', 'model')).toBe('src/app.ts');
  });

  it('trims the padding a model puts around a path, but keeps a user’s spaces, which may be in the name', () => {
    expect(relativePathOf('  src/app.ts \n', 'model')).toBe('src/app.ts');
    expect(relativePathOf(' notes.txt', 'user')).toBe(' notes.txt');
  });
});

describe('ProjectFiles.resolve', () => {
  let project: TempProject;
  let files: ProjectFiles;

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': 'export {};\n', 'README.md': '# demo\n', '.git/config': '[core]\n' });
    files = new ProjectFiles(project.root);
  });

  afterEach(() => project.remove());

  it.each(PURPOSES)('resolves an existing file to its relative and absolute path, for the %s', async (purpose) => {
    expect(await files.resolve('./src//app.ts', purpose)).toEqual({ relativePath: 'src/app.ts', absolutePath: project.path('src/app.ts'), exists: true });
  });

  it('resolves a folder too', async () => {
    expect((await files.resolve('src', 'user')).absolutePath).toBe(project.path('src'));
  });

  it.each(PURPOSES)("refuses every path that could leave the root as 'outside-project', for the %s", async (purpose) => {
    for (const path of [...ESCAPES, project.path('README.md')]) {
      expect((await failureOf(() => files.resolve(path, purpose))).code, JSON.stringify(path)).toBe('outside-project');
    }
  });

  it("reports a missing entry to the user as 'not-found'", async () => {
    const failure = await failureOf(() => files.resolve('src/missing.ts', 'user'));
    expect(failure).toMatchObject({ code: 'not-found', message: 'src/missing.ts does not exist.' });
  });

  it('resolves a model path that does not exist yet where it would be created', async () => {
    expect(await files.resolve('src/new/deeper/util.ts', 'model')).toEqual({
      relativePath: 'src/new/deeper/util.ts',
      absolutePath: project.path('src/new/deeper/util.ts'),
      exists: false,
    });
  });

  it('lets the user look inside .git, and refuses the model even where the file exists', async () => {
    expect((await files.resolve('.git/config', 'user')).absolutePath).toBe(project.path('.git/config'));
    const failure = await failureOf(() => files.resolve('.git/config', 'model'));
    expect(failure).toMatchObject({ code: 'outside-project', message: 'Refused: .git/config is inside .git; Flint never edits repository internals.' });
  });

  it.each(PURPOSES)('fails a path that goes through a file instead of creating it, for the %s', async (purpose) => {
    expect((await failureOf(() => files.resolve('src/app.ts/inner.ts', purpose))).code).toBe('not-a-directory');
  });

  it('resolves a file whose name starts with two dots', async () => {
    await project.write({ '..notes': 'a file, not a parent reference' });
    expect((await files.resolve('..notes', 'user')).absolutePath).toBe(project.path('..notes'));
    expect((await files.resolve('..notes', 'model')).exists).toBe(true);
  });

  it("reports a vanished project folder as 'not-found', even for a path the model may create", async () => {
    await project.remove();
    expect((await failureOf(() => files.resolve('src/new.ts', 'model'))).code).toBe('not-found');
  });
});

describe('ProjectFiles.readForView', () => {
  let project: TempProject;
  let files: ProjectFiles;

  beforeEach(async () => {
    project = await createTempProject();
    files = new ProjectFiles(project.root);
  });

  afterEach(() => project.remove());

  it('reads a UTF-8 text file', async () => {
    const text = 'export const greeting = "héllo → wörld";\n';
    await project.write({ 'src/app.ts': text });
    expect(await files.readForView('src/app.ts')).toEqual({ kind: 'text', path: 'src/app.ts', size: Buffer.byteLength(text), text, encoding: 'utf-8' });
  });

  it('reads an empty file as empty UTF-8 text', async () => {
    await project.write({ 'empty.txt': '' });
    expect(await files.readForView('empty.txt')).toEqual({ kind: 'text', path: 'empty.txt', size: 0, text: '', encoding: 'utf-8' });
  });

  it('returns the normalized path it read', async () => {
    await project.write({ 'src/app.ts': 'x' });
    expect((await files.readForView('./src//app.ts')).path).toBe('src/app.ts');
  });

  it("decodes UTF-8 with a BOM, drops the BOM and reports 'utf-8-bom'", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('naïve\n', 'utf8')]);
    await project.write({ 'bom.txt': bytes });
    expect(await files.readForView('bom.txt')).toEqual({ kind: 'text', path: 'bom.txt', size: bytes.length, text: 'naïve\n', encoding: 'utf-8-bom' });
  });

  it('decodes UTF-16LE with a BOM even though it contains NUL bytes', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi ünï\n', 'utf16le')]);
    await project.write({ 'wide.txt': bytes });
    expect(await files.readForView('wide.txt')).toMatchObject({ kind: 'text', text: 'hi ünï\n', encoding: 'utf-16le', size: bytes.length });
  });

  it('decodes UTF-16BE with a BOM', async () => {
    const bigEndian = Buffer.from('big end\n', 'utf16le').swap16();
    await project.write({ 'be.txt': Buffer.concat([Buffer.from([0xfe, 0xff]), bigEndian]) });
    expect(await files.readForView('be.txt')).toMatchObject({ kind: 'text', text: 'big end\n', encoding: 'utf-16be' });
  });

  it("describes a file with a NUL byte as 'binary' without its contents", async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]);
    await project.write({ 'image.png': bytes });
    expect(await files.readForView('image.png')).toEqual({ kind: 'binary', path: 'image.png', size: bytes.length });
  });

  it("describes a file just over VIEW_SIZE_LIMIT as 'too-large'", async () => {
    await project.write({ 'huge.log': '' });
    await truncate(project.path('huge.log'), VIEW_SIZE_LIMIT + 1);
    expect(await files.readForView('huge.log')).toEqual({ kind: 'too-large', path: 'huge.log', size: VIEW_SIZE_LIMIT + 1, limit: VIEW_SIZE_LIMIT });
  });

  it('reads a text file of exactly VIEW_SIZE_LIMIT bytes', async () => {
    await project.write({ 'limit.txt': Buffer.alloc(VIEW_SIZE_LIMIT, 'a') });
    const content = await files.readForView('limit.txt');
    expect(content.kind).toBe('text');
    expect(content.size).toBe(VIEW_SIZE_LIMIT);
  });

  it('falls back to Windows-1252 with a notice for invalid UTF-8', async () => {
    await project.write({ 'latin.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9]) });
    const content = await files.readForView('latin.txt');
    expect(content).toMatchObject({ kind: 'text', path: 'latin.txt', size: 4, text: 'café', encoding: 'windows-1252' });
    expect(content.kind === 'text' && content.notice).toMatch(/Windows-1252/);
  });

  it('decodes Windows-1252 specific bytes (0x80 is the euro sign)', async () => {
    await project.write({ 'price.txt': Buffer.from([0x80, 0x35, 0x20, 0x93, 0x71, 0x94]) });
    expect(await files.readForView('price.txt')).toMatchObject({ text: '€5 “q”', encoding: 'windows-1252' });
  });

  it("refuses a folder as 'not-a-file'", async () => {
    await project.write({ 'src/app.ts': '' });
    await expect(files.readForView('src')).rejects.toMatchObject({ code: 'not-a-file', message: 'src is a folder, not a file.' });
  });

  it("refuses a FIFO as 'not-a-file' and returns instead of waiting for a writer", async () => {
    execFileSync('mkfifo', [project.path('pipe')]);
    await expect(files.readForView('pipe')).rejects.toMatchObject({ code: 'not-a-file' });
  });

  it("refuses a path with .. or an absolute path as 'outside-project'", async () => {
    await expect(files.readForView('../x')).rejects.toMatchObject({ code: 'outside-project' });
    await expect(files.readForView('/etc/hostname')).rejects.toMatchObject({ code: 'outside-project' });
  });

  it("reports a missing file as 'not-found'", async () => {
    await expect(files.readForView('missing.txt')).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('decodeForView', () => {
  it('only sniffs the first 8,000 bytes for NUL', () => {
    expect(decodeForView('late-nul.txt', Buffer.concat([Buffer.alloc(8000, 'a'), Buffer.from([0])])).kind).toBe('text');
  });

  it('treats a NUL within the first 8,000 bytes as binary', () => {
    const bytes = Buffer.concat([Buffer.alloc(7999, 'a'), Buffer.from([0])]);
    expect(decodeForView('early-nul.bin', bytes)).toEqual({ kind: 'binary', path: 'early-nul.bin', size: 8000 });
  });
});

describe('ProjectFiles.readText', () => {
  let project: TempProject;
  let files: ProjectFiles;

  beforeEach(async () => {
    project = await createTempProject({ 'src/app.ts': 'const a = 1;\r\nconst b = 2;\n' });
    files = new ProjectFiles(project.root);
  });

  afterEach(() => project.remove());

  it('reads UTF-8 text as lines', async () => {
    expect((await files.readText('src/app.ts'))?.lines).toEqual(['const a = 1;', 'const b = 2;']);
  });

  it('answers null for a file that is not there (deleted after its save), in a folder or not', async () => {
    await rm(project.path('src/app.ts'));
    expect(await files.readText('src/app.ts')).toBeNull();
    expect(await files.readText('gone/too.ts')).toBeNull();
  });

  it('refuses a file over the limit, naming both sizes', async () => {
    await expect(files.readText('src/app.ts', 10)).rejects.toMatchObject({ code: 'too-large', message: 'src/app.ts is 27 bytes; Flint reads files up to 10 bytes.' });
  });

  it("refuses a FIFO as 'not-a-file' and returns instead of waiting for a writer", async () => {
    execFileSync('mkfifo', [project.path('src/pipe')]);
    await expect(files.readText('src/pipe')).rejects.toMatchObject({ code: 'not-a-file' });
  });

  it("refuses binary and non-UTF-8 files as 'not-a-file' rather than guess their text", async () => {
    await project.write({ 'image.bin': new Uint8Array([1, 0, 2]), 'latin.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9]) });
    await expect(files.readText('image.bin')).rejects.toMatchObject({ code: 'not-a-file', message: 'image.bin is binary; Flint does not edit it.' });
    await expect(files.readText('latin.txt')).rejects.toMatchObject({ code: 'not-a-file' });
  });

  it('refuses a path that leaves the project, or reaches into .git', async () => {
    await project.write({ '.git/config': '[core]\n' });
    await expect(files.readText('../etc/passwd')).rejects.toMatchObject({ code: 'outside-project' });
    await expect(files.readText('.git/config')).rejects.toMatchObject({ code: 'outside-project' });
  });
});

describe('ProjectFiles.readBytes', () => {
  let project: TempProject;
  let files: ProjectFiles;

  beforeEach(async () => {
    project = await createTempProject({ 'run.sh': '#!/bin/sh\n' });
    files = new ProjectFiles(project.root);
  });

  afterEach(() => project.remove());

  it('gives the bytes with the permission bits a rewrite must keep', async () => {
    await chmod(project.path('run.sh'), 0o750);
    const read = await files.readBytes(await files.resolve('run.sh', 'model'));
    expect(read).toEqual({ bytes: Buffer.from('#!/bin/sh\n'), mode: 0o750 });
  });

  it('answers null for a file deleted after it was resolved', async () => {
    const target = await files.resolve('run.sh', 'model');
    await rm(project.path('run.sh'));
    expect(await files.readBytes(target)).toBeNull();
  });

  it("refuses a file that became a folder after it was resolved as 'not-a-file'", async () => {
    const target = await files.resolve('run.sh', 'model');
    await rm(project.path('run.sh'));
    await mkdir(project.path('run.sh'));
    await expect(files.readBytes(target)).rejects.toMatchObject({ code: 'not-a-file' });
  });

  it("refuses a file larger than the limit as 'too-large' without reading it", async () => {
    await writeFile(project.path('run.sh'), '');
    await truncate(project.path('run.sh'), 64 * 1024 * 1024);
    await expect(files.readBytes(await files.resolve('run.sh', 'model'))).rejects.toMatchObject({ code: 'too-large', message: 'run.sh is 64.0 MB; Flint reads files up to 32.0 MB.' });
  });
});
