import { execFileSync } from 'node:child_process';
import { mkdtemp, realpath, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { FlintFailure } from '../../shared/result';
import { decodeForView, readProjectFile, VIEW_SIZE_LIMIT } from './file-reader';

describe('readProjectFile', () => {
  let project: TempProject;
  let outside: string | undefined;

  beforeEach(async () => {
    project = await createTempProject();
  });

  afterEach(async () => {
    await project.remove();
    if (outside) await rm(outside, { recursive: true, force: true });
    outside = undefined;
  });

  it('reads a UTF-8 text file', async () => {
    const text = 'export const greeting = "héllo → wörld";\n';
    await project.write({ 'src/app.ts': text });

    const content = await readProjectFile(project.root, 'src/app.ts');

    expect(content).toEqual({
      kind: 'text',
      path: 'src/app.ts',
      size: Buffer.byteLength(text),
      text,
      encoding: 'utf-8',
    });
  });

  it('reads an empty file as empty UTF-8 text', async () => {
    await project.write({ 'empty.txt': '' });
    expect(await readProjectFile(project.root, 'empty.txt')).toEqual({
      kind: 'text',
      path: 'empty.txt',
      size: 0,
      text: '',
      encoding: 'utf-8',
    });
  });

  it('returns the normalized path it read', async () => {
    await project.write({ 'src/app.ts': 'x' });
    expect((await readProjectFile(project.root, './src//app.ts')).path).toBe('src/app.ts');
  });

  it("decodes UTF-8 with a BOM, drops the BOM and reports 'utf-8-bom'", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('naïve\n', 'utf8')]);
    await project.write({ 'bom.txt': bytes });

    const content = await readProjectFile(project.root, 'bom.txt');

    expect(content).toEqual({ kind: 'text', path: 'bom.txt', size: bytes.length, text: 'naïve\n', encoding: 'utf-8-bom' });
  });

  it('decodes UTF-16LE with a BOM even though it contains NUL bytes', async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi ünï\n', 'utf16le')]);
    await project.write({ 'wide.txt': bytes });

    const content = await readProjectFile(project.root, 'wide.txt');

    expect(content).toMatchObject({ kind: 'text', text: 'hi ünï\n', encoding: 'utf-16le', size: bytes.length });
  });

  it('decodes UTF-16BE with a BOM', async () => {
    const littleEndian = Buffer.from('big end\n', 'utf16le');
    const bigEndian = Buffer.from(littleEndian).swap16();
    const bytes = Buffer.concat([Buffer.from([0xfe, 0xff]), bigEndian]);
    await project.write({ 'be.txt': bytes });

    expect(await readProjectFile(project.root, 'be.txt')).toMatchObject({ kind: 'text', text: 'big end\n', encoding: 'utf-16be' });
  });

  it("describes a file with a NUL byte as 'binary' without its contents", async () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]);
    await project.write({ 'image.png': bytes });

    const content = await readProjectFile(project.root, 'image.png');

    expect(content).toEqual({ kind: 'binary', path: 'image.png', size: bytes.length });
  });

  it("describes a file just over VIEW_SIZE_LIMIT as 'too-large'", async () => {
    await project.write({ 'huge.log': '' });
    await truncate(project.path('huge.log'), VIEW_SIZE_LIMIT + 1);

    const content = await readProjectFile(project.root, 'huge.log');

    expect(content).toEqual({ kind: 'too-large', path: 'huge.log', size: VIEW_SIZE_LIMIT + 1, limit: VIEW_SIZE_LIMIT });
  });

  it('reads a text file of exactly VIEW_SIZE_LIMIT bytes', async () => {
    await project.write({ 'limit.txt': Buffer.alloc(VIEW_SIZE_LIMIT, 'a') });

    const content = await readProjectFile(project.root, 'limit.txt');

    expect(content.kind).toBe('text');
    expect(content.size).toBe(VIEW_SIZE_LIMIT);
  });

  it('falls back to Windows-1252 with a notice for invalid UTF-8', async () => {
    const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9]);
    await project.write({ 'latin.txt': bytes });

    const content = await readProjectFile(project.root, 'latin.txt');

    expect(content).toMatchObject({ kind: 'text', path: 'latin.txt', size: 4, text: 'café', encoding: 'windows-1252' });
    expect(content.kind === 'text' && content.notice).toMatch(/Windows-1252/);
  });

  it('decodes Windows-1252 specific bytes (0x80 is the euro sign)', async () => {
    await project.write({ 'price.txt': Buffer.from([0x80, 0x35, 0x20, 0x93, 0x71, 0x94]) });
    expect(await readProjectFile(project.root, 'price.txt')).toMatchObject({ text: '€5 “q”', encoding: 'windows-1252' });
  });

  it("refuses a folder as 'not-a-file'", async () => {
    await project.write({ 'src/app.ts': '' });
    await expect(readProjectFile(project.root, 'src')).rejects.toMatchObject({ code: 'not-a-file' });
  });

  it("refuses a FIFO as 'not-a-file' and returns instead of waiting for a writer", async () => {
    execFileSync('mkfifo', [project.path('pipe')]);

    const read = readProjectFile(project.root, 'pipe');

    await expect(read).rejects.toBeInstanceOf(FlintFailure);
    await expect(read).rejects.toMatchObject({ code: 'not-a-file' });
  });

  it("refuses a path with .. as 'outside-project'", async () => {
    await expect(readProjectFile(project.root, '../x')).rejects.toMatchObject({ code: 'outside-project' });
  });

  it("refuses an absolute path as 'outside-project'", async () => {
    await expect(readProjectFile(project.root, '/etc/hostname')).rejects.toMatchObject({ code: 'outside-project' });
  });

  it("refuses a symlink to a file outside the root as 'outside-project'", async () => {
    outside = await realpath(await mkdtemp(join(tmpdir(), 'flint-outside-')));
    await writeFile(join(outside, 'secret.txt'), 'top secret');
    await symlink(join(outside, 'secret.txt'), project.path('leak.txt'));

    await expect(readProjectFile(project.root, 'leak.txt')).rejects.toMatchObject({ code: 'outside-project' });
  });

  it('reads through a symlink to a file inside the root, under the requested path', async () => {
    await project.write({ 'src/app.ts': 'inside' });
    await symlink('src/app.ts', project.path('alias.ts'));

    expect(await readProjectFile(project.root, 'alias.ts')).toMatchObject({ kind: 'text', path: 'alias.ts', text: 'inside' });
  });

  it("reports a missing file as 'not-found'", async () => {
    await expect(readProjectFile(project.root, 'missing.txt')).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('decodeForView', () => {
  it('only sniffs the first 8,000 bytes for NUL', () => {
    const bytes = Buffer.concat([Buffer.alloc(8000, 'a'), Buffer.from([0])]);
    const content = decodeForView('late-nul.txt', bytes);
    expect(content.kind).toBe('text');
  });

  it('treats a NUL within the first 8,000 bytes as binary', () => {
    const bytes = Buffer.concat([Buffer.alloc(7999, 'a'), Buffer.from([0])]);
    expect(decodeForView('early-nul.bin', bytes)).toEqual({ kind: 'binary', path: 'early-nul.bin', size: 8000 });
  });
});
