/**
 * The focused window and the selection, read for real: Xvfb, openbox, an editor window (an
 * xterm, titled as VS Code titles its own), a browser window (Chromium), X's PRIMARY
 * selection owned by xclip. get-windows and xclip run with the process environment, so
 * DISPLAY is set for this file.
 */
import { describe, expect, it } from 'vitest';
import { useXDesktop } from '../../../test/helpers/x-desktop-hooks';
import { readEditorTitle } from './editor-titles';
import { createFocusedWindowReader } from './focused-window';
import { createXclipSelectionReader, MAX_SELECTION_BYTES } from './primary-selection';

describe('the focused window and the selection on a real X desktop', () => {
  const xDesktop = useXDesktop();

  it('reads the title of the focused editor window, dirty marker, em dashes and unicode included', async () => {
    const title = '● café.ts — proyecto — Visual Studio Code';
    await xDesktop().showEditor(title);
    const read = createFocusedWindowReader({ env: xDesktop().env });
    const window = await read();
    expect(window).toMatchObject({ kind: 'window', title, ownerName: 'XTerm', ownerPath: '/usr/bin/xterm' });
    expect(window.kind === 'window' && window.processId > 0).toBe(true);
    // The user switches files: the next read sees the new title.
    await xDesktop().showEditor('server.py - api - Visual Studio Code');
    expect(await read()).toMatchObject({ kind: 'window', title: 'server.py - api - Visual Studio Code' });
  });

  it('reads who owns the window: a browser is known as one by its class and executable, whatever its page calls itself', async () => {
    const title = 'app.ts - flint - Visual Studio Code';
    await xDesktop().showBrowser(title);
    const window = await createFocusedWindowReader({ env: xDesktop().env })();
    expect(window).toMatchObject({ kind: 'window', title, ownerName: 'Chromium', ownerPath: expect.stringMatching(/\/chromium$/) });
    expect(window.kind === 'window' && readEditorTitle(window.title, { name: window.ownerName, path: window.ownerPath })).toEqual({ editor: null, paths: [], isDirty: false, notAnEditor: 'Chromium' });
    // Back in the terminal: the same title is an editor's.
    await xDesktop().showEditor(title);
    const editor = await createFocusedWindowReader({ env: xDesktop().env })();
    expect(editor.kind === 'window' && readEditorTitle(editor.title, { name: editor.ownerName, path: editor.ownerPath })).toMatchObject({ editor: 'VS Code', paths: ['app.ts'] });
  });

  it('says why when there is no X display, no xprop, or a Wayland session', async () => {
    expect(await createFocusedWindowReader({ platform: 'linux', env: { PATH: process.env.PATH } })()).toEqual({
      kind: 'unavailable',
      reason: 'No X display (DISPLAY is not set): Flint cannot see which window has focus.',
    });
    expect(await createFocusedWindowReader({ platform: 'linux', env: { DISPLAY: xDesktop().display, PATH: '/nonexistent' } })()).toEqual({
      kind: 'unavailable',
      reason: 'xprop is not installed (Debian/Ubuntu: apt install x11-utils), so Flint cannot see which window has focus.',
    });
    expect(await createFocusedWindowReader({ platform: 'linux', env: { XDG_SESSION_TYPE: 'wayland', WAYLAND_DISPLAY: 'wayland-0', PATH: process.env.PATH } })()).toMatchObject({
      kind: 'unavailable',
      reason: expect.stringContaining('Wayland session'),
    });
  });

  it('reads the PRIMARY selection the user made, and nothing when there is none', async () => {
    const read = createXclipSelectionReader(xDesktop().env);
    await xDesktop().select('  let sum = 0;\n  for (const item of items) sum += item.price;');
    expect(await read()).toEqual({ kind: 'text', text: '  let sum = 0;\n  for (const item of items) sum += item.price;' });
    await xDesktop().select(null);
    expect(await read()).toEqual({ kind: 'none' });
  });

  it('does not read a 10 MB selection whole: it says how large it is', async () => {
    await xDesktop().select('x'.repeat(10 * 1024 * 1024));
    const read = await createXclipSelectionReader(xDesktop().env)();
    expect(read.kind).toBe('too-large');
    expect(read.kind === 'too-large' && read.bytes > MAX_SELECTION_BYTES).toBe(true);
    await xDesktop().select(null);
  });

  it('says xclip is missing when it is', async () => {
    expect(await createXclipSelectionReader({ DISPLAY: xDesktop().display, PATH: '/nonexistent' })()).toEqual({
      kind: 'unavailable',
      reason: 'xclip is not installed (apt install xclip): the selection cannot be read.',
    });
  });
});
