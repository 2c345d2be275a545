import { describe, expect, it } from 'vitest';
import { measureWork } from '../../shared/work-meter';
import { readEditorTitle } from './editor-titles';
import type { WindowOwner } from './window-owners';

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
  // Windows that name no file: a shell prompt, nothing.
  ['ada@devbox: ~/code/flint', 'gnome-terminal-server', null, [], false],
  ['', '', null, [], false],
  // An unknown editor that names a path.
  ['[flint] /home/ada/code/flint/src/app.ts', 'geany', null, ['/home/ada/code/flint/src/app.ts'], false],
];

/** [title, owner, app]: windows of apps that are no editor, known by their owner; their titles are pages' and mails' to set. */
const NOT_EDITORS: ReadonlyArray<readonly [string, WindowOwner, string]> = [
  ['credentials.json - Google Chrome', { name: 'Google-chrome', path: '/opt/google/chrome/chrome' }, 'Google Chrome'],
  ['Docs | deploy/secrets.yaml \u2014 Mozilla Firefox', { name: 'firefox', path: '/usr/lib/firefox-esr/firefox-esr' }, 'Firefox'],
  ['Pull requests · flint - Chromium', { name: 'Chromium', path: '/usr/lib/chromium/chromium' }, 'Chromium'],
  // A page whose title copies an editor's, on Linux, macOS (by bundle id) and Windows (by executable).
  ['app.ts - flint - Visual Studio Code', { name: 'Chromium' }, 'Chromium'],
  ['● app.ts \u2014 flint \u2014 Visual Studio Code', { name: 'Arc', path: '/Applications/Arc.app/Contents/MacOS/Arc', bundleId: 'company.thebrowser.Browser' }, 'Arc'],
  ['/home/ada/code/flint/src/app.ts - NVIM', { name: 'Safari', bundleId: 'com.apple.Safari' }, 'Safari'],
  ['secrets.yaml - Work - Microsoft Edge', { name: 'Microsoft Edge', path: 'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe' }, 'Microsoft Edge'],
  ['app.ts - flint - Visual Studio Code', { name: '', path: 'C:\\Program Files\\BraveSoftware\\Brave-Browser\\Application\\brave.exe' }, 'Brave'],
  // Mail, chat, a file manager, an office suite.
  ['Re: src/app.ts review - Inbox - Mozilla Thunderbird', { name: 'thunderbird' }, 'Thunderbird'],
  ['app.ts (DM) - Acme - Slack', { name: 'Slack' }, 'Slack'],
  ['src - /home/ada/code/flint/src/app.ts', { name: 'org.gnome.Nautilus' }, 'a file manager'],
  ['notes.md - LibreOffice Writer', { name: 'libreoffice-writer' }, 'LibreOffice'],
];

describe('readEditorTitle', () => {
  it.each(TITLES)('reads %j (window class %j) as %j naming %j, dirty %j', (title, owner, editor, paths, isDirty) => {
    expect(readEditorTitle(title, owner)).toEqual({ editor, paths, isDirty });
  });

  it.each(NOT_EDITORS)('never reads a file from %j: its owner %j is %s, not an editor', (title, owner, app) => {
    expect(readEditorTitle(title, owner)).toEqual({ editor: null, paths: [], isDirty: false, notAnEditor: app });
  });

  it('still reads editors and the terminals vim runs in, and an unknown owner whose title is an editor\'s', () => {
    expect(readEditorTitle('app.ts - flint - Visual Studio Code', { name: 'Code', path: '/usr/share/code/code' })).toMatchObject({ editor: 'VS Code', paths: ['app.ts'] });
    expect(readEditorTitle('app.ts (~/code/flint/src) - VIM', { name: 'XTerm', path: '/usr/bin/xterm' })).toMatchObject({ editor: 'Vim', paths: ['~/code/flint/src/app.ts', 'app.ts'] });
    expect(readEditorTitle('/home/ada/code/flint/src/app.ts - NVIM', { name: 'org.wezfurlong.wezterm', path: '/usr/bin/wezterm-gui' })).toMatchObject({ editor: 'Neovim' });
    expect(readEditorTitle('app.ts - flint - Visual Studio Code', { name: 'some-electron-shell', path: '/opt/x/electron' })).toMatchObject({ editor: 'VS Code', paths: ['app.ts'] });
  });

  it('knows the editor by its window class when the title is unusual', () => {
    expect(readEditorTitle('app.ts', 'Code').editor).toBe('VS Code');
    expect(readEditorTitle('flint – app.ts', 'jetbrains-goland').editor).toBe('GoLand');
  });

  it('ignores bidirectional control characters a hostile title could use to disguise a path', () => {
    expect(readEditorTitle('\u202eapp.ts - flint - Visual Studio Code', 'Code').paths).toEqual(['app.ts']);
  });
  it('reads a hostile page title (thousands of slashes or spaces) no further than its first 1,000 characters: main never waits on a title', async () => {
    for (const [title, owner] of [[`${'/'.repeat(4000)} - Chromium`, 'geany'], [`a${' '.repeat(20_000)}b - Visual Studio Code`, 'code'], [`${'~/a'.repeat(2000)}.ts`, '']] as const) {
      const work = await measureWork(() => readEditorTitle(title, owner));
      expect(work, title.slice(0, 20)).toBe(await measureWork(() => readEditorTitle(title.slice(0, 1000), owner)));
      expect(work).toBeLessThanOrEqual(1000 * 1000);
    }
  });
});
