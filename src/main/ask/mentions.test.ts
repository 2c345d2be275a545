/**
 * `@path` mentions resolved against a real project in a temp folder: files read, every
 * kind of bad mention refused with its own message, none blocking the others.
 */
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempProject, type TempProject } from '../../../test/helpers/temp-project';
import { ProjectFiles } from '../fs/project-files';
import { MAX_NAMED_FILES, resolveNamedFiles } from './mentions';

describe('resolveNamedFiles on a real project', () => {
  let project: TempProject;
  let outside: string;
  let files: ProjectFiles;

  beforeAll(async () => {
    project = await createTempProject({
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 2;\nexport const c = 3;\n',
      'src/lib/util.ts': 'export {};\n',
      'src/ü/naïve.ts': 'export const naïve = true;\n',
      'docs/my notes.md': '# Notes\n',
      'assets/logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]),
      Makefile: 'all:\n\ttrue\n',
      '.git/config': '[core]\n',
    });
    outside = await mkdtemp(join(tmpdir(), 'flint-mention-outside-'));
    await writeFile(join(outside, 'secret.txt'), 'password\n');
    await symlink(join(outside, 'secret.txt'), project.path('src/leak.ts'));
    await symlink(outside, project.path('elsewhere'));
    files = new ProjectFiles(project.root);
  });

  afterAll(async () => {
    await project.remove();
    await rm(outside, { recursive: true, force: true });
  });

  it('reads each named file, in the order named, with its lines', async () => {
    const named = await resolveNamedFiles(files, 'compare @src/a.ts with @src/b.ts.');
    expect(named.files.map((file) => [file.path, file.text.lines])).toEqual([
      ['src/a.ts', ['export const a = 1;']],
      ['src/b.ts', ['export const b = 2;', 'export const c = 3;']],
    ]);
    expect(named.statuses).toEqual([
      { mention: '@src/a.ts', path: 'src/a.ts', state: 'sent', lineCount: 1 },
      { mention: '@src/b.ts', path: 'src/b.ts', state: 'sent', lineCount: 2 },
    ]);
  });

  it('takes unicode paths and quoted paths with spaces', async () => {
    const named = await resolveNamedFiles(files, 'see @src/ü/naïve.ts and @"docs/my notes.md"');
    expect(named.files.map((file) => file.path)).toEqual(['src/ü/naïve.ts', 'docs/my notes.md']);
  });

  it.each<[string, string, RegExp]>([
    ['a folder', '@src/lib', /^src\/lib is a folder — name a file in it/],
    ['a binary file', '@assets/logo.png', /^assets\/logo\.png is binary/],
    ['a missing file', '@src/nope.ts', /^src\/nope\.ts does not exist in the project/],
    ['a path with ..', '@../secret.txt', /^@\.\.\/secret\.txt is outside the project/],
    ['an absolute path', '@/etc/passwd', /^@\/etc\/passwd is outside the project/],
    ['a home path', '@~/.ssh/id_rsa', /in your home folder, outside the project/],
    ['a symlink out of the project', '@src/leak.ts', /src\/leak\.ts leads outside the project through a symlink/],
    ['a file in a linked folder out of the project', '@elsewhere/secret.txt', /leads outside the project through a symlink/],
    ['repository internals', '@.git/config', /inside \.git/],
  ])('refuses %s with its own message, and still sends the others', async (_case, mention, message) => {
    const named = await resolveNamedFiles(files, `about ${mention} and @src/a.ts`);
    expect(named.files.map((file) => file.path)).toEqual(['src/a.ts']);
    expect(named.statuses[0]).toMatchObject({ mention, state: 'refused', message: expect.stringMatching(message) });
    expect(named.statuses[1]).toMatchObject({ mention: '@src/a.ts', state: 'sent' });
  });

  it('leaves decorators, annotations, npm scopes and emails as prose', async () => {
    const named = await resolveNamedFiles(files, '@Component({}) with @Override, bump @types/node, mail me@example.com');
    expect(named).toEqual({ files: [], statuses: [] });
  });

  it('takes a bare word that names a project file (@Makefile)', async () => {
    const named = await resolveNamedFiles(files, 'what does @Makefile build?');
    expect(named.files.map((file) => file.path)).toEqual(['Makefile']);
  });

  it('sends a file named twice, or spelled two ways, once', async () => {
    const named = await resolveNamedFiles(files, '@src/a.ts and @./src/a.ts and @src/a.ts again');
    expect(named.files.map((file) => file.path)).toEqual(['src/a.ts']);
    expect(named.statuses).toHaveLength(1);
  });

  it('lists the file already asked about as sent, without sending it twice', async () => {
    const named = await resolveNamedFiles(files, 'how does @src/a.ts use @src/b.ts', ['src/a.ts']);
    expect(named.files.map((file) => file.path)).toEqual(['src/b.ts']);
    expect(named.statuses.map((status) => [status.path, status.state])).toEqual([
      ['src/a.ts', 'sent'],
      ['src/b.ts', 'sent'],
    ]);
  });

  it(`cuts the files named beyond ${MAX_NAMED_FILES}, saying why`, async () => {
    const many = Object.fromEntries(Array.from({ length: MAX_NAMED_FILES + 2 }, (_, index) => [`many/f${index}.ts`, `export const f${index} = ${index};\n`]));
    await project.write(many);
    const named = await resolveNamedFiles(files, Object.keys(many).map((path) => `@${path}`));
    expect(named.files).toHaveLength(MAX_NAMED_FILES);
    expect(named.statuses.filter((status) => status.state === 'cut').map((status) => status.path)).toEqual([`many/f${MAX_NAMED_FILES}.ts`, `many/f${MAX_NAMED_FILES + 1}.ts`]);
    expect(named.statuses.at(-1)?.message).toMatch(/at most 8 files/);
  });
});
