import { describe, expect, it } from 'vitest';
import { measureWork } from '../../shared/work-meter';
import { readEditorTitle } from './editor-titles';

/** [title, window class, editor, paths, dirty]: the formats as the editors write them by default, and as the README's settings make them. */
const TITLES: ReadonlyArray<readonly [string, string, string | null, string[], boolean]> = [
  // VS Code: Linux/Windows separator, macOS separator, the dirty marker, a remote, a diff editor.
  ['app.ts - flint - Visual Studio Code', 'Code', 'VS Code', ['app.ts'], false],
  ['● app.ts — flint — Visual Studio Code', 'Code', 'VS Code', ['app.ts'], true],
  ['●app.ts - flint - Visual Studio Code', '', 'VS Code', ['app.ts'], true],
  ['app.ts - flint [SSH: devbox] - Visual Studio Code', 'Code', 'VS Code', ['app.ts'], false],
  ['app.ts (Working Tree) - flint - Visual Studio Code', 'Code', 'VS Code', ['app.ts'], false],
  ['src/app.ts - flint - Visual Studio Code', 'Code', 'VS Code', ['src/app.ts'], false],
  ['/home/ada/code/flint/src/app.ts - flint - Visual Studio Code', 'Code', 'VS Code', ['/home/ada/code/flint/src/app.ts'], false],
  ['flint - Visual Studio Code', 'Code', 'VS Code', [], false],
  ['app.ts - flint - Visual Studio Code - Insiders', 'Code - Insiders', 'VS Code', ['app.ts'], false],
  ['app.ts - flint - VSCodium', 'VSCodium', 'VS Code', ['app.ts'], false],
  ['● index.tsx - web - Cursor', 'Cursor', 'Cursor', ['index.tsx'], true],
  ['main.py — api — Windsurf', 'Windsurf', 'Windsurf', ['main.py'], false],
  // A name with " - " in it: everything before the folder is the file (its first part too, in case).
  ['notes - draft.md - flint - Visual Studio Code', 'Code', 'VS Code', ['notes - draft.md', 'notes'], false],
  // What VS Code adds on some set-ups.
  ['app.ts - flint - Visual Studio Code [Administrator]', 'Code.exe', 'VS Code', ['app.ts'], false],
  ['app.ts - flint - Visual Studio Code [Unsupported]', '', 'VS Code', ['app.ts'], false],
  // Unicode names survive.
  ['● café-ñandú.ts — proyecto — Visual Studio Code', 'Code', 'VS Code', ['café-ñandú.ts'], true],
  // JetBrains: 2023+ and the classic long form.
  ['flint – app.ts', 'jetbrains-webstorm', 'WebStorm', ['app.ts'], false],
  ['flint [~/code/flint] – …/src/app.ts [flint] – IntelliJ IDEA', 'jetbrains-idea', 'IntelliJ IDEA', ['src/app.ts'], false],
  ['api – services/user.py', 'jetbrains-pycharm', 'PyCharm', ['services/user.py'], false],
  // Sublime Text: the full path by default, the dirty dot, no project.
  ['~/code/flint/src/app.ts (flint) - Sublime Text', 'sublime_text', 'Sublime Text', ['~/code/flint/src/app.ts'], false],
  ['~/code/flint/src/app.ts • (flint) - Sublime Text', 'sublime_text', 'Sublime Text', ['~/code/flint/src/app.ts'], true],
  ['untitled - Sublime Text', 'sublime_text', 'Sublime Text', [], false],
  // Zed.
  ['flint — src/app.ts', 'dev.zed.Zed', 'Zed', ['src/app.ts'], false],
  ['flint', 'dev.zed.Zed', 'Zed', [], false],
  // Vim and Neovim in a terminal: the default titlestring, modified, and %F.
  ['app.ts (~/code/flint/src) - VIM', 'XTerm', 'Vim', ['~/code/flint/src/app.ts', 'app.ts'], false],
  ['app.ts + (~/code/flint/src) - VIM', 'gnome-terminal-server', 'Vim', ['~/code/flint/src/app.ts', 'app.ts'], true],
  ['app.ts + (~/code/flint/src) - Nvim', 'kitty', 'Neovim', ['~/code/flint/src/app.ts', 'app.ts'], true],
  ['/home/ada/code/flint/src/app.ts - NVIM', 'Alacritty', 'Neovim', ['/home/ada/code/flint/src/app.ts'], false],
  ['[No Name] - VIM', 'XTerm', 'Vim', [], false],
  // Emacs.
  ['app.ts - GNU Emacs at devbox', 'Emacs', 'Emacs', ['app.ts'], false],
  ['/home/ada/code/flint/src/app.ts - GNU Emacs at devbox', 'Emacs', 'Emacs', ['/home/ada/code/flint/src/app.ts'], false],
  ['*scratch* - GNU Emacs at devbox', 'Emacs', 'Emacs', [], false],
  // Windows that are no editor: a shell prompt, a browser, nothing.
  ['ada@devbox: ~/code/flint', 'gnome-terminal-server', null, [], false],
  ['Pull requests · flint - Chromium', 'Chromium', null, [], false],
  ['', '', null, [], false],
  // An unknown editor that names a path.
  ['[flint] /home/ada/code/flint/src/app.ts', 'geany', null, ['/home/ada/code/flint/src/app.ts'], false],
];

describe('readEditorTitle', () => {
  it.each(TITLES)('reads %j (window class %j) as %j naming %j, dirty %j', (title, owner, editor, paths, isDirty) => {
    expect(readEditorTitle(title, owner)).toEqual({ editor, paths, isDirty });
  });

  it('knows the editor by its window class when the title is unusual', () => {
    expect(readEditorTitle('app.ts', 'Code').editor).toBe('VS Code');
    expect(readEditorTitle('flint – app.ts', 'jetbrains-goland').editor).toBe('GoLand');
  });

  it('ignores bidirectional control characters a hostile title could use to disguise a path', () => {
    expect(readEditorTitle('\u202eapp.ts - flint - Visual Studio Code', 'Code').paths).toEqual(['app.ts']);
  });
  it('reads a hostile page title (thousands of slashes or spaces) no further than its first 1,000 characters: main never waits on a title', async () => {
    for (const [title, owner] of [[`${'/'.repeat(4000)} - Chromium`, 'chromium'], [`a${' '.repeat(20_000)}b - Visual Studio Code`, 'code'], [`${'~/a'.repeat(2000)}.ts`, '']] as const) {
      const work = await measureWork(() => readEditorTitle(title, owner));
      expect(work, title.slice(0, 20)).toBe(await measureWork(() => readEditorTitle(title.slice(0, 1000), owner)));
      expect(work).toBeLessThanOrEqual(1000 * 1000);
    }
  });
});
