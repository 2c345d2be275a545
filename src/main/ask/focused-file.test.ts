import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEditorTitle } from '../desktop/editor-titles';
import { fileFromTitle, notAnEditorNote, windowNoteFor, type TitleProject } from './focused-file';

const FILES = ['src/app.ts', 'src/index.ts', 'lib/index.ts', 'test/index.ts', 'README.md', 'src/café.ts', 'src/deep/util/strings.ts'];

function project(lastUsed: Record<string, number> = {}): TitleProject {
  return {
    root: '/home/ada/code/flint',
    names: {
      hasFile: (path) => FILES.includes(path),
      filesNamed: (name) => FILES.filter((path) => path === name || path.endsWith(`/${name}`)),
    },
    lastUsed: (path) => lastUsed[path],
  };
}

const resolveTitle = (title: string, owner = '', used: Record<string, number> = {}) => fileFromTitle(readEditorTitle(title, owner), project(used), '/home/ada');

describe('fileFromTitle', () => {
  it('takes the file a VS Code title names, dirty marker and all', async () => {
    expect(await resolveTitle('● app.ts — flint — Visual Studio Code', 'Code')).toEqual({ kind: 'file', path: 'src/app.ts' });
  });

  it('takes absolute, home-relative and relative paths inside the project', async () => {
    expect(await resolveTitle('/home/ada/code/flint/src/app.ts - NVIM')).toEqual({ kind: 'file', path: 'src/app.ts' });
    expect(await resolveTitle('~/code/flint/README.md (flint) - Sublime Text')).toEqual({ kind: 'file', path: 'README.md' });
    expect(await resolveTitle('app.ts (~/code/flint/src) - VIM')).toEqual({ kind: 'file', path: 'src/app.ts' });
    expect(await resolveTitle('flint [~/code/flint] – …/util/strings.ts [flint] – IntelliJ IDEA')).toEqual({ kind: 'file', path: 'src/deep/util/strings.ts' });
  });

  it('keeps unicode names', async () => {
    expect(await resolveTitle('● café.ts - flint - Visual Studio Code', 'Code')).toEqual({ kind: 'file', path: 'src/café.ts' });
  });

  it('says a path outside the project is outside, and never climbs out with ..', async () => {
    expect(await resolveTitle('/etc/hosts - NVIM')).toEqual({ kind: 'outside', path: '/etc/hosts' });
    expect(await resolveTitle('../secrets/key.txt - flint - Visual Studio Code', 'Code')).toEqual({ kind: 'outside', path: '../secrets/key.txt' });
    expect(await resolveTitle('/home/ada/code/flint-other/src/app.ts - NVIM')).toEqual({ kind: 'outside', path: '/home/ada/code/flint-other/src/app.ts' });
  });

  it('resolves a name found in three folders by the one last used, else lists them', async () => {
    expect(await resolveTitle('index.ts - flint - Visual Studio Code', 'Code')).toEqual({ kind: 'ambiguous', name: 'index.ts', candidates: ['lib/index.ts', 'src/index.ts', 'test/index.ts'] });
    expect(await resolveTitle('index.ts - flint - Visual Studio Code', 'Code', { 'lib/index.ts': 10, 'test/index.ts': 30 })).toEqual({ kind: 'file', path: 'test/index.ts' });
  });

  it('finds nothing in a title with no file, or a file the project does not have', async () => {
    expect(await resolveTitle('flint - Visual Studio Code', 'Code')).toEqual({ kind: 'none' });
    expect(await resolveTitle('ada@devbox: ~/code/flint', 'gnome-terminal-server')).toEqual({ kind: 'none' });
    expect(await resolveTitle('notes.txt - flint - Visual Studio Code', 'Code')).toEqual({ kind: 'none' });
  });
});

describe('fileFromTitle with a project opened through a linked folder', () => {
  it('takes a full path through the link as inside the project (the root is a real path)', async () => {
    const base = await mkdtemp(join(tmpdir(), 'flint-title-link-'));
    try {
      await mkdir(join(base, 'disk/flint/src'), { recursive: true });
      await writeFile(join(base, 'disk/flint/src/app.ts'), 'x\n');
      await symlink(join(base, 'disk'), join(base, 'code'));
      const root = await realpath(join(base, 'code/flint'));
      // Sublime's default title: the path as the user opened it, through the link.
      const reading = readEditorTitle(`${join(base, 'code/flint/src/app.ts')} (flint) - Sublime Text`);
      const linked = { ...project(), root, realPath: (path: string) => realpath(path).catch(() => null) };
      expect(await fileFromTitle(reading, linked, '/home/ada')).toEqual({ kind: 'file', path: 'src/app.ts' });
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describe('windowNoteFor', () => {
  it('names the editor, or the window by its title, and offers the candidates', async () => {
    expect(windowNoteFor({ kind: 'ambiguous', name: 'index.ts', candidates: ['lib/index.ts', 'src/index.ts'] }, 'VS Code', 'x')).toEqual({
      message: 'The focused VS Code window shows index.ts, and 2 files of the project have that name: pick one.',
      candidates: ['lib/index.ts', 'src/index.ts'],
    });
    expect(windowNoteFor({ kind: 'none' }, null, 'Pull requests · flint - Chromium').message).toBe('The focused window (“Pull requests · flint - Chromium”) names no file of the project.');
  });
});

describe('notAnEditorNote', () => {
  it('names the app that is not an editor and the file that stays current, or what to do without one', () => {
    expect(notAnEditorNote('Google Chrome', 'src/app.ts')).toEqual({ message: 'Google Chrome is not an editor: the current file stays src/app.ts.', candidates: [] });
    expect(notAnEditorNote('a mail app', null)).toEqual({ message: 'A mail app is not an editor: save or select a file to ask about it.', candidates: [] });
  });
});
